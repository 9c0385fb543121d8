// docs/shared-sandbox.md's health check, as a reader runs it: the mock started with that block's flags (parsed by the
// CLI's own parser) and the block's curl request sent to it in process, with the Host header curl would send. Both
// halves of the block matter, so each is also shown failing without its part: the Authorization header (401) and
// --allowed-hosts (403).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseMockArgs } from '../../src/cli/commands/mock.ts';
import { createMockApp, type MockApp } from '../../src/mock/index.ts';
import { readMarkdown } from './support/markdown.ts';

const token = 'docs-health-secret';
const block = readMarkdown('docs/shared-sandbox.md').blocks.find(
  (b) => b.lang === 'sh' && b.code.includes('/__pck/health'),
);

/** The words of one shell command line: split on spaces, double quotes kept together, `$PCK_CONTROL_TOKEN` expanded. */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => (m[1] ?? m[2]!).replaceAll('$PCK_CONTROL_TOKEN', token));
}

/** The line of the block that starts with `command`, as words without the command and a trailing `&`. */
function commandLine(command: string): string[] {
  const line = block?.code.split('\n').find((l) => l.startsWith(command));
  expect(line, `the block has a line starting with "${command}"`).toBeDefined();
  return words(line!.slice(command.length)).filter((w) => w !== '&');
}

const dirs: string[] = [];
const apps: MockApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The mock as the block starts it, its file store in a scratch folder; `drop` leaves one flag (and its value) out. */
async function startAsDocumented(drop?: string): Promise<MockApp> {
  const argv = commandLine('npx payment-contract-kit mock');
  const at = drop === undefined ? -1 : argv.indexOf(drop);
  if (at >= 0) argv.splice(at, 2);
  const parsed = parseMockArgs(argv, { PCK_CONTROL_TOKEN: token });
  if (parsed.help) throw new Error('the block asks for --help');
  const dir = mkdtempSync(join(tmpdir(), 'pck-docs-health-'));
  dirs.push(dir);
  const given = parsed.options.store;
  const store = typeof given === 'string' ? given.replace(/^file:\.\//, `file:${dir}/`) : given;
  const app = createMockApp({ ...parsed.options, store, log: false });
  apps.push(app);
  await app.ready();
  return app;
}

/** The block's curl request; `withHeader: false` leaves its -H out. */
function curlRequest(withHeader = true): Request {
  const args = commandLine('curl');
  const url = args.find((a) => a.startsWith('http'))!;
  const headers = new Headers({ host: new URL(url).host });
  const h = args.indexOf('-H');
  if (withHeader && h >= 0) {
    const [name, ...value] = args[h + 1]!.split(':');
    headers.set(name!, value.join(':').trim());
  }
  return new Request(url, { headers });
}

describe("docs/shared-sandbox.md's health check", () => {
  it('is on the page: the mock started beyond loopback, and a curl of /__pck/health', () => {
    expect(block?.directives.get('not-run')).toContain('test/docs/shared-sandbox-health.test.ts');
    expect(commandLine('npx payment-contract-kit mock')).toEqual(expect.arrayContaining(['--host', '0.0.0.0']));
    expect(commandLine('curl')).toEqual(expect.arrayContaining(['-H']));
  });

  it("answers 200 with the store's counters, as written", async () => {
    const app = await startAsDocumented();
    const answer = await app.fetch(curlRequest());
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { store: unknown }).store).toEqual({
      kind: 'file',
      lostJournalEntries: 0,
      fencedOut: 0,
      compactions: 0,
      rebuiltFromSnapshot: 0,
    });
  });

  it('answers 401 without its Authorization header', async () => {
    const app = await startAsDocumented();
    const answer = await app.fetch(curlRequest(false));
    expect(answer.status).toBe(401);
    expect(await answer.text()).toContain('needs the header \\"Authorization: Bearer <control token>\\"');
  });

  it('answers 403 when the mock was not given the name by --allowed-hosts', async () => {
    const app = await startAsDocumented('--allowed-hosts');
    const answer = await app.fetch(curlRequest());
    expect(answer.status).toBe(403);
    expect(await answer.text()).toContain('--allowed-hosts');
  });
});
