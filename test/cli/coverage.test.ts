// `coverage` and `coverage merge` in process: reading files and a running mock, the gate's exit codes and what it
// says, merging, and the usage errors (exit 2) for a bad file, URL, flag or behaviour id.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../src/assumptions.ts';
import { run as coverage } from '../../src/cli/commands/coverage.ts';
import { run as merge } from '../../src/cli/commands/coverage-merge.ts';
import { main } from '../../src/cli/dispatch.ts';
import { behaviourCatalogue } from '../../src/contract/coverage/catalogue.ts';
import { coverageReport } from '../../src/contract/coverage/report.ts';
import { startMockServer } from '../../src/mock/index.ts';
import { servicePaths } from '../../src/spec-names.ts';
import { captureIo } from '../support/cli-in-process.ts';

const scratch = mkdtempSync(join(tmpdir(), 'pck-coverage-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const catalogue = behaviourCatalogue(defaultAssumptions);

function reportFile(name: string, counts: Record<string, number>): string {
  const file = join(scratch, name);
  writeFileSync(file, JSON.stringify(coverageReport(catalogue, new Map(Object.entries(counts)))));
  return file;
}
async function cli(command: typeof coverage, args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const c = captureIo();
  const code = await command(args, c.io, env);
  return { code, out: c.out(), err: c.err() };
}
const allBut = (...left: string[]) =>
  Object.fromEntries(catalogue.filter((b) => !left.includes(b.id)).map((b) => [b.id, 1]));

describe('payment-contract-kit coverage', () => {
  it('prints the text report and exits 0 without a gate', async () => {
    const r = await cli(coverage, [reportFile('one.json', { 'token.generate': 1 })]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Service behaviours exercised: 1 of \d+/);
    expect(r.err).toBe('');
  });

  it('--min exits 1 below the bar and says by how much; 0 at or above it', async () => {
    const file = reportFile('most.json', allBut('token.expired', 'webhook.failure'));
    const percent = ((catalogue.length - 2) / catalogue.length) * 100;
    expect((await cli(coverage, [file, '--min', String(Math.floor(percent))])).code).toBe(0);
    const below = await cli(coverage, [file, '--min', '100']);
    expect(below.code).toBe(1);
    expect(below.err).toContain(`${percent.toFixed(1)}% of the behaviours were exercised, below --min 100.`);
  });

  it('--require exits 1 naming each required behaviour never exercised', async () => {
    const file = reportFile('gaps.json', allBut('token.expired', 'webhook.failure'));
    const r = await cli(coverage, [
      file,
      '--min',
      '80',
      '--require',
      'token.expired,webhook.failure',
      '--require',
      'token.generate',
    ]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('never exercised, but required: token.expired (');
    expect(r.err).toContain('webhook.failure (the final webhook delivered with status failure)');
    expect(r.err).not.toContain('token.generate (');
    expect((await cli(coverage, [file, '--require', 'token.generate'])).code).toBe(0);
  });

  it('reads several files as one merged report, and writes JSON and JUnit', async () => {
    const a = reportFile('a.json', { 'token.generate': 1 });
    const b = reportFile('b.json', { 'token.generate': 2, 'card.refused': 1 });
    const json = await cli(coverage, [a, b, '--format', 'json']);
    const report = JSON.parse(json.out);
    expect(report.covered).toBe(2);
    expect(report.behaviours.find((x: { id: string }) => x.id === 'token.generate').count).toBe(3);
    const junit = await cli(coverage, [a, '--format', 'junit']);
    expect(junit.out.match(/<testcase /g)).toHaveLength(catalogue.length);
  });

  it('reads a running mock by its base URL, with its control token', async () => {
    const mock = await startMockServer({ port: 0, log: false, controlToken: 'coverage-secret-token' });
    try {
      await fetch(`${mock.url}${servicePaths.generateToken}`, {
        method: 'POST',
        headers: { 'x-client-id': 'test-client', 'x-api-key': 'test-api-key' },
      });
      const refused = await cli(coverage, [mock.url]);
      expect(refused.code).toBe(2);
      expect(refused.err).toContain('asks for the control token');
      const r = await cli(coverage, [mock.url, '--require', 'token.generate'], {
        PCK_CONTROL_TOKEN: 'coverage-secret-token',
      });
      expect(r.code).toBe(0);
      expect(r.out).toContain('ok    token.generate (1x)');
    } finally {
      await mock.close();
    }
  });

  it('answers 2 with a clear line for a bad file, URL, flag or id', async () => {
    const notJson = join(scratch, 'not.json');
    writeFileSync(notJson, 'nope');
    const notReport = join(scratch, 'har.json');
    writeFileSync(notReport, JSON.stringify({ log: { entries: [] } }));
    const good = reportFile('good.json', {});
    const cases: [string[], RegExp][] = [
      [[], /give a coverage file or a mock URL/],
      [[join(scratch, 'missing.json')], /no such file: .*missing\.json\./],
      [[notJson], /not\.json is not JSON, so not a coverage report\./],
      [[notReport], /har\.json is not a coverage report: it has no "behaviours" list\./],
      [['http://127.0.0.1:1'], /cannot reach http:\/\/127\.0\.0\.1:1\/__pck\/coverage/],
      [[good, '--min', 'lots'], /--min must be a percentage from 0 to 100, got "lots"\./],
      [[good, '--require', 'token.expird'], /--require names no behaviour "token\.expird"/],
      [[good, '--format', 'pdf'], /--format must be text, json or junit/],
      [[good, '--bogus'], /Unknown option '--bogus'/],
    ];
    for (const [args, message] of cases) {
      const r = await cli(coverage, args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err, args.join(' ')).toMatch(message);
      expect(r.err.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
  });
});

describe('a coverage source over 16 MiB', () => {
  const limit = 16 * 1024 * 1024;
  const tooLarge = /holds more than 16 MiB, so it is not a coverage report/;
  /** A real report padded with spaces (JSON allows them) to `bytes`. */
  function paddedReport(name: string, bytes: number): string {
    const text = JSON.stringify(coverageReport(catalogue, new Map([['token.generate', 1]])));
    const file = join(scratch, name);
    writeFileSync(file, text + ' '.repeat(bytes - Buffer.byteLength(text)));
    return file;
  }

  it('is read up to the limit, and refused past it with exit 2 and one line, by coverage and coverage merge', async () => {
    expect((await cli(coverage, [paddedReport('at-limit.json', limit)])).code).toBe(0);
    const over = paddedReport('over-limit.json', limit + 1);
    for (const command of [coverage, merge]) {
      const r = await cli(command, [over]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(tooLarge);
      expect(r.err).toContain('over-limit.json');
      expect(r.err.trim().split('\n')).toHaveLength(1);
    }
  });

  it('is refused from a URL too, with or without a content-length', async () => {
    const chunk = Buffer.alloc(1024 * 1024, ' ');
    const server = createServer((req, res) => {
      const declared = req.url?.includes('declared') === true;
      res.writeHead(200, {
        'content-type': 'application/json',
        ...(declared ? { 'content-length': String(limit + chunk.length) } : {}),
      });
      // One chunk past the limit, then the answer would go on: the reader stops at the limit and hangs up.
      let sent = 0;
      const more = () => {
        while (sent <= limit) {
          sent += chunk.length;
          if (!res.write(chunk)) return;
        }
        res.end();
      };
      res.on('drain', more);
      res.on('error', () => {});
      more();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const path of ['/streamed/__pck/coverage', '/declared/__pck/coverage']) {
        const r = await cli(coverage, [`${base}${path}`]);
        expect(r.code, path).toBe(2);
        expect(r.err, path).toMatch(tooLarge);
      }
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('payment-contract-kit coverage merge', () => {
  it('adds the counts of every report, to stdout or --output', async () => {
    const a = reportFile('m1.json', { 'token.generate': 1, 'webhook.retried': 1 });
    const b = reportFile('m2.json', { 'token.generate': 4 });
    const out = join(scratch, 'merged', 'coverage.json');
    expect((await cli(merge, [a, b, '--output', out])).code).toBe(0);
    const merged = JSON.parse(readFileSync(out, 'utf8'));
    expect(merged).toEqual(
      coverageReport(
        catalogue,
        new Map([
          ['token.generate', 5],
          ['webhook.retried', 1],
        ]),
      ),
    );
    const printed = await cli(merge, [a, b]);
    expect(JSON.parse(printed.out)).toEqual(merged);
  });

  it('answers 2 for no reports or one that is not a report', async () => {
    expect((await cli(merge, [])).err).toMatch(/give the reports to merge/);
    const r = await cli(merge, [join(scratch, 'nothing.json')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/coverage merge: no such file/);
  });

  it('is listed by the dispatch, the two-word command beside the one-word one', async () => {
    const c = captureIo();
    expect(await main(['--help'], c.io)).toBe(0);
    expect(c.out()).toMatch(/\n {2}coverage {2,}Report and gate on which of the service's behaviours/);
    expect(c.out()).toMatch(/\n {2}coverage merge {2,}Merge coverage reports/);
  });
});
