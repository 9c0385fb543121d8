// `check` in process, through its `run`: HAR files built from the real mock's traffic (the proxy's --record layout,
// webhooks marked) and a Chrome-style devtools HAR (HTTP/2 pseudo-headers, base64 content, a body left out, other
// hosts, a preflight, a blocked request); exit 0 clean, 1 with drifts, 2 on usage errors; text, JSON and JUnit. The
// built CLI as a process is test/cli/process/check.test.ts's.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../../src/cli/commands/check.ts';
import { mockBase } from '../../contract/check/support/mock-traffic.ts';
import { type CheckHars, writeCheckHars } from '../support/check-hars.ts';

const dir = mkdtempSync(join(tmpdir(), 'pck-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const write = (name: string, value: unknown) => {
  const file = join(dir, name);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
};

function capture() {
  let stdout = '';
  let stderr = '';
  return {
    io: { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } },
    out: () => stdout,
    err: () => stderr,
  };
}

let files: CheckHars;
beforeAll(async () => {
  files = await writeCheckHars(dir);
});

describe('check <file.har> (in process)', () => {
  it('is clean over every flow of the mock in both guides, webhooks included: exit 0, one summary line', async () => {
    const c = capture();
    expect(await run([files.clean, files.legacy], c.io)).toBe(0);
    const lines = c.out().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^CLEAN: (\d+) of \1 entries checked in 2 files, \1 clean, 0 with drifts; GraphQL checked against the current guide 12, the legacy guide 12;/,
    );
    expect(c.err()).toBe('');
  });

  it('reads a Chrome HAR: pseudo-headers dropped, base64 decoded, a body left out named, other hosts and paths skipped', async () => {
    const c = capture();
    expect(await run([files.chrome, '--format', 'json', '--origin', mockBase], c.io)).toBe(0);
    const { summary, results } = JSON.parse(c.out());
    expect(summary).toMatchObject({
      ok: true,
      entries: 16,
      checked: 13,
      clean: 13,
      skipped: { otherHosts: 1, otherPaths: 2, unreadable: 0 },
    });
    expect(results.filter((r: { unchecked?: string[] }) => r.unchecked)).toEqual([
      expect.objectContaining({ entry: 12, unchecked: ['the response body was not recorded'], drifts: [] }),
    ]);
    expect(results.find((r: { method: string }) => r.method === 'OPTIONS').skipped).toMatch(/preflight/);
    const c2 = capture();
    expect(await run([files.chrome, '--format', 'json'], c2.io)).toBe(0);
    expect(JSON.parse(c2.out()).summary.skipped).toEqual({ otherHosts: 0, otherPaths: 3, unreadable: 0 });
  });

  it('names each drift with its kind, path and ledger key, and exits 1', async () => {
    const c = capture();
    expect(await run([files.drifting], c.io)).toBe(1);
    expect(c.out()).toContain('DRIFT ');
    expect(c.out()).toContain('assumption response data.paymentGatewayFeesCalc[0].card_type: "VISA"');
    expect(c.out()).toContain('[feeTable]');
    expect(c.out()).toContain('assumption request (header) x-webhook-signing-key: (none); x-signature is present');
    expect(c.out()).toMatch(
      /contract response \(http\): HTTP 400 \(expected HTTP 200 for a GraphQL answer with data\)/,
    );
    expect(c.out()).toMatch(
      /^DRIFTS: 3 of 3 entries checked in 1 file, 0 clean, 3 with drifts \(1 contract, 2 assumption\);/m,
    );
    const j = capture();
    expect(await run([files.drifting, '--format', 'json'], j.io)).toBe(1);
    const { results } = JSON.parse(j.out());
    expect(
      results.map((r: { drifts: { kind: string; path: string; ledgerKey?: string }[] }) =>
        r.drifts.map((d) => [d.kind, d.path, d.ledgerKey ?? null]),
      ),
    ).toEqual([
      [['assumption', 'data.paymentGatewayFeesCalc[0].card_type', 'feeTable']],
      [['assumption', '(header) x-webhook-signing-key', 'webhook']],
      [['contract', '(http)', null]],
    ]);
  });

  it("judges assumption drifts against a team's ledger given with --config (the mock's config file)", async () => {
    // The team's ledger says what drifting.har's service does: upper-case card type names, a renamed signature
    // header. Those two entries are clean; the third (HTTP 400 with data, lower-case "visa") now drifts from the team's
    // ledger as well as from the contract.
    const teamLedger = write('team.config.json', {
      assumptions: {
        feeTable: [
          { card_type: 'VISA', percent: 1.5, fixed: 0.3, card_location: 'domestic' },
          { card_type: 'mastercard', percent: 1.5, fixed: 0.3, card_location: 'domestic' },
          { card_type: 'amex', percent: 2.9, fixed: 0.3, card_location: 'international' },
          { card_type: 'diners', percent: 2.9, fixed: 0.3, card_location: 'international' },
        ],
        webhook: { signingKeyHeader: 'x-signature' },
      },
    });
    const c = capture();
    expect(await run([files.drifting, '--config', teamLedger, '--format', 'json'], c.io)).toBe(1);
    const { results } = JSON.parse(c.out());
    expect(
      results.map((r: { drifts: { kind: string; path: string }[] }) => r.drifts.map((d) => [d.kind, d.path])),
    ).toEqual([
      [],
      [],
      [
        ['contract', '(http)'],
        ['assumption', 'data.paymentGatewayFeesCalc[0].card_type'],
      ],
    ]);
    // The other way round: the mock's own clean traffic against a ledger that names the first status otherwise.
    const otherLedger = write('other.config.json', { assumptions: { statusNames: { processing: 'IN_PROGRESS' } } });
    const o = capture();
    expect(await run([files.clean, '--config', otherLedger, '--format', 'json'], o.io)).toBe(1);
    const drifts = JSON.parse(o.out()).results.flatMap((r: { drifts: unknown[] }) => r.drifts);
    expect(drifts.length).toBeGreaterThan(0);
    expect(drifts.every((d: { kind: string; ledgerKey?: string }) => d.kind === 'assumption')).toBe(true);
    expect(drifts.map((d: { ledgerKey?: string }) => d.ledgerKey)).toContain('statusNames');
    // And with the kit's own ledger spelled out in a config file, the clean traffic stays clean.
    const same = write('same.config.json', { assumptions: { statusNames: { processing: 'processing' } } });
    expect(await run([files.clean, '--config', same], capture().io)).toBe(0);
  });

  it.each([
    ['missing.config.json', null, '--config: cannot read'],
    ['bad.config.json', '{"assumptions":', 'is not valid JSON'],
    ['unknown.config.json', '{"assumptions":{"nope":1}}', '--config: unknown assumption "nope"'],
    ['nested.config.json', '{"assumptions":{"store":{"leaseMz":1}}}', '--config: unknown assumption "store.leaseMz"'],
    [
      'typed.config.json',
      '{"assumptions":{"settleDelayMs":"x"}}',
      '--config: assumption "settleDelayMs" must be a number of at least 0, got "x".',
    ],
    ['shape.config.json', '{"client":[]}', 'unknown key "client"'],
  ])('answers exit 2 for a --config file it cannot use: %s', async (name, content, text) => {
    const file = content === null ? join(dir, name) : write(name, content);
    const c = capture();
    expect(await run([files.clean, '--config', file], c.io)).toBe(2);
    expect(c.err()).toContain(text);
    expect(c.err()).toMatch(/^\[payment-contract-kit\] check: --config: .*Run "payment-contract-kit check --help"/);
    expect(c.out()).toBe('');
  });

  it('writes JUnit XML: a suite per file, a failing case per entry with drifts', async () => {
    const c = capture();
    expect(await run([files.drifting, files.legacy, '--format', 'junit'], c.io)).toBe(1);
    const xml = c.out();
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="payment-contract-kit check" tests="\d+" failures="3" skipped="0">/,
    );
    expect(xml.match(/<testsuite /g)).toHaveLength(2);
    expect(xml.match(/<failure /g)).toHaveLength(3);
    expect(xml).toContain('type="assumption"');
  });

  it.each([
    [['no/such.har'], 'no such file: no/such.har.'],
    [['--format', 'xml', 'x.har'], '--format must be text, json or junit, got "xml".'],
    [['--guide', 'newest', 'x.har'], '--guide must be current, legacy or both, got "newest".'],
    [['--origin', 'sandbox.example', 'x.har'], '--origin must be an http(s) origin'],
    [[], 'give at least one HAR file'],
    [['--verbose', 'x.har'], "Unknown option '--verbose'"],
  ])('answers a usage error with exit 2: %j', async (args, text) => {
    const c = capture();
    expect(await run(args, c.io)).toBe(2);
    expect(c.err()).toContain(text);
    expect(c.err()).toMatch(
      /^\[payment-contract-kit\] check: .*Run "payment-contract-kit check --help" for the options\.\n$/,
    );
    expect(c.out()).toBe('');
  });

  it('answers exit 2 for a file that is not JSON or not a HAR', async () => {
    for (const [name, content, text] of [
      ['notes.har', 'hello', 'is not JSON, so not a HAR file'],
      ['pact.har', '{"consumer":{}}', 'is not a HAR file: it has no "log" object'],
    ] as const) {
      const c = capture();
      expect(await run([write(name, content)], c.io)).toBe(2);
      expect(c.err()).toContain(text);
    }
  });
});

describe('check exit codes and help (in process)', () => {
  it('exits 0 clean, 1 with drifts, 2 on a usage error, and prints its help', async () => {
    expect(await run([files.clean], capture().io)).toBe(0);
    expect(await run([files.drifting], capture().io)).toBe(1);
    const usage = capture();
    expect(await run([join(dir, 'missing.har')], usage.io)).toBe(2);
    expect(usage.err()).toContain('no such file');
    const help = capture();
    expect(await run(['--help'], help.io)).toBe(0);
    expect(help.out()).toMatch(/^Usage: payment-contract-kit check <file.har>\.\.\. \[options\]/);
  });
});
