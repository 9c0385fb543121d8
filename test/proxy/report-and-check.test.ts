// The proxy and `check` on the proxy's own recording tell one story: the same exchange carries the same number in the
// proxy's log, its report and `check`'s text and JSON, and every one of them shows a 13-digit expiration in
// milliseconds whole while still masking a card number the service echoed. In process: the mock, a stand-in service
// and the proxy on port 0, `check` through its run(argv, io).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run as check } from '../../src/cli/commands/check.ts';
import { startMockServer } from '../../src/mock/index.ts';
import { startProxy } from '../../src/proxy/index.ts';
import { serviceHeaders, servicePaths } from '../../src/spec-names.ts';
import { testCardNumbers } from '../../src/test-values.ts';
import { editJson, startDeviatingService } from './stand-in-service.ts';
import { rawRequest } from './support.ts';

const dir = mkdtempSync(join(tmpdir(), 'pck-report-and-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Not Luhn-valid, as most timestamps are not: a report must show it as the number it is.
const expirationMs = 1796150006000;
const card = testCardNumbers.visaSuccess;

function capture() {
  let stdout = '';
  return { io: { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: () => true } }, out: () => stdout };
}

describe('the proxy and check on its recording', () => {
  it('number the same exchange alike and mask the same digits', async () => {
    const mock = await startMockServer({ port: 0, log: false, clients: [{ clientId: 'acme', apiKey: 'key-1234567' }] });
    let tokens = 0;
    // The second token answer (so the 0-based HAR position and the proxy's number differ) comes back with its
    // expiration in milliseconds and the card number echoed in `status`.
    const service = await startDeviatingService(mock.url, {
      when: (req) => req.path === servicePaths.generateToken && ++tokens === 2,
      alter: (a) =>
        editJson(a, (v) => {
          v.data.expiration = expirationMs;
          v.status = card;
        }),
    });
    const lines: string[] = [];
    const reportFile = join(dir, 'report.json');
    const recordFile = join(dir, 'traffic.har');
    const proxy = await startProxy({ upstream: service.url, log: (line) => lines.push(line), reportFile, recordFile });
    const credentials = { [serviceHeaders.clientId]: 'acme', [serviceHeaders.apiKey]: 'key-1234567' };
    try {
      for (let i = 0; i < 3; i++)
        expect((await rawRequest(proxy.url, { path: servicePaths.generateToken, headers: credentials })).status).toBe(
          200,
        );
    } finally {
      await proxy.close();
      await Promise.all([service.close(), mock.close()]);
    }

    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as {
      drifts: { exchange: { seq: number }; path: string; actual: string }[];
    };
    const text = capture();
    const json = capture();
    expect(await check([recordFile], text.io)).toBe(1);
    expect(await check([recordFile, '--format', 'json'], json.io)).toBe(1);
    const checked = (JSON.parse(json.out()) as { results: { number: number; entry: number; drifts: unknown[] }[] })
      .results;

    // One numbering: the proxy's #2 is check's #2 (the third entry of the file is #3, and so on).
    expect([...new Set(report.drifts.map((d) => d.exchange.seq))]).toEqual([2]);
    expect(checked.filter((r) => r.drifts.length > 0).map((r) => r.number)).toEqual([2]);
    expect(checked.map((r) => [r.entry, r.number])).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
    ]);
    const log = lines.join('\n');
    expect(log).toMatch(new RegExp(`drift in #2 POST ${servicePaths.generateToken}`));
    expect(text.out()).toMatch(new RegExp(`traffic\\.har #2 POST ${servicePaths.generateToken}`));

    // The expiration shown whole, the card number masked, in the log, the report and check.
    const expirationDrift = report.drifts.find((d) => d.path === 'data.expiration');
    expect(expirationDrift?.actual).toContain(String(expirationMs));
    for (const [where, written] of Object.entries({ log, report: JSON.stringify(report), check: text.out() })) {
      expect(written, where).toContain(String(expirationMs));
      expect(written, where).toContain('411111******1111');
      expect(written.includes(card), `${card} in ${where}`).toBe(false);
    }
  });
});
