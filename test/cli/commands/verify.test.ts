// `verify` in process, through its `run`: static checks in text, JSON and JUnit, usage errors, and both ways with an
// injected fake runner. The built CLI as a process, and the real Pact verifier (which the command runs in a child
// process of its own), are test/cli/process/verify.test.ts's.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run, type VerifyDependencies } from '../../../src/cli/commands/verify.ts';
import type { DynamicVerifier } from '../../../src/pact/verify/dynamic-seam.ts';
import { loadOpenApi } from '../../../src/pact/verify/openapi-document.ts';
import { parseXml } from '../support/junit-xml.ts';

const root = resolve(import.meta.dirname, '../../..');
const good = 'test/pact/fixtures/verify/good';
const wrong = 'test/pact/fixtures/verify/wrong';

describe('payment-contract-kit verify (in process)', () => {
  it('passes the good fixtures and the shipped contracts statically, one line per interaction', async () => {
    const { code, stdout, stderr } = await runWith([good, 'contracts', '--static-only'], {});
    expect(stderr).toBe('');
    const lines = stdout.trimEnd().split('\n');
    expect(lines.filter((l) => l.startsWith('PASS static '))).toHaveLength(8 + 27);
    expect(lines.at(-1)).toBe(
      '35 interactions: static 35 passed, 0 failed; dynamic not run (--static-only); GraphQL checked against the current guide 16, the legacy guide 5',
    );
    expect(code).toBe(0);
  });

  it('fails the wrong fixtures with exit 1, each line naming the interaction and its reason', async () => {
    const { code, stdout } = await runWith([wrong, '--static-only'], {});
    expect(code).toBe(1);
    const lines = stdout.trimEnd().split('\n');
    expect(lines.filter((l) => l.startsWith('FAIL static '))).toHaveLength(12);
    expect(lines).toContain(
      'FAIL static  "wrong: a webhook message missing uuid" (test/pact/fixtures/verify/wrong/v3-webhook-receiver-card-payment-service.json, message): message.contents $.uuid: required property "uuid" is missing (expected uuid (PaymentStatusWebhookPayload in openapi.yaml))',
    );
    // Several reasons: each on an indented line of its own under the interaction's line.
    const header = lines.findIndex((l) => l.includes('"wrong: a misspelt header name"'));
    expect(lines[header]).toMatch(/REST\): 2 problems$/);
    expect(lines.slice(header + 1, header + 3)).toEqual([
      '    - request.header x-client-id: required header missing (expected x-client-id on POST /api/v2/accounting/token/generate-token (openapi.yaml))',
      '    - request.header x-client: unknown header "x-client" (expected one of x-client-id, x-api-key on POST /api/v2/accounting/token/generate-token (openapi.yaml))',
    ]);
  });

  it('writes JSON with a result per interaction and its reasons', async () => {
    const { code, stdout } = await runWith([wrong, '--static-only', '--format', 'json'], {});
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    expect(report.summary).toMatchObject({ ok: false, interactions: 12, dynamic: 'not run (--static-only)' });
    const status = report.results.find((r: { interaction: string }) => r.interaction.includes('REST status'));
    expect(status).toMatchObject({ mode: 'static', kind: 'rest', ok: false, consumer: 'rest-client' });
    expect(status.reasons[0]).toMatch(/^response\.status 404: status 404 is not documented/);
  });

  it('writes JUnit XML: a suite per pact file, a failing test case per wrong interaction', async () => {
    const { code, stdout } = await runWith([wrong, good, '--static-only', '--format', 'junit'], {});
    expect(code).toBe(1);
    const suites = parseXml(stdout);
    expect(suites.name).toBe('testsuites');
    expect(suites.attributes).toMatchObject({ tests: '20', failures: '12', skipped: '0' });
    expect(suites.children).toHaveLength(7);
    const cases = suites.children.flatMap((s) => s.children);
    const failed = cases.filter((c) => c.children.some((f) => f.name === 'failure'));
    expect(failed).toHaveLength(12);
    const header = cases.find((c) => c.attributes.name === '[static] wrong: a misspelt header name');
    expect(header?.children[0]?.text).toContain('request.header x-client: unknown header "x-client"');
  });

  it.each([
    [['--guide', 'newest', good], '--guide must be current, legacy or both, got "newest".'],
    [['--format', 'xml', good], '--format must be text, json or junit, got "xml".'],
    [['--static-only', '--dynamic-only', good], '--static-only and --dynamic-only exclude each other'],
    [[], 'give at least one pact file or folder'],
    [['no/such/pacts'], 'no such file or folder: no/such/pacts.'],
    [['--verbose', good], "Unknown option '--verbose'."],
  ])('answers a usage error with exit 2: %j', async (args, message) => {
    const { code, stdout, stderr } = await runWith(args, {});
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(`[payment-contract-kit] verify: ${message}`);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});

/** The command in process, with its outside world replaced. */
async function runWith(argv: string[], deps: Partial<VerifyDependencies>) {
  let stdout = '';
  let stderr = '';
  const io = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } };
  const code = await run(argv, io, {
    loadDynamic: async () => undefined,
    pactInstalled: () => true,
    openapi: () => loadOpenApi(),
    ...deps,
  });
  return { code, stdout, stderr };
}

/** A fake runner: passes everything but the interactions named in `failing`, and records what it was given. */
function fakeRunner(failing: Record<string, string> = {}) {
  const calls: Parameters<DynamicVerifier>[0][] = [];
  const runner: DynamicVerifier = async (options) => {
    calls.push(options);
    const { readPactFiles } = await import('../../../src/pact/verify/pact-files.ts');
    const { pacts } = readPactFiles(options.pactFiles);
    return pacts.flatMap((p) =>
      p.interactions.map((i) => ({
        file: p.file,
        consumer: p.consumer,
        provider: p.provider,
        interaction: i.description,
        ok: !(i.description in failing),
        reasons: i.description in failing ? [failing[i.description]!] : [],
      })),
    );
  };
  return { runner, calls };
}

describe('verify with a dynamic runner (in process)', () => {
  it('runs both ways, lists the static and dynamic line of each interaction together, and passes', async () => {
    const { runner, calls } = fakeRunner();
    const { code, stdout } = await runWith([good, '--guide', 'current'], { loadDynamic: async () => runner });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.guide).toBe('current');
    expect(calls[0]?.pactFiles).toHaveLength(4);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^PASS static {2}"a token request"/);
    expect(lines[1]).toMatch(/^PASS dynamic "a token request"/);
    expect(lines.at(-1)).toBe(
      '8 interactions: static 8 passed, 0 failed; dynamic 8 passed, 0 failed; GraphQL checked against the current guide 5, the legacy guide 0',
    );
    expect(code).toBe(0);
  });

  it('fails when an interaction fails dynamically, with the runner’s reason', async () => {
    const { runner } = fakeRunner({ 'a fee list request': 'response status 401 != 200' });
    const { code, stdout } = await runWith([good], { loadDynamic: async () => runner });
    expect(code).toBe(1);
    expect(stdout).toContain(
      'FAIL dynamic "a fee list request" (test/pact/fixtures/verify/good/v2-ruby-shop-card-payment-service.json, GraphQL, current guide): response status 401 != 200',
    );
  });

  it('with --dynamic-only, prints dynamic lines only', async () => {
    const { runner } = fakeRunner();
    const { code, stdout } = await runWith([good, '--dynamic-only'], { loadDynamic: async () => runner });
    expect(code).toBe(0);
    expect(stdout).not.toContain('static');
  });

  it('fails an interaction the runner says nothing about', async () => {
    const runner: DynamicVerifier = async () => [];
    const { code, stdout } = await runWith([good, '--dynamic-only'], { loadDynamic: async () => runner });
    expect(code).toBe(1);
    expect(stdout).toContain('FAIL dynamic "a token request"');
    expect(stdout).toContain('the dynamic runner reported nothing for this interaction');
  });

  it('says how to install @pact-foundation/pact when it is missing, without calling the runner', async () => {
    const { runner, calls } = fakeRunner();
    const { code, stderr } = await runWith([good], { loadDynamic: async () => runner, pactInstalled: () => false });
    expect(code).toBe(1);
    expect(calls).toHaveLength(0);
    expect(stderr).toBe(
      '[payment-contract-kit] verify: dynamic verification needs @pact-foundation/pact, an optional peer that is not installed: run "npm install --save-dev @pact-foundation/pact", or pass --static-only.\n',
    );
  });

  it('reports a file that is not a pact as one failed line and still checks the others', async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'pck-verify-'));
    try {
      writeFileSync(join(scratch, 'broken.json'), '{');
      writeFileSync(join(scratch, 'no-consumer.json'), JSON.stringify({ provider: { name: 'p' }, interactions: [] }));
      const { code, stdout } = await runWith([scratch, good, '--static-only'], {});
      expect(code).toBe(1);
      expect(stdout).toContain(
        `FAIL static  "(the file)" (${join(scratch, 'no-consumer.json')}, file): consumer.name is missing;`,
      );
      expect(stdout).toMatch(/FAIL static {2}"\(the file\)" \(.*broken\.json, file\): not JSON: /);
      expect(stdout.trimEnd().split('\n').at(-1)).toBe(
        '8 interactions: static 8 passed, 0 failed; dynamic not run (--static-only); 2 files not read; GraphQL checked against the current guide 5, the legacy guide 0',
      );
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it('reports a failing pending interaction without failing the run', async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'pck-verify-'));
    try {
      const pending = {
        consumer: { name: 'shop' },
        provider: { name: 'card-payment-service' },
        metadata: { pactSpecification: { version: '4.0' } },
        interactions: [
          {
            type: 'Synchronous/HTTP',
            description: 'a future endpoint',
            pending: true,
            request: { method: 'POST', path: '/api/v3/payments' },
            response: { status: 201 },
          },
        ],
      };
      writeFileSync(join(scratch, 'pending.json'), JSON.stringify(pending));
      const { code, stdout } = await runWith([scratch, '--static-only'], {});
      expect(stdout).toContain('PEND static  "a future endpoint"');
      expect(stdout).toContain('[pending: does not fail the run]: request.path /api/v3/payments: no such path');
      expect(code).toBe(0);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it('reports a runner that throws in one line, and exits 1', async () => {
    const runner: DynamicVerifier = async () => {
      throw new Error('verifier\ncrashed');
    };
    const { code, stderr } = await runWith([good], { loadDynamic: async () => runner });
    expect(code).toBe(1);
    expect(stderr).toBe('[payment-contract-kit] verify: dynamic verification failed to run: verifier crashed\n');
  });
});

// Issue 25: which guide each interaction was checked against is said in every format, and a pact that names no guide
// but is written in the legacy guide's names gets a warning under the default --guide both (decision 0005).
describe('verify says which guide it checked against', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pck-verify-guide-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const legacyPact = JSON.parse(
    readFileSync(join(root, 'contracts/payment-contract-kit-legacy-guide-card-payment-service.json'), 'utf8'),
  );
  const unnamed = join(dir, 'shop-web-card-payment-service.json');
  writeFileSync(unnamed, JSON.stringify({ ...legacyPact, consumer: { name: 'shop-web' } }));
  const named = 'contracts/payment-contract-kit-legacy-guide-card-payment-service.json';
  const legacyGraphql = legacyPact.interactions.filter(
    (i: { request: { path: string } }) => i.request.path === '/graphql',
  );

  it('warns on standard error, in every format, when --guide both found a pact entirely in the legacy guide', async () => {
    for (const format of ['text', 'json', 'junit']) {
      const { code, stdout, stderr } = await runWith([unnamed, '--static-only', '--format', format], {});
      expect(code).toBe(0);
      expect(stderr).toBe(
        `[payment-contract-kit] verify: every GraphQL interaction of ${unnamed} (${legacyGraphql.length}) uses the legacy guide's names (total, card_location, number, ProcessPaymentInput, the contact's reference_no), so --guide both checked it against the legacy guide. If the pact is meant for the current interface, move it to the current names; if it is meant for the legacy guide, say so with --guide legacy or the word "legacy" in its consumer or provider name.\n`,
      );
      if (format === 'json') {
        const { summary, results } = JSON.parse(stdout);
        expect(summary.guides).toEqual({ current: 0, legacy: legacyGraphql.length });
        expect(summary.warnings).toHaveLength(1);
        expect(results.filter((r: { guide?: string }) => r.guide === 'legacy')).toHaveLength(legacyGraphql.length);
      }
      if (format === 'text')
        expect(stdout.trimEnd().split('\n').at(-1)).toMatch(
          new RegExp(`GraphQL checked against the current guide 0, the legacy guide ${legacyGraphql.length}$`),
        );
      if (format === 'junit')
        expect(stdout.match(/<system-out>checked against the legacy guide<\/system-out>/g)).toHaveLength(
          legacyGraphql.length,
        );
    }
  });

  it('stays quiet for a pact that names its guide, and under --guide legacy', async () => {
    expect((await runWith([named, '--static-only'], {})).stderr).toBe('');
    expect((await runWith([unnamed, '--static-only', '--guide', 'legacy'], {})).stderr).toBe('');
  });

  it('fails the unnamed legacy pact under --guide current, naming the guide of each unknown name', async () => {
    const { code, stdout } = await runWith([unnamed, '--static-only', '--guide', 'current'], {});
    expect(code).toBe(1);
    expect(stdout).toContain('"total" is a name of the legacy guide');
  });
});
