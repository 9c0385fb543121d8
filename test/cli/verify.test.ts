// `verify` as users run it: the built CLI (dist/cli, so the bundled YAML reader and the packaged openapi.yaml are
// what runs) as a child process, in text, JSON and JUnit, statically and both ways with the real Pact verifier; the
// command's logic with an injected fake runner.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run, type VerifyDependencies } from '../../src/cli/commands/verify.ts';
import type { DynamicVerifier } from '../../src/pact/verify/dynamic-seam.ts';
import { loadOpenApi } from '../../src/pact/verify/openapi-document.ts';

const root = resolve(import.meta.dirname, '../..');
const built = join(root, 'dist/cli/index.js');
const good = 'test/pact/fixtures/verify/good';
const wrong = 'test/pact/fixtures/verify/wrong';

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  if (!existsSync(built)) throw new Error(`${built} is missing: run "npm run build" before this test.`);
  return new Promise((done) => {
    execFile(process.execPath, [built, 'verify', ...args], { cwd: root, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      done({ code, stdout, stderr });
    });
  });
}

/** A small XML reader for the JUnit report: elements with attributes and text, nesting checked. */
interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}
function parseXml(text: string): XmlElement {
  const decode = (s: string) =>
    s
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  const body = text.replace(/^<\?xml[^>]*\?>\s*/, '');
  const document: XmlElement = { name: '#document', attributes: {}, children: [], text: '' };
  const stack = [document];
  const token = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w.-]+="[^"]*")*)\s*(\/?)>|([^<]+)/gy;
  let consumed = 0;
  for (const match of body.matchAll(token)) {
    consumed = match.index + match[0].length;
    const [, closing, name, attrs, selfClosing, chars] = match;
    const top = stack[stack.length - 1]!;
    if (chars !== undefined) {
      top.text += decode(chars);
      continue;
    }
    if (closing) {
      if (top.name !== name) throw new Error(`</${name}> closes <${top.name}>`);
      stack.pop();
      continue;
    }
    const attributes: Record<string, string> = {};
    for (const [, key, value] of (attrs ?? '').matchAll(/([\w.-]+)="([^"]*)"/g)) attributes[key!] = decode(value!);
    const element: XmlElement = { name: name!, attributes, children: [], text: '' };
    top.children.push(element);
    if (!selfClosing) stack.push(element);
  }
  if (consumed !== body.length || stack.length !== 1) throw new Error('the XML is not well formed');
  return document.children[0]!;
}

describe('payment-contract-kit verify (built CLI)', () => {
  it('passes the good fixtures and the shipped contracts statically, one line per interaction', async () => {
    const { code, stdout, stderr } = await cli([good, 'contracts', '--static-only']);
    expect(stderr).toBe('');
    const lines = stdout.trimEnd().split('\n');
    expect(lines.filter((l) => l.startsWith('PASS static '))).toHaveLength(8 + 27);
    expect(lines.at(-1)).toBe(
      '35 interactions: static 35 passed, 0 failed; dynamic not run (--static-only); GraphQL checked against the current guide 16, the legacy guide 5',
    );
    expect(code).toBe(0);
  });

  it('fails the wrong fixtures with exit 1, each line naming the interaction and its reason', async () => {
    const { code, stdout } = await cli([wrong, '--static-only']);
    expect(code).toBe(1);
    const lines = stdout.trimEnd().split('\n');
    expect(lines.filter((l) => l.startsWith('FAIL static '))).toHaveLength(12);
    expect(lines).toContain(
      'FAIL static  "wrong: a webhook message missing uuid" (test/pact/fixtures/verify/wrong/v3-webhook-receiver-card-payment-service.json, message): message.contents $.uuid: required property "uuid" is missing (expected uuid (PaymentStatusWebhookPayload in openapi.yaml))',
    );
  });

  it('writes JSON with a result per interaction and its reasons', async () => {
    const { code, stdout } = await cli([wrong, '--static-only', '--format', 'json']);
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    expect(report.summary).toMatchObject({ ok: false, interactions: 12, dynamic: 'not run (--static-only)' });
    const status = report.results.find((r: { interaction: string }) => r.interaction.includes('REST status'));
    expect(status).toMatchObject({ mode: 'static', kind: 'rest', ok: false, consumer: 'rest-client' });
    expect(status.reasons[0]).toMatch(/^response\.status 404: status 404 is not documented/);
  });

  it('writes JUnit XML: a suite per pact file, a failing test case per wrong interaction', async () => {
    const { code, stdout } = await cli([wrong, good, '--static-only', '--format', 'junit']);
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
    const { code, stdout, stderr } = await cli(args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(`[payment-contract-kit] verify: ${message}`);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});

// Real dynamic runs: the built CLI starts the Pact verifier in its child process against in-process mocks. One run
// per format; the verifier's own report goes to standard error, so standard output must stay one clean document.
describe('payment-contract-kit verify, both ways (built CLI, real Pact verifier)', () => {
  const wrongFiles = {
    rest: `${wrong}/v3-rest-client-card-payment-service.json`,
    message: `${wrong}/v3-webhook-receiver-card-payment-service.json`,
    graphql: `${wrong}/v4-web-current-guide-card-payment-service.json`,
  };

  it('passes the shipped contracts (27) and the good fixtures of other languages (8) both ways, exit 0', async () => {
    const { code, stdout } = await cli(['contracts', good]);
    const lines = stdout.trimEnd().split('\n');
    expect(lines.filter((l) => l.startsWith('FAIL '))).toEqual([]);
    expect(lines.filter((l) => l.startsWith('PASS dynamic '))).toHaveLength(35);
    expect(lines.filter((l) => l.startsWith('PASS static '))).toHaveLength(35);
    expect(lines.at(-1)).toBe(
      '35 interactions: static 35 passed, 0 failed; dynamic 35 passed, 0 failed; GraphQL checked against the current guide 16, the legacy guide 5',
    );
    expect(code).toBe(0);
  });

  it('fails every wrong interaction both ways in text, the dynamic line giving the verifier’s mismatch', async () => {
    const { code, stdout } = await cli([wrong]);
    expect(code).toBe(1);
    const lines = stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toBe(
      '12 interactions: static 0 passed, 12 failed; dynamic 0 passed, 12 failed; GraphQL checked against the current guide 8, the legacy guide 0',
    );
    expect(lines.filter((l) => l.startsWith('PASS '))).toEqual([]);
    const dynamic = (name: string, file: string, kind: string) =>
      lines.find((l) =>
        l.startsWith(
          `FAIL dynamic "wrong: ${name}" (${file}, ${kind}${kind === 'GraphQL' ? ', current guide' : ''}): `,
        ),
      );
    expect(dynamic('a REST status the operation does not document', wrongFiles.rest, 'REST')).toContain(
      'expected 404 but was 200',
    );
    expect(dynamic('a wrong scalar type', wrongFiles.graphql, 'GraphQL')).toContain(
      "$.data.paymentGatewayFeesCalc[0].fees: Expected 1.8 (Decimal) to be equal to '1.80' (String)",
    );
    expect(dynamic('a list where the schema has an object', wrongFiles.graphql, 'GraphQL')).toContain(
      '$.data.paymentCreditCardFeeCalc: Type mismatch',
    );
    expect(dynamic('a matcher claiming an integer for a string', wrongFiles.graphql, 'GraphQL')).toContain(
      "$.data.paymentGatewayFeesCalc[0].card_type: Expected 'visa' (String) to be an integer",
    );
    // The mock answers errors instead of data for a query or variables the schema refuses.
    // … and the line says what the mock answered: its messages and reason codes, not only the missing key.
    for (const name of ['an unknown field', 'a variable of the wrong type']) {
      expect(dynamic(name, wrongFiles.graphql, 'GraphQL')).toContain('Actual map is missing the following keys: data');
      expect(dynamic(name, wrongFiles.graphql, 'GraphQL')).toMatch(
        /; the mock answered 200 with errors: ".+" \([A-Z_]+\)$/,
      );
    }
    expect(dynamic('an unknown field', wrongFiles.graphql, 'GraphQL')).toMatch(
      /the mock answered 200 with errors: "Cannot query field/,
    );
    // A failed provider state is named with the mock's own message (the verifier's report does not say why).
    expect(dynamic('a webhook message missing uuid', wrongFiles.message, 'message')).toContain(
      '): [payment-contract-kit] provider state "a payment has reached its final status": params.amount must be a positive number.; ',
    );
  });

  it('writes clean JSON for the wrong fixtures: 12 static and 12 dynamic failures, each with reasons', async () => {
    const { code, stdout } = await cli([wrong, '--format', 'json']);
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as {
      summary: { ok: boolean; interactions: number; dynamic: string };
      results: { mode: string; ok: boolean; interaction: string; reasons: string[] }[];
    };
    expect(report.summary).toMatchObject({ ok: false, interactions: 12, dynamic: 'ran' });
    for (const mode of ['static', 'dynamic']) {
      const results = report.results.filter((r) => r.mode === mode);
      expect(results).toHaveLength(12);
      expect(results.filter((r) => r.ok || r.reasons.length === 0)).toEqual([]);
    }
    const status = report.results.find((r) => r.mode === 'dynamic' && r.interaction.includes('REST status'));
    expect(status?.reasons).toContain('expected 404 but was 200');
  });

  it('writes clean JUnit XML for the wrong fixtures: a failing [static] and [dynamic] case per interaction', async () => {
    const { code, stdout } = await cli([wrong, '--format', 'junit']);
    expect(code).toBe(1);
    const suites = parseXml(stdout);
    expect(suites.attributes).toMatchObject({ tests: '24', failures: '24', skipped: '0' });
    const cases = suites.children.flatMap((s) => s.children);
    const dynamicCases = cases.filter((c) => c.attributes.name?.startsWith('[dynamic] wrong: '));
    expect(dynamicCases).toHaveLength(12);
    for (const c of dynamicCases) expect(c.children.find((f) => f.name === 'failure')?.text).not.toBe('');
    const scalar = dynamicCases.find((c) => c.attributes.name === '[dynamic] wrong: a wrong scalar type');
    expect(scalar?.children[0]?.text).toContain("Expected 1.8 (Decimal) to be equal to '1.80' (String)");
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
    const { readPactFiles } = await import('../../src/pact/verify/pact-files.ts');
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
