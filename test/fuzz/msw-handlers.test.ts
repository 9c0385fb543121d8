// Fuzzes the msw handlers (createMockHandlers) with the in-process mock fuzz's cases, answered through msw's own
// getResponse (what setupServer and setupWorker call per request), so nothing patches the global fetch. Requests
// the handlers leave to msw's next handler (other paths) are counted, not judged. No 5xx, no rejection, no internal
// error in the log, no unhandled rejection. Unit tier: no child process.
import { getResponse } from 'msw';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockHandlers } from '../../src/msw/index.ts';
import { entryTally, expectNoFailures } from './support/entry-outcomes.ts';
import { feeListRequest, fuzzFetchEntry } from './support/fetch-fuzz.ts';
import { fuzzSettings, fuzzTimeout } from './support/fuzz-settings.ts';

const settings = fuzzSettings(process.env, 200);
const tally = entryTally('msw handlers');
const origin = 'http://127.0.0.1:4010';
const logLines: string[] = [];
const mock = createMockHandlers({ guide: 'both', settleDelayMs: 0, seed: '7', log: (chunk) => logLines.push(chunk) });
afterAll(() => mock.close());

describe('msw handlers fuzz', () => {
  it(
    `answer ${settings.runs} random and hostile requests, twice each, never a 5xx or a crash`,
    async () => {
      const entry = (request: Request) => getResponse(mock.handlers, request);
      const issueToken = () => mock.control.issueToken('test-client').token;
      for (let i = 0; i < 3; i++) expect((await entry(feeListRequest(origin, issueToken())))?.status).toBe(200);
      await fuzzFetchEntry(entry, origin, issueToken, tally, settings);
      console.info(tally.summary(settings));
      const internal = logLines.filter((l) => /internal error|RangeError|Maximum call stack/.test(l));
      expect.soft(internal.slice(0, 3)).toEqual([]);
      expectNoFailures(tally, { answers: true });
    },
    fuzzTimeout(settings.runs, 80),
  );
});
