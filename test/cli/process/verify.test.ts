// `verify` as a real process: the built CLI (dist/cli, so the bundled YAML reader and the packaged openapi.yaml are
// what runs) as a child process: one smoke test of the static checks' exit codes, and the dynamic runs through the
// real Pact verifier. Every flag, message and format of the static checks is pinned in process by
// test/cli/commands/verify.test.ts.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseXml } from '../support/junit-xml.ts';

const root = resolve(import.meta.dirname, '../../..');
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

describe('payment-contract-kit verify (built CLI)', () => {
  // Needs a process: the exit status a CI job sees, set by the built entry from what the command answers.
  it('exits 0 on the good fixtures and 1 on the wrong ones, statically', async () => {
    const passing = await cli([good, '--static-only']);
    expect(passing.stderr).toBe('');
    expect(passing.stdout.trimEnd().split('\n').at(-1)).toMatch(/^8 interactions: static 8 passed, 0 failed;/);
    expect(passing.code).toBe(0);
    const failing = await cli([wrong, '--static-only']);
    expect(failing.stdout.trimEnd().split('\n').at(-1)).toMatch(/^12 interactions: static 0 passed, 12 failed;/);
    expect(failing.code).toBe(1);
  });
});

// Real dynamic runs: the built CLI starts the Pact verifier in its child process against in-process mocks. One run
// per format; the verifier's own report goes to standard error, so standard output must stay one clean document.
// Each needs a process: the command runs the native verifier in a child process of its own (verify-dynamic-child.js
// of the build), and what is pinned is what reaches the CLI's standard output pipe.
describe('payment-contract-kit verify, both ways (built CLI, real Pact verifier)', () => {
  const wrongFiles = {
    rest: `${wrong}/v3-rest-client-card-payment-service.json`,
    message: `${wrong}/v3-webhook-receiver-card-payment-service.json`,
    graphql: `${wrong}/v4-web-current-guide-card-payment-service.json`,
  };

  // Needs a process: the real verifier's child, from the built CLI, passing every interaction; the text summary is
  // the last line of the stdout pipe.
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

  // Needs a process: the verifier's mismatch text comes from its child process, through the built CLI's stdout.
  it('fails every wrong interaction both ways in text, the dynamic line giving the verifier’s mismatch', async () => {
    const { code, stdout } = await cli([wrong]);
    expect(code).toBe(1);
    const lines = stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toBe(
      '12 interactions: static 0 passed, 12 failed; dynamic 0 passed, 12 failed; GraphQL checked against the current guide 8, the legacy guide 0',
    );
    expect(lines.filter((l) => l.startsWith('PASS '))).toEqual([]);
    // A result's text: its line, and the indented lines of its reasons when it has several.
    const dynamic = (name: string, file: string, kind: string) => {
      const at = lines.findIndex((l) =>
        l.startsWith(
          `FAIL dynamic "wrong: ${name}" (${file}, ${kind}${kind === 'GraphQL' ? ', current guide' : ''}): `,
        ),
      );
      if (at < 0) return undefined;
      const reasons = lines.slice(at + 1).findIndex((l) => !l.startsWith('    - '));
      return lines.slice(at, reasons < 0 ? undefined : at + 1 + reasons).join('\n');
    };
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
        /\n {4}- the mock answered 200 with errors: ".+" \([A-Z_]+\)$/,
      );
    }
    expect(dynamic('an unknown field', wrongFiles.graphql, 'GraphQL')).toMatch(
      /the mock answered 200 with errors: "Cannot query field/,
    );
    // A failed provider state is named with the mock's own message (the verifier's report does not say why).
    expect(dynamic('a webhook message missing uuid', wrongFiles.message, 'message')).toContain(
      '\n    - [payment-contract-kit] provider state "a payment has reached its final status": params.amount must be a positive number.\n',
    );
  });

  // Needs a process: stdout is a pipe the verifier's child must not write to, or the JSON would not parse.
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

  // Needs a process: stdout is a pipe the verifier's child must not write to, or the XML would not be well formed.
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
