// A new team's first day, from the packed tarball and the docs alone (issue 25 item 7): a project made by
// `npm init -y` (CommonJS), the kit installed from the tarball, the mock started with the installed CLI, and the
// README's 30-line integration saved as pay.mts and called from docs/first-day.md's run.mts, exactly as written,
// with the mock sending its webhook to `webhook listen`, which checks and prints it, as the page runs them.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBuilt, npmInstall, packKit, root, run } from './support/packed-kit.ts';

let dir = '';
let mock: ChildProcess | undefined;
let listener: ChildProcess | undefined;
const app = () => join(dir, 'app');

/** The ```ts block of `page` (README.md, a docs page) that contains `marker`. */
async function docBlock(page: string, marker: string): Promise<string> {
  const text = await readFile(join(root, page), 'utf8');
  const block = [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? '').find((b) => b.includes(marker));
  if (block === undefined) throw new Error(`${page} has no ts block containing ${marker}`);
  return block;
}

beforeAll(async () => {
  await ensureBuilt(['dist/index.js', 'dist/client.js', 'dist/webhook.js', 'dist/cli/index.js']);
  dir = await mkdtemp(join(tmpdir(), 'pck-first-day-'));
  const tarball = await packKit(dir);
  await mkdir(app());
  await run('npm', ['init', '-y'], app());
  await npmInstall(app(), ['--save-dev', `../${tarball}`, 'graphql']);
  await writeFile(join(app(), 'pay.mts'), await docBlock('README.md', 'export async function pay('));
  await writeFile(join(app(), 'run.mts'), await docBlock('docs/first-day.md', "from './pay.mts'"));
}, 600_000);

afterAll(async () => {
  mock?.kill('SIGTERM');
  listener?.kill('SIGTERM');
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('npm init -y makes a CommonJS project (the case docs/first-day.md answers with .mts files)', async () => {
  const pkg = JSON.parse(await readFile(join(app(), 'package.json'), 'utf8')) as { type?: string };
  expect(pkg.type ?? 'commonjs').toBe('commonjs');
});

/** The installed bin with `args`; resolves with the process and a wait for a match on its standard output. */
async function installedCli(args: readonly string[]) {
  const child = spawn(process.execPath, [join(app(), 'node_modules/.bin/payment-contract-kit'), ...args], {
    cwd: app(),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const waits: { pattern: RegExp; resolve: (m: RegExpExecArray) => void }[] = [];
  const check = () => {
    for (const w of [...waits]) {
      const m = w.pattern.exec(out);
      if (m) {
        waits.splice(waits.indexOf(w), 1);
        w.resolve(m);
      }
    }
  };
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    check();
  });
  const waitFor = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      waits.push({ pattern, resolve });
      check();
      child.on('exit', (code) => reject(new Error(`${args[0]} exited (${code}) before printing ${pattern}: ${out}`)));
    });
  return { child, waitFor };
}

it("runs the README's integration against the installed CLI's mock, and webhook listen receives the webhook", async () => {
  // The three terminals of docs/first-day.md, on free ports instead of 4011 and 4010 (tests never bind fixed ports).
  const listen = await installedCli(['webhook', 'listen', '--port', '0']);
  listener = listen.child;
  const [, listenUrl] = await listen.waitFor(/webhook listen on (http:\/\/\S+)/);
  const started = await installedCli(['mock', '--port', '0', '--quiet', '--webhook-url', `${listenUrl}/webhooks`]);
  mock = started.child;
  const [, url] = await started.waitFor(/listening on (http:\/\/\S+)/);
  // `npx tsx run.mts <url>`, with the repository's tsx (what `npm install --save-dev tsx` would give the team).
  const { stdout } = await run(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), 'run.mts', url!], app());
  expect(stdout.trim()).toMatch(/^4 card types priced; payment [0-9a-f-]{36} is processing$/);
  const uuid = /payment (\S+) is/.exec(stdout)![1];
  // The mock settles the payment after its settle delay and delivers; the listener's line is what the page shows.
  await listen.waitFor(new RegExp(`^204 POST /webhooks payment ${uuid} success delivery \\S+ signature ok$`, 'm'));
}, 120_000);
