// Fuzzes the mock in process (createMockApp(...).fetch, no socket): the same random, mutated, schema-derived and
// hostile requests as the HTTP fuzz (mock-http.test.ts), on every route, each sent twice so the second meets the
// caches its first one filled (the fee list's kept answers per variables and per body text). The caches are warm
// before the first case: the engine is loaded and compiled, and the kit's fee list answered and kept. No 5xx, no
// rejection of app.fetch, no internal error in the log, no unhandled rejection. Unit tier: no child process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockApp, type MockApp } from '../../src/mock/index.ts';
import { entryTally, expectNoFailures } from './support/entry-outcomes.ts';
import { feeListRequest, fuzzFetchEntry } from './support/fetch-fuzz.ts';
import { fuzzSettings, fuzzTimeout } from './support/fuzz-settings.ts';

const settings = fuzzSettings(process.env, 300);
const tally = entryTally('mock in process');
const origin = 'http://mock.test';
const logLines: string[] = [];
let app: MockApp;

beforeAll(async () => {
  app = createMockApp({ guide: 'both', settleDelayMs: 0, seed: '7', log: (chunk) => logLines.push(chunk) });
  await app.control.warmUp();
});
afterAll(() => app?.close());

describe('mock fuzz in process', () => {
  it(
    `answers ${settings.runs} random and hostile requests, twice each, with warm caches, never a 5xx or a crash`,
    async () => {
      const issueToken = () => app.control.issueToken('test-client').token;
      for (let i = 0; i < 3; i++) expect((await app.fetch(feeListRequest(origin, issueToken()))).status).toBe(200);
      await fuzzFetchEntry((request) => app.fetch(request), origin, issueToken, tally, settings);
      expect((await app.fetch(feeListRequest(origin, issueToken()))).status).toBe(200);
      console.info(tally.summary(settings));
      const internal = logLines.filter((l) => /internal error|RangeError|Maximum call stack/.test(l));
      expect.soft(internal.slice(0, 3)).toEqual([]);
      expectNoFailures(tally, { answers: true });
    },
    fuzzTimeout(settings.runs, 80),
  );
});
