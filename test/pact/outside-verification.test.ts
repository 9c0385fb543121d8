// The shipped contracts verified from outside, as a team in any language would: the BUILT CLI mock as a child process
// (`npm run build` first), and verifiers that know nothing but its URL, its state change URL
// (POST /__pck/provider-states) and its message endpoint (POST /__pck/messages): pact-js's Verifier from a plain
// script, and the Rust `pact-verifier` of @pact-foundation/pact-cli with the state change as a JSON body (with
// teardown) and as query parameters. Every interaction of contracts/ must pass: the HTTP ones of both guides and of
// the typed client, and the webhook messages.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pactControlPaths } from '../../src/spec-names.ts';
import { type MockProcess, startMockProcess } from '../fuzz/support/mock-process.ts';
import { committedPactFiles, consumers, contractsDir, pactFileName, readPact } from './support/pact-files.ts';

const run = promisify(execFile);
const root = join(import.meta.dirname, '../..');
const plainScript = join(import.meta.dirname, 'outside/verify-with-pact-js.mjs');
const pactVerifier = join(root, 'node_modules/@pact-foundation/pact-cli/bin/pact-verifier.js');
const env = { ...process.env, PACT_DO_NOT_TRACK: 'true' };

let mock: MockProcess;
let scratch: string;
/** Interaction description → its pact file and kind (descriptions are unique across the kit's pacts). */
const owner = new Map<string, { file: string; kind: 'http' | 'message' }>();

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'pck-outside-'));
  for (const file of await committedPactFiles()) {
    const pact = (await readPact(join(contractsDir, file))) as {
      interactions: { type: string; description: string }[];
    };
    for (const i of pact.interactions)
      owner.set(i.description, { file, kind: i.type === 'Asynchronous/Messages' ? 'message' : 'http' });
  }
  mock = await startMockProcess(['--guide', 'both', '--quiet']);
}, 60_000);

afterAll(async () => {
  await mock?.stop();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** The native verifier's JSON report (both verifiers write the same one). */
interface Report {
  errors: unknown[];
  interactionResults: { description: string; result: string }[];
}

/** Passed interactions per pact file and kind, after checking that every reported one belongs to contracts/. */
function tally(report: Report) {
  const passed = new Map<string, { http: number; message: number }>();
  for (const r of report.interactionResults) {
    const o = owner.get(r.description);
    expect(o, `reported interaction not in contracts/: ${r.description}`).toBeDefined();
    if (!o || r.result !== 'OK') continue;
    const n = passed.get(o.file) ?? { http: 0, message: 0 };
    n[o.kind]++;
    passed.set(o.file, n);
  }
  return passed;
}

function expectAllPassed(report: Report, label: string): void {
  expect(report.errors).toEqual([]);
  const passed = tally(report);
  const count = (consumer: string, kind: 'http' | 'message') => passed.get(pactFileName(consumer))?.[kind] ?? 0;
  const expected = (kind: 'http' | 'message') => [...owner.values()].filter((o) => o.kind === kind).length;
  // The numbers of issue 12: 16 current-guide and 5 legacy-guide HTTP interactions, 2 webhook messages; plus the
  // typed client's token lifecycle pact.
  expect(count(consumers.current, 'http') + count(consumers.legacy, 'http')).toBe(21);
  expect(count(consumers.webhook, 'message')).toBe(2);
  const http = [...passed.values()].reduce((s, n) => s + n.http, 0);
  const messages = [...passed.values()].reduce((s, n) => s + n.message, 0);
  expect(http).toBe(expected('http'));
  expect(messages).toBe(expected('message'));
  console.log(
    `[payment-contract-kit] ${label}: ${http}/${expected('http')} HTTP interactions and ${messages}/${expected('message')} messages verified against the CLI mock`,
  );
}

describe('outside verification of contracts/ against the built CLI mock', () => {
  it('pact-js Verifier from a plain script, with the state change URL and the message endpoint', async () => {
    const reportFile = join(scratch, 'pact-js.json');
    const files = [...new Set([...owner.values()].map((o) => join(contractsDir, o.file)))];
    await run(process.execPath, [plainScript, mock.url, reportFile, ...files], { cwd: root, env });
    expectAllPassed(JSON.parse(await readFile(reportFile, 'utf8')) as Report, 'pact-js Verifier (plain script)');
  }, 120_000);

  for (const form of ['body', 'query'] as const)
    it(`pact-verifier (Rust) with the state change as a ${form === 'body' ? 'JSON body and teardown' : 'query string'}`, async () => {
      const reportFile = join(scratch, `pact-verifier-${form}.json`);
      const { port } = new URL(mock.url);
      const args = [
        ...['--dir', contractsDir, '--provider-name', 'card-payment-service'],
        ...['--hostname', '127.0.0.1', '--port', port],
        ...['--transports', `http:${port}`, '--transports', `message:${port}${pactControlPaths.messages}`],
        ...['--state-change-url', `${mock.url}${pactControlPaths.providerStates}`],
        ...(form === 'body' ? ['--state-change-teardown'] : ['--state-change-as-query']),
        ...['--json', reportFile, '--no-colour'],
      ];
      await run(process.execPath, [pactVerifier, ...args], { cwd: root, env });
      expectAllPassed(JSON.parse(await readFile(reportFile, 'utf8')) as Report, `pact-verifier (${form})`);
    }, 120_000);
});
