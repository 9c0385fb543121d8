// payment-contract-kit/msw in the browser (issue 28), as a front-end team meets it: bundled by esbuild from the
// packed tarball, run under msw's setupWorker in Debian's Chromium (playwright-core), with the kit's own flows.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../src/assumptions.ts';
import { root } from '../package/support/packed-kit.ts';
import { launchBrowser, type TestBrowser } from '../ui/support/browser.ts';
import {
  type BrowserBundle,
  nodeBuiltins,
  type PackedConsumer,
  packedConsumer,
} from './browser/packed-browser-build.ts';
import { type PageServer, startPageServer } from './browser/page-server.ts';

/**
 * Budget for the msw entry's own browser code (minified, gzip), msw and graphql left to the consumer's bundle: the
 * figure was 61.5 kB gzip when set (the mock's GraphQL engine, validation, webhooks and @noble/hashes). Raised from
 * 70,000 to 70,500 when the fee list's kept answers by body (decision 0036) and the platform's `elapsedMs` (decision
 * 0037) brought it to 70,005. Raised to 71,500 when the body depth bound before parsing (`limits.maxJsonDepth`), the
 * ledger's unlisted statuses, revoke-token's account of what it revoked and the card masking that spares numbers the
 * message is about brought it to 70,932. Raised to 77,500 when the coverage report (the catalogue's titles and hints,
 * the collector, the text and JUnit forms of GET /__pck/coverage) and the state events it reads brought it to 76,698.
 * Raised to 79,000 when the token service over a shared token state (which only a Redis store uses, but which the
 * token service imports statically) and the folder moves brought it to 78,496. Lowered to 78,000 when those token
 * operations left the browser build (the Node entries pass them in) and it measured 77,904. Raised to 79,000 when the
 * sandbox epoch (the clock and resets of a Redis store, which the store wiring imports statically) brought it to
 * 78,551; a seam like the token operations' would take it out again. Raised to 80,000 when the assumptions checked
 * at every level against the defaults (a `--config` file's and code's alike), the store's failure state in the store
 * wiring and delivery ids made from the payment brought it to 79,309; the same seam would take the store parts out.
 */
const gzipBudget = 80_000;

let consumer: PackedConsumer;
let app: BrowserBundle;
let kitOnly: BrowserBundle;
let server: PageServer;
let origin: string;
let browser: TestBrowser;
let hooks: unknown[] = [];

beforeAll(async () => {
  consumer = await packedConsumer();
  app = await consumer.bundle(await readFile(join(import.meta.dirname, 'browser/page.ts'), 'utf8'));
  kitOnly = await consumer.bundle("export { createMockHandlers } from 'payment-contract-kit/msw';", {
    external: ['msw', 'graphql'],
  });
  const worker = await readFile(join(root, 'node_modules/msw/lib/mockServiceWorker.js'));
  const html = '<!doctype html><meta charset="utf-8"><title>kit</title><script type="module" src="/app.js"></script>';
  server = await startPageServer({
    '/': ['text/html', html],
    '/app.js': ['text/javascript', app.code],
    // msw's worker script, as `npx msw init` copies it into a public folder.
    '/mockServiceWorker.js': ['text/javascript', worker],
  });
  origin = server.origin;
  hooks = server.hooks;
  browser = await launchBrowser();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await consumer?.remove();
});

describe('the browser bundle from the packed tarball', () => {
  it('resolves the browser build and holds no Node built-in, graphql-jit or second graphql copy', () => {
    for (const bundle of [app, kitOnly]) {
      expect(nodeBuiltins(bundle.externals)).toEqual([]);
      expect(bundle.inputs.filter((i) => /node_modules\/payment-contract-kit\//.test(i))).toContainEqual(
        expect.stringContaining('dist/browser/msw.js'),
      );
      expect(bundle.inputs.some((i) => i.includes('graphql-jit'))).toBe(false);
    }
    // One realm: every graphql module comes from one of its two copies (ESM .mjs or CommonJS .js), never both.
    const graphqlFiles = app.inputs.filter((i) => /node_modules\/graphql\//.test(i));
    expect(new Set(graphqlFiles.map((f) => f.endsWith('.mjs'))).size).toBe(1);
  });

  it(`keeps the msw entry's own code under ${gzipBudget} bytes gzip (msw and graphql are the consumer's)`, () => {
    console.log(
      JSON.stringify({
        mswEntryMinified: kitOnly.bytes,
        mswEntryGzip: kitOnly.gzipBytes,
        appWithMswAndGraphqlMinified: app.bytes,
        appWithMswAndGraphqlGzip: app.gzipBytes,
      }),
    );
    expect(kitOnly.gzipBytes).toBeLessThan(gzipBudget);
  });
});

describe('createMockHandlers under setupWorker in Chromium', () => {
  let page: Awaited<ReturnType<TestBrowser['open']>>['page'];
  let problems: string[];
  const call = (flow: string) =>
    page.evaluate(
      (name) => (globalThis as unknown as Record<string, Record<string, () => unknown>>).pck![name]!(),
      flow,
    );

  beforeAll(async () => {
    ({ page, problems } = await browser.open());
    await page.goto(origin);
    await page.waitForFunction(() => 'pckReady' in globalThis);
    // Every flow waits for worker.start(): before it, a request leaves the page unintercepted.
    const startup = await page.evaluate(() => (globalThis as unknown as { pckReady: Promise<unknown> }).pckReady);
    expect(startup).toMatchObject({ tokenLength: expect.any(Number) });
    console.log(JSON.stringify({ setupWorker: startup }));
  }, 60_000);

  beforeEach(async () => {
    await call('reset');
    hooks.length = 0;
  });

  it('lists the fees for an amount, one entry per card type', async () => {
    const fees = (await call('fees')) as { card_type: string; amount: number; total_settlement_amount: number }[];
    expect(fees.length).toBeGreaterThan(1);
    expect(fees.every((f) => f.amount === 100 && f.total_settlement_amount > 100)).toBe(true);
  });

  it('calculates the card fee and returns a card account uid', async () => {
    expect(await call('cardFee')).toMatchObject({ amount: 100, fees: 1.8, card_account_uid: expect.any(String) });
  });

  it('pays; the clock settles it; the in-page receiver, the page-reachable URL and a blocked URL each get their outcome', async () => {
    const r = (await call('payment')) as {
      payment: { uuid: string; status: { name: string } };
      stored: { uuid: string }[];
      heard: { uuid: string; status: string }[];
      inPage: { state: string };
      overFetch: { state: string; status: number };
      blocked: { state: string; error: string };
    };
    expect(r.payment.status.name).toBe(defaultAssumptions.statusNames.processing);
    expect(r.stored.map((p) => p.uuid)).toEqual([r.payment.uuid]);
    expect(r.heard).toEqual([expect.objectContaining({ uuid: r.payment.uuid, status: 'success' })]);
    expect(r.inPage.state).toBe('delivered');
    expect(r.overFetch).toEqual({ state: 'delivered', status: 204 });
    expect(hooks).toEqual([expect.objectContaining({ uuid: r.payment.uuid, status: 'success' })]);
    // A URL the page may not reach is a failed attempt that says why, kept for retries; nothing is lost.
    expect(r.blocked.state).not.toBe('delivered');
    expect(r.blocked.error).toMatch(/fetch-failed.*CORS/s);
  });

  it('answers a validation failure in the 7.3 shape', async () => {
    const r = (await call('validation')) as { body: { errors: { extensions: Record<string, unknown> }[] } };
    expect(r.body.errors[0]!.extensions).toMatchObject({
      category: 'validation',
      validation: { 'input.credit_card.expiry_year': [expect.any(String)] },
    });
  });

  it('expires a token on the mock clock', async () => {
    const r = (await call('tokenExpiry')) as { before: number; after: { body: { errors: { extensions: unknown }[] } } };
    expect(r.before).toBe(200);
    expect(r.after.body.errors[0]!.extensions).toEqual({ reason: defaultAssumptions.reasonCodes.expiredToken });
  });

  it('ran without a console error or an uncaught exception, but the blocked webhook URL the browser refused', () => {
    expect(problems.filter((p) => !p.includes('net::ERR_'))).toEqual([]);
  });
});
