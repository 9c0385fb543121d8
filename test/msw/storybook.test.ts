// Storybook with msw-storybook-addon (issue 28), as a front-end team has it: examples/browser-storybook with the
// packed kit, msw's worker script copied by `msw init`, `storybook build` (the HTML renderer on Vite), then the
// static Storybook served over HTTP and a story opened in Debian's Chromium: its fee table shows the mock's fees.
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentClient } from '../../src/client/index.ts';
import { createMockApp } from '../../src/mock/index.ts';
import { launchBrowser, type TestBrowser } from '../ui/support/browser.ts';
import { type ExampleProject, exampleProject } from './browser/example-project.ts';

let project: ExampleProject;
let server: Server;
let origin: string;
let browser: TestBrowser;
let stories: string[];

const types: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.json': 'application/json',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
};

/** Paths the static server did not have (a story's missing asset fails the test). */
const notFound: string[] = [];

/** Serves `dir` as a static host would (Storybook's build is a static site). */
function serve(dir: string): Server {
  return createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(
      /^(\.\.[/\\])+/,
      '',
    );
    // Chromium asks every page's origin for /favicon.ico; Storybook ships an svg one that iframe.html does not link.
    if (path === '/favicon.ico') return void res.writeHead(204).end();
    const file = join(dir, path.endsWith('/') ? `${path}index.html` : path);
    readFile(file).then(
      (body) => res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' }).end(body),
      () => {
        notFound.push(path);
        res.writeHead(404).end();
      },
    );
  });
}

/** The fees the kit's mock answers for `amount`, as rows of the story's table. */
async function expectedRows(amount: number): Promise<string[][]> {
  const app = createMockApp({ log: false });
  const client = createPaymentClient({
    baseUrl: 'http://mock.test',
    clientId: 'test-client',
    apiKey: 'test-api-key',
    fetch: (input, init) => app.fetch(new Request(input, init)),
  });
  const fees = await client.feesFor(amount);
  return fees.map((f) => [f.card_type, f.fees.toFixed(2), f.total_settlement_amount.toFixed(2)]);
}

beforeAll(async () => {
  project = await exampleProject('browser-storybook');
  // `msw init` with no folder reads package.json's msw.workerDirectory ("public", Storybook's staticDirs).
  await project.node(['node_modules/msw/cli/index.js', 'init']);
  await project.node(['node_modules/storybook/dist/bin/dispatcher.js', 'build', '--quiet'], { NO_COLOR: '1' });
  const built = join(project.dir, 'storybook-static');
  stories = Object.keys(JSON.parse(await readFile(join(built, 'index.json'), 'utf8')).entries);
  server = serve(built);
  // Service workers need a secure context: 127.0.0.1 is one.
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  await project?.remove();
});

it("type-checks under strict (tsc --noEmit with the example's tsconfig)", async () => {
  await project.node(['node_modules/typescript/bin/tsc', '--noEmit']);
}, 120_000);

describe('a story answered by the kit through msw-storybook-addon', () => {
  it('builds both stories', () => {
    expect(stories).toEqual(['checkout-fee-table--for-one-hundred', 'checkout-fee-table--for-two-thousand']);
  });

  it.each([
    ['checkout-fee-table--for-one-hundred', 100],
    ['checkout-fee-table--for-two-thousand', 2000],
  ])('%s shows the fees the mock computes for %d', async (id, amount) => {
    const { page, problems } = await browser.open();
    await page.goto(`${origin}/iframe.html?id=${id}&viewMode=story`);
    // The table says when its request has been answered; no fixed wait.
    const table = page.locator('table[aria-busy="false"]');
    await table.waitFor();
    const rows = await table
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent ?? '')));
    expect(rows).toEqual(await expectedRows(amount));
    expect({ problems, notFound }).toEqual({ problems: [], notFound: [] });
    await page.close();
  });
});
