// The Vite dev server recipe (issue 28), as a front-end team runs it: examples/browser-vite with the packed kit,
// msw's worker script copied by `msw init`, `vite` started (port 0), and the app opened in Debian's Chromium: its
// entry starts setupWorker with the kit's handlers in development, then the app prices and pays with the kit's
// client against http://localhost:4010, which the worker answers in the page.
import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { defaultAssumptions } from '../../src/assumptions.ts';
import { createPaymentClient } from '../../src/client/index.ts';
import { createMockApp } from '../../src/mock/index.ts';
import { launchBrowser, type TestBrowser } from '../ui/support/browser.ts';
import { type ExampleProject, exampleProject } from './browser/example-project.ts';

let project: ExampleProject;
let vite: ChildProcess | undefined;
let origin: string;
let browser: TestBrowser;

/** Starts `vite` in the project and answers the URL it prints once it listens (its readiness signal). */
function startVite(dir: string): Promise<string> {
  const child = spawn(process.execPath, ['node_modules/vite/bin/vite.js', '--port', '0', '--host', '127.0.0.1'], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  vite = child;
  return new Promise((resolve, reject) => {
    let out = '';
    const read = (chunk: Buffer) => {
      out += chunk.toString();
      // biome-ignore lint/suspicious/noControlCharactersInRegex: Vite may colour its banner.
      const url = /Local:\s+(http:\/\/[^\s/]+)/.exec(out.replace(/\x1b\[[0-9;]*m/g, ''))?.[1];
      if (url) resolve(url);
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => reject(new Error(`vite exited (${code}) before listening:\n${out}`)));
  });
}

beforeAll(async () => {
  project = await exampleProject('browser-vite');
  await project.node(['node_modules/msw/cli/index.js', 'init']);
  origin = await startVite(project.dir);
  browser = await launchBrowser();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  if (vite && vite.exitCode === null) {
    const exited = new Promise((resolve) => vite?.once('exit', resolve));
    vite.kill('SIGTERM');
    await exited;
  }
  await project?.remove();
});

it("type-checks under strict (tsc --noEmit with the example's tsconfig)", async () => {
  await project.node(['node_modules/typescript/bin/tsc', '--noEmit']);
}, 120_000);

it('the app in the dev server prices and pays against the mock its entry started in the page', async () => {
  const { page, problems } = await browser.open();
  await page.goto(origin);
  // The app marks its root when its flow has ended, answered or not; no fixed wait.
  await page.locator('#app[data-state="done"]').waitFor();
  const lines = await page.locator('#app p').allTextContents();

  const app = createMockApp({ log: false });
  const fees = await createPaymentClient({
    baseUrl: 'http://mock.test',
    clientId: 'test-client',
    apiKey: 'test-api-key',
    fetch: (input, init) => app.fetch(new Request(input, init)),
  }).feesFor(100);
  expect(lines[0]).toBe(`fees: ${fees.map((f) => `${f.card_type} ${f.fees}`).join(', ')}`);
  expect(lines[1]).toBe('card fee: 1.8');
  const processing = defaultAssumptions.statusNames.processing;
  const uuid = new RegExp(`^payment: ([0-9a-f-]{36}) ${processing}$`).exec(lines[2] ?? '')?.[1];
  expect(uuid, lines.join('\n')).toBeDefined();
  // The control handle the recipe puts on window holds the same payment: one stateful mock in the page.
  const stored = await page.evaluate(async () =>
    (
      await (
        globalThis as unknown as { paymentMock: { payments(): Promise<{ uuid: string }[]> } }
      ).paymentMock.payments()
    ).map((p) => p.uuid),
  );
  expect(stored).toEqual([uuid]);
  expect(problems).toEqual([]);
  await page.close();
});
