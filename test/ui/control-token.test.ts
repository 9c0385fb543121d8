// The pages behind a control token, in Debian's Chromium: each asks for the token once (a prompt), keeps it for the
// tab, and works with it: the dashboard reads and drives the control API, GraphiQL gets its token from the control
// API and runs a query, the reference loads openapi.yaml from /__pck/. A wrong answer is asked again.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.ts';
import { launchBrowser, type TestBrowser } from './support/browser.ts';

const root = join(import.meta.dirname, '../..');
const run = promisify(execFile);
const controlToken = 'browser-control-secret';

let mock: MockServer;
let browser: TestBrowser;

beforeAll(async () => {
  // `npm test` builds first; a run of this file alone builds the pages when they are missing.
  if (!existsSync(join(root, 'dist/ui/manifest.json'))) await run('npx', ['tsx', 'scripts/build-ui.ts'], { cwd: root });
  mock = await startMockServer({ port: 0, log: false, controlToken, settleDelayMs: 3_600_000 });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await mock?.close();
});

/** Answers the page's prompts with `answers` in turn and records each question. */
function answerPrompts(page: Page, answers: string[]): string[] {
  const questions: string[] = [];
  page.on('dialog', (dialog) => {
    questions.push(dialog.message());
    void dialog.accept(answers.shift() ?? '');
  });
  return questions;
}

async function waitForText(page: Page, selector: string, text: string): Promise<void> {
  await page.waitForFunction(
    ([s, t]) => [...document.querySelectorAll(s!)].some((e) => (e.textContent ?? '').includes(t!)),
    [selector, text],
  );
}

/** Console errors other than the browser's own line for a 401 the page then recovered from. */
const unexpected = (problems: string[]) => problems.filter((p) => !/status of 401/.test(p));

describe('the dashboard with a control token', () => {
  it('asks once, reads the control API and moves the clock with the token', async () => {
    const { page, problems } = await browser.open();
    const questions = answerPrompts(page, [controlToken]);
    await page.goto(`${mock.url}/__pck/ui`);
    await waitForText(page, '#pck-payments', 'No payments yet.');
    const before = mock.control.now();
    await page.locator('button', { hasText: '+1 h' }).click();
    await waitForText(page, '#pck-message', 'Advance the clock: done.');
    expect(mock.control.now() - before).toBeGreaterThanOrEqual(3_600_000);
    // A reload of the same tab keeps the token: no second question.
    await page.reload();
    await waitForText(page, '#pck-payments', 'No payments yet.');
    expect(questions).toHaveLength(1);
    expect(questions[0]).toContain('control token');
    expect(await page.evaluate(() => sessionStorage.getItem('pck:control-token'))).toBe(controlToken);
    expect(unexpected(problems)).toEqual([]);
    await page.close();
  }, 90_000);

  it('asks again after a wrong token', async () => {
    const { page, problems } = await browser.open();
    const questions = answerPrompts(page, ['not-the-token', controlToken]);
    await page.goto(`${mock.url}/__pck/ui`);
    await waitForText(page, '#pck-payments', 'No payments yet.');
    expect(questions).toHaveLength(2);
    expect(questions[1]).toMatch(/refused that control token/);
    expect(unexpected(problems)).toEqual([]);
    await page.close();
  }, 90_000);
});

describe('GraphiQL and the reference with a control token', () => {
  it('GraphiQL gets its token from the control API and runs the fee query', async () => {
    const { page, problems } = await browser.open();
    const questions = answerPrompts(page, [controlToken]);
    await page.goto(`${mock.url}/graphql`);
    await waitForText(page, '#pck-token-status', 'control API');
    await waitForText(page, '.graphiql-tabs', 'PaymentGatewayFeesCalc');
    await page.locator('.graphiql-tab', { hasText: 'PaymentGatewayFeesCalc' }).click();
    await waitForText(page, '.graphiql-query-editor', 'query PaymentGatewayFeesCalc');
    await page.locator('.graphiql-execute-button').click();
    await waitForText(page, '.graphiql-response', 'total_settlement_amount');
    expect(questions).toHaveLength(1);
    // The page holds no API key: generate-token was never called.
    expect((await mock.control.requests()).some((r) => r.path.includes('generate-token'))).toBe(false);
    expect(unexpected(problems)).toEqual([]);
    await page.close();
  }, 90_000);

  it('the reference loads openapi.yaml from /__pck/ with the token', async () => {
    const { page, problems } = await browser.open();
    const questions = answerPrompts(page, [controlToken]);
    await page.goto(`${mock.url}/__pck/reference`);
    await waitForText(page, '.opblock-summary-path', '/api/v2/accounting/token/generate-token');
    expect(questions).toHaveLength(1);
    expect(unexpected(problems)).toEqual([]);
    await page.close();
  }, 90_000);
});
