// The mock's browser pages in a real headless Chromium (Debian's, driven by playwright-core): each page loads with
// no console error, a fee query runs from GraphiQL in both guides, the API reference points "Try it out" at the mock,
// and the dashboard follows a payment made through the API to its webhook delivery with every attempt, shows hostile
// journal content as text, drives the control API from its buttons, and lists the behaviours the sandbox exercised.
// Screenshots: see `screenshots` below.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { print } from 'graphql';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentGatewayFeesCalcDocument, ProcessPaymentRequestDocument } from '../../src/index.ts';
import { type MockServer, startMockServer } from '../../src/mock/index.ts';
import { credentials, payInput, post, tokenPaths } from '../mock/helpers.ts';
import { launchBrowser, type TestBrowser } from './support/browser.ts';

const root = join(import.meta.dirname, '../..');
// The README's pictures are refreshed with PCK_UPDATE_SCREENSHOTS=1 (`npm run docs:screenshots`); other runs still take
// every screenshot (a page that cannot render fails) but write them under .tmp/, so a test run leaves the tree clean.
const screenshots = join(root, process.env.PCK_UPDATE_SCREENSHOTS === '1' ? 'docs/screenshots' : '.tmp/screenshots');
const run = promisify(execFile);

let mock: MockServer;
let browser: TestBrowser;
let receiver: Server;
let receiverUrl: string;
const receiverAnswers: number[] = [];

beforeAll(async () => {
  // `npm test` builds first; a run of this file alone builds the pages when they are missing.
  if (!existsSync(join(root, 'dist/ui/manifest.json'))) await run('npx', ['tsx', 'scripts/build-ui.ts'], { cwd: root });
  // The receiver refuses the first attempt of each delivery (503) and accepts the next, so every delivery shows two.
  const seen = new Set<string>();
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['x-webhook-delivery-id']);
      const status = seen.has(id) ? 200 : 503;
      seen.add(id);
      receiverAnswers.push(status);
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'thanks' : 'busy, try later');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  mock = await startMockServer({
    port: 0,
    guide: 'both',
    webhookUrls: [receiverUrl],
    // Payments stay processing until the dashboard's settle button (or the clock) settles them.
    settleDelayMs: 3_600_000,
    // A fixed real time keeps the virtual clock, and so the screenshots' timestamps, the same on every run.
    realNow: () => Date.UTC(2026, 0, 15, 9, 30),
    log: false,
  });
  browser = await launchBrowser();
  await mkdir(screenshots, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await mock?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

/** Waits until `text` appears in the element matched by `selector`. */
async function waitForText(page: Page, selector: string, text: string): Promise<void> {
  await page.waitForFunction(
    ([s, t]) => [...document.querySelectorAll(s!)].some((e) => (e.textContent ?? '').includes(t!)),
    [selector, text],
  );
}

/**
 * What the dashboard on `page` asks for over its next two polls, as the set of paths `asked` collects: a test that
 * shows nothing changed expects the health counters alone. Empties `asked` first; each poll ends when the page
 * marks `document.body.dataset.updated` with a later time.
 */
async function askedOverTwoPolls(page: Page, asked: string[]): Promise<Set<string>> {
  const updated = async () => Number(await page.evaluate(() => document.body.dataset.updated));
  const before = await updated();
  asked.length = 0;
  await page.waitForFunction((t) => Number(document.body.dataset.updated) > t, before);
  const once = await updated();
  await page.waitForFunction((t) => Number(document.body.dataset.updated) > t, once);
  return new Set(asked);
}

/** Opens the GraphiQL tab of `operation`, runs it, and returns the response editor's text once it holds `expected`. */
async function runInGraphiql(page: Page, operation: string, expected: string): Promise<string> {
  await waitForText(page, '.graphiql-tabs', operation);
  await page.locator('.graphiql-tab', { hasText: operation }).click();
  await waitForText(page, '.graphiql-query-editor', `query ${operation}`);
  await page.locator('.graphiql-execute-button').click();
  await waitForText(page, '.graphiql-response', expected);
  return (await page.locator('.graphiql-response').innerText()).replace(/\s+/g, ' ');
}

describe('GraphiQL at GET /graphql', () => {
  it('loads the schema and the examples, and runs a fee query in each guide', async () => {
    const { page, problems } = await browser.open();
    const res = await page.goto(`${mock.url}/graphql`);
    expect(res?.headers()['content-type']).toMatch(/^text\/html/);
    await waitForText(page, '#pck-token-status', 'from generate-token');
    // The kit's three operations are the tabs; the fee list is the second.
    const current = await runInGraphiql(page, 'PaymentGatewayFeesCalc', 'total_settlement_amount');
    expect(current).toContain('"paymentGatewayFeesCalc"');
    expect(current).not.toContain('errors');
    await page.screenshot({ path: join(screenshots, 'graphiql.png') });

    // --guide both: the switch loads the legacy guide's schema and examples, whose fee list has total and card_location.
    await page.selectOption('#pck-guide', 'legacy');
    // The switch remounts GraphiQL after a token fetch; until then the current guide's tabs are still on the page, and
    // a click on them is lost. The remounted GraphiQL asks the mock for the legacy schema first thing.
    const legacyIntrospected = async () =>
      (await mock.control.requests()).some((r) => r.operationName === 'IntrospectionQuery' && r.guide === 'legacy');
    while (!(await legacyIntrospected())) await page.waitForTimeout(20);
    const legacy = await runInGraphiql(page, 'PaymentGatewayFeesCalc', 'card_location');
    expect(legacy).toContain('"total"');
    expect(legacy).not.toContain('errors');
    // The legacy view's schema came from the mock's own introspection, answered in the legacy guide.
    const introspections = (await mock.control.requests()).filter((r) => r.operationName === 'IntrospectionQuery');
    expect(introspections.map((r) => r.guide)).toEqual(['current', 'legacy']);
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);
});

describe('API reference at /__pck/reference', () => {
  it('shows every path of openapi.yaml, and "Try it out" calls the mock', async () => {
    const { page, problems } = await browser.open();
    await page.goto(`${mock.url}/__pck/reference`);
    await waitForText(page, '.opblock-summary-path', '/api/v2/accounting/token/generate-token');
    for (const path of [tokenPaths.refresh, tokenPaths.revoke]) await waitForText(page, '.opblock-summary-path', path);
    // The server variable holds the page's own origin, so "Try it out" calls this mock.
    await page.waitForFunction(
      (url) =>
        [...document.querySelectorAll('.servers input, .servers select')].some(
          (e) => (e as HTMLInputElement).value === url,
        ),
      mock.url,
    );
    await page.screenshot({ path: join(screenshots, 'reference.png'), fullPage: false });

    // "Try it out" on generate-token reaches the mock and shows its token pair.
    const operation = page.locator('#operations-tokens-generateToken');
    await operation.locator('.opblock-summary').click();
    await operation.locator('tr[data-param-name="x-client-id"] input').fill(credentials['x-client-id']);
    await operation.locator('tr[data-param-name="x-api-key"] input').fill(credentials['x-api-key']);
    await operation.locator('button.execute').click();
    await waitForText(page, '#operations-tokens-generateToken .live-responses-table', '"SUCCESS"');
    expect(await operation.locator('.live-responses-table tbody .response-col_status').first().innerText()).toContain(
      '200',
    );
    expect((await mock.control.requests()).at(-1)).toMatchObject({ path: tokenPaths.generate, status: 200 });
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);
});

describe('Dashboard at /__pck/ui', () => {
  it('follows a payment from the API to its webhook delivery with every attempt, as text', async () => {
    const { page, problems } = await browser.open();
    await page.goto(`${mock.url}/__pck/ui`);
    await waitForText(page, '#pck-payments', 'No payments yet.');

    // A payment made through the API after the page loaded, whose description is an XSS attempt.
    const hostile = '<img src=x onerror=window.__pwned=1>';
    const token = (await post(`${mock.url}${tokenPaths.generate}`, credentials)).body.data.token;
    const input = payInput();
    const paid = await post(
      `${mock.url}/graphql`,
      { 'x-jwt-token': token },
      {
        query: print(ProcessPaymentRequestDocument),
        variables: { input: { ...input, payment_reference: { description: hostile, reference_no: 'R-1' } } },
      },
    );
    const uuid: string = paid.body.data.processPaymentRequest.uuid;
    const row = `#pck-payments tr[data-uuid="${uuid}"]`;
    await waitForText(page, row, 'processing');
    // The card number shows masked (first 6, last 4), never whole.
    await waitForText(page, row, '411111******1111');
    expect(await page.locator('body').innerText()).not.toContain(input.credit_card.card_number);

    // The journal shows the hostile description as text: no element was made from it, no script ran.
    await waitForText(page, '#pck-journal', hostile);
    expect(await page.locator('#pck-journal img').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();

    // A payment refused for its fee answers HTTP 200: the outcome column says it was refused, and why.
    const refused = await post(
      `${mock.url}/graphql`,
      { 'x-jwt-token': token },
      { query: print(ProcessPaymentRequestDocument), variables: { input: { ...input, fees: 5 } } },
    );
    expect(refused.status).toBe(200);
    await waitForText(page, '#pck-journal tr[data-refused] td.pck-outcome', 'refused: validation: input.fees');

    // Settle from the dashboard: the webhook's first attempt gets 503, a retry is scheduled.
    await page.locator(`${row} button`, { hasText: 'Settle: success' }).click();
    await waitForText(page, row, 'success');
    await waitForText(page, '#pck-deliveries', 'retry-scheduled');
    await waitForText(page, '#pck-deliveries', 'HTTP 503');
    await waitForText(page, '#pck-deliveries', 'busy, try later');

    // Advancing the clock from the dashboard fires the retry, which the receiver accepts.
    await page.locator('#pck-bar button', { hasText: '+1 h' }).click();
    await waitForText(page, '#pck-deliveries', 'delivered');
    const attempts = page.locator(`#pck-deliveries tr:has-text("${uuid}") li.pck-attempt`);
    expect(await attempts.count()).toBe(2);
    expect(await attempts.nth(1).innerText()).toContain('HTTP 200');
    expect(receiverAnswers).toEqual([503, 200]);
    await page.screenshot({ path: join(screenshots, 'dashboard.png'), fullPage: true });

    // Redeliver from the dashboard: a third attempt, accepted.
    await page.locator('#pck-deliveries button', { hasText: 'Redeliver' }).click();
    await page.waitForFunction(() => document.querySelectorAll('#pck-deliveries li.pck-attempt').length === 3);
    expect(receiverAnswers).toEqual([503, 200, 200]);

    // Reset (after the confirmation dialog) empties the tables.
    page.once('dialog', (dialog) => void dialog.accept());
    await page.locator('#pck-reset').click();
    await waitForText(page, '#pck-payments', 'No payments yet.');
    await waitForText(page, '#pck-deliveries', 'No webhook deliveries yet.');
    expect(await mock.control.payments()).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it('polls only the health counters while nothing changes, and pages a long list 20 rows at a time', async () => {
    mock.control.reset();
    const token = (await post(`${mock.url}${tokenPaths.generate}`, credentials)).body.data.token;
    const pay = () =>
      post(
        `${mock.url}/graphql`,
        { 'x-jwt-token': token },
        { query: print(ProcessPaymentRequestDocument), variables: { input: payInput() } },
      );
    for (let i = 0; i < 45; i++) expect((await pay()).status).toBe(200);
    const { page, problems } = await browser.open();
    const asked: string[] = [];
    page.on('request', (r) => asked.push(new URL(r.url()).pathname + new URL(r.url()).search));
    await page.goto(`${mock.url}/__pck/ui`);
    await waitForText(page, '#pck-payments-counts', '45 kept (45 processing)');
    const rows = page.locator('#pck-payments tr[data-uuid]');
    await page.waitForFunction(() => document.querySelectorAll('#pck-payments tr[data-uuid]').length === 20);
    const newest = (await mock.control.paymentPage({ limit: 45 })).items.map((p) => p.uuid);
    expect(await rows.first().getAttribute('data-uuid')).toBe(newest[0]);

    // Nothing changes: two more polls ask for the counters only, never for a list.
    expect(await askedOverTwoPolls(page, asked)).toEqual(new Set(['/__pck/health']));

    // Older pages on demand: 20, then the last 5, each row the one the control API lists at that place.
    await page.locator('[data-pager="payments-older"]').click();
    await page.waitForFunction(
      (uuid) => document.querySelector('#pck-payments tr[data-uuid]')?.getAttribute('data-uuid') === uuid,
      newest[20],
    );
    await page.locator('[data-pager="payments-older"]').click();
    await page.waitForFunction(() => document.querySelectorAll('#pck-payments tr[data-uuid]').length === 5);
    expect(await rows.last().getAttribute('data-uuid')).toBe(newest[44]);
    expect(await page.locator('[data-pager="payments-older"]').count()).toBe(0);

    // A change is picked up by the next poll: one page of the list that changed.
    // The click's own page request must have been answered before the payment: an answer still in flight would
    // already hold the new payment, and the poll under test would have nothing left to fetch.
    await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === '/__pck/payments'),
      page.locator('#pck-main button', { hasText: 'Newest' }).first().click(),
    ]);
    await page.waitForFunction(
      (uuid) => document.querySelector('#pck-payments tr[data-uuid]')?.getAttribute('data-uuid') === uuid,
      newest[0],
    );
    asked.length = 0;
    const paid = (await pay()).body.data.processPaymentRequest.uuid as string;
    await page.waitForFunction(
      (uuid) => document.querySelector('#pck-payments tr[data-uuid]')?.getAttribute('data-uuid') === uuid,
      paid,
    );
    expect(asked.filter((a) => a.startsWith('/__pck/payments'))).toEqual(['/__pck/payments?limit=20']);
    expect(asked.some((a) => a.startsWith('/__pck/deliveries'))).toBe(false);
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it('lists the behaviours exercised and never exercised with their counts, from GET /__pck/coverage', async () => {
    // A mock of its own: coverage survives a reset, and the other tests of this file exercise plenty.
    const fresh = await startMockServer({ port: 0, log: false });
    try {
      const { page, problems } = await browser.open();
      const asked: string[] = [];
      page.on('request', (r) => asked.push(new URL(r.url()).pathname));
      await page.goto(`${fresh.url}/__pck/ui`);
      const total = fresh.control.coverage().total;
      await waitForText(page, '#pck-coverage-counts', `0 of ${total} behaviours exercised (0.0%)`);
      expect(await page.locator('#pck-coverage tr[data-never]').count()).toBe(total);

      // A token and a fee list through the API: the next poll reads the report again, and their rows say so.
      const token = (await post(`${fresh.url}${tokenPaths.generate}`, credentials)).body.data.token;
      const fees = { query: print(PaymentGatewayFeesCalcDocument), variables: { amount: 100 } };
      await post(`${fresh.url}/graphql`, { 'x-jwt-token': token }, fees);
      await post(`${fresh.url}/graphql`, { 'x-jwt-token': token }, fees);
      await waitForText(page, '#pck-coverage-counts', `2 of ${total} behaviours exercised`);
      const feeRow = page.locator('#pck-coverage tr[data-behaviour="graphql.current.paymentGatewayFeesCalc"]');
      expect((await feeRow.locator('td').allInnerTexts()).slice(3)).toEqual(['2', 'exercised']);
      const expired = page.locator('#pck-coverage tr[data-behaviour="token.expired"]');
      expect((await expired.locator('td').allInnerTexts()).slice(2)).toEqual(['5', '0', 'never']);

      // The filter keeps the gaps only, or what was exercised only.
      await page.selectOption('#pck-coverage-filter', 'never');
      await page.waitForFunction(
        (n) => document.querySelectorAll('#pck-coverage tr[data-behaviour]').length === n,
        total - 2,
      );
      expect(await page.locator('#pck-coverage tr[data-behaviour]:not([data-never])').count()).toBe(0);
      await page.selectOption('#pck-coverage-filter', 'covered');
      await page.waitForFunction(() => document.querySelectorAll('#pck-coverage tr[data-behaviour]').length === 2);
      expect(await page.locator('#pck-coverage tr[data-behaviour] td:first-child').allInnerTexts()).toEqual([
        'token.generate',
        'graphql.current.paymentGatewayFeesCalc',
      ]);
      await page.screenshot({ path: join(screenshots, 'dashboard-coverage.png'), fullPage: true });

      // Nothing changes: the polls read the health counters only, never the report.
      expect(await askedOverTwoPolls(page, asked)).toEqual(new Set(['/__pck/health']));
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      await fresh.close();
    }
  }, 90_000);
});
