// GraphiQL's first Run on a fresh profile (issue 25 item 2): the page opens on its first tab with the variables
// filled and the token in place, so pressing Run without touching anything answers data. It used to answer
// `Variable "$amount" of required type "Float!" was not provided.` until another tab was opened.
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

it('runs the first tab as it opens: variables filled, token in place, data answered', async () => {
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
  await page.locator('.graphiql-execute-button').click();
  await page.waitForFunction(() =>
    (document.querySelector('.graphiql-response')?.textContent ?? '').includes('"data"'),
  );
  const response = (await page.locator('.graphiql-response').innerText()).replace(/\s+/g, ' ');
  expect(response).not.toContain('errors');
  expect(response).toMatch(/"fees": \d/);
  // The request reached the mock with the token GraphiQL was given, as the first tab's operation.
  const [run] = mock.control
    .requests()
    .filter((r) => r.operationName !== 'IntrospectionQuery' && r.path === '/graphql');
  expect(run).toMatchObject({ status: 200, outcome: 'ok', clientId: 'test-client' });
  expect(problems).toEqual([]);
  await page.close();
}, 90_000);
