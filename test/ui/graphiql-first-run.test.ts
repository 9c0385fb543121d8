// GraphiQL on a fresh profile: the page opens on its first tab with the variables filled and the token in place, and
// runs it as it opens, so the answer is there without a click (docs/first-day.md says so). A first Run once answered
// `Variable "$amount" of required type "Float!" was not provided.` until another tab was opened; later the tab ran
// only after one click.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.ts';
import { launchBrowser, type TestBrowser } from './support/browser.ts';

const root = join(import.meta.dirname, '../..');
let mock: MockServer;
let browser: TestBrowser;

beforeAll(async () => {
  // `npm test` builds first; a run of this file alone builds the pages when they are missing (as pages.test.ts does:
  // rebuilding here while another file reads dist/ui would race it).
  if (!existsSync(join(root, 'dist/ui/manifest.json')))
    await promisify(execFile)('npx', ['tsx', 'scripts/build-ui.ts'], { cwd: root });
  mock = await startMockServer({ port: 0, log: false });
  browser = await launchBrowser(); // a fresh user-data directory: no saved GraphiQL tabs
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await mock?.close();
});

it('runs the first tab as it opens, with no click: variables filled, token in place, data answered', async () => {
  const { page, problems } = await browser.open();
  await page.goto(`${mock.url}/graphql`);
  await page.waitForFunction(() =>
    document.querySelector('#pck-token-status')?.textContent?.includes('from generate-token'),
  );
  await page.waitForFunction(() =>
    (document.querySelector('.graphiql-query-editor')?.textContent ?? '').includes('query '),
  );
  const variables = await page.locator('.graphiql-editor-tool .graphiql-editor').first().innerText();
  expect(variables).toContain('"amount": 100');
  // No click: the answer arrives by itself.
  await page.waitForFunction(() =>
    (document.querySelector('.graphiql-response')?.textContent ?? '').includes('"data"'),
  );
  const response = (await page.locator('.graphiql-response').innerText()).replace(/\s+/g, ' ');
  expect(response).not.toContain('errors');
  expect(response).toMatch(/"fees": \d/);
  // The request reached the mock with the token GraphiQL was given, as the first tab's operation.
  const [run] = (await mock.control.requests()).filter(
    (r) => r.operationName !== 'IntrospectionQuery' && r.path === '/graphql',
  );
  // The first tab is the fee list, the first step of a payment (docs/first-day.md says so).
  expect(run).toMatchObject({
    status: 200,
    outcome: 'ok',
    clientId: 'test-client',
    operationName: 'PaymentGatewayFeesCalc',
  });
  // Once: the tab ran as the page opened, not again on each render.
  const runs = (await mock.control.requests()).filter(
    (r) => r.operationName !== 'IntrospectionQuery' && r.path === '/graphql',
  );
  expect(runs).toHaveLength(1);
  expect(problems).toEqual([]);
  await page.close();
}, 90_000);
