// Vitest's browser mode (issue 28), as a front-end team runs it: examples/browser-vitest with the packed kit, msw's
// worker script copied by `msw init`, then `vitest run --browser` (Playwright's provider on Debian's Chromium). Its
// test file runs in the browser: fees, a card fee, a payment settled on the mock clock with its webhook delivered to
// an in-page receiver, and a 7.3 validation error, under msw's setupWorker.
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chromiumPath, hasChromium } from '../ui/support/browser.ts';
import { type ExampleProject, exampleProject } from './browser/example-project.ts';

interface JsonResults {
  numTotalTests: number;
  numPassedTests: number;
  testResults: { name: string; assertionResults: { title: string; status: string; failureMessages: string[] }[] }[];
}

let project: ExampleProject;
let results: JsonResults;
let output = '';

beforeAll(async () => {
  if (!hasChromium) throw new Error(`Chromium is not installed at ${chromiumPath}: run .ci/run.`);
  project = await exampleProject('browser-vitest');
  // `msw init` with no folder reads package.json's msw.workerDirectory ("public", which Vite serves at /).
  await project.node(['node_modules/msw/cli/index.js', 'init']);
  const vitest = ['node_modules/vitest/vitest.mjs', 'run', '--browser', '--reporter=default', '--reporter=json'];
  const { stdout, stderr } = await project.node([...vitest, '--outputFile.json=results.json'], {
    PLAYWRIGHT_CHROMIUM: chromiumPath,
    CI: '1',
    NO_COLOR: '1',
  });
  output = `${stdout}\n${stderr}`;
  results = JSON.parse(await readFile(join(project.dir, 'results.json'), 'utf8'));
}, 600_000);

afterAll(async () => {
  await project?.remove();
});

it("type-checks under strict (tsc --noEmit with the example's tsconfig)", async () => {
  await project.node(['node_modules/typescript/bin/tsc', '--noEmit']);
}, 120_000);

it('copies the worker script where Vite serves it', () => {
  expect(existsSync(join(project.dir, 'public/mockServiceWorker.js'))).toBe(true);
});

it("passes every test of the example's browser test file, in Chromium", () => {
  const titles = results.testResults.flatMap((file) => file.assertionResults.map((a) => [a.title, a.status]));
  expect(Object.fromEntries(titles)).toEqual({
    'runs in a browser, not in Node': 'passed',
    'lists the fees for an amount, one per card type': 'passed',
    'prices a card': 'passed',
    'pays, settles on the mock clock and delivers the webhook to the in-page receiver': 'passed',
    'answers an invalid card in the validation shape': 'passed',
  });
  expect(results.numPassedTests).toBe(results.numTotalTests);
  expect(output).toMatch(/chromium/);
});

it("resolves the kit's browser build (no Node built-in), which Vite pre-bundles for the page", async () => {
  // Vite's dependency optimizer records where each pre-bundled import came from.
  const cache = join(project.dir, 'node_modules/.vite');
  const found = (await readdir(cache, { recursive: true })).filter((f) => f.endsWith('_metadata.json'));
  expect(found, `no Vite dependency cache under ${cache}:\n${output}`).toHaveLength(1);
  const metadata = JSON.parse(await readFile(join(cache, found[0]!), 'utf8')) as {
    optimized: Record<string, { src: string }>;
  };
  expect(metadata.optimized['payment-contract-kit/msw']?.src).toMatch(/payment-contract-kit\/dist\/browser\/msw\.js$/);
});
