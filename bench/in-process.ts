/**
 * The workloads consumers wait on that never cross a socket of the mock's own, each paired with its own limit in the
 * same run: the built `payment-contract-kit/msw` handlers under msw's `setupServer` against a hand-written msw handler
 * returning the same JSON; the handler set's creation and `reset()`; a 100-test vitest file with the kit's handlers
 * against the same file with hand-written ones; and webhook delivery against a bare node:http poster sending the same
 * bodies to the same keep-alive receiver. Short alternating slices, the median of per-pair ratios (paired.ts).
 *
 * @module
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BrowserBundleSize, measureBrowserBundle } from './browser-bundle.ts';
import { type PairedRatio, pairedRatio } from './paired.ts';
import { root } from './servers.ts';
import { AMOUNT, credentials, GRAPHQL_PATH, paymentVariables, queries, TOKEN_PATH } from './workloads.ts';

/** What the in-process workloads measured. */
export interface InProcessResult {
  /** Kit handler throughput ÷ hand-written handler throughput, per workload (target ≥ 0.5). */
  readonly msw: Readonly<Record<'fees-list' | 'process-payment', PairedRatio>>;
  /** `createMockHandlers()` and `control.reset()` times, ms. */
  readonly setup: { readonly createMs: Quantiles; readonly resetMs: Quantiles };
  /** A 100-test vitest file: the kit's handlers' wall time ÷ hand-written handlers' (target ≤ 1.5). */
  readonly vitestFile?: PairedRatio;
  /** Webhooks delivered per second by the mock ÷ by a bare poster (target ≥ 0.5). */
  readonly webhooks: PairedRatio;
  /** The msw entry's own browser code, minified and gzip (msw and graphql are the app's). */
  readonly browserBundle?: BrowserBundleSize;
}

/** Median and 99th percentile of a list of times. */
export interface Quantiles {
  readonly p50: number;
  readonly p99: number;
  readonly count: number;
}

type MswEntry = typeof import('../src/msw/index.ts');
type MockEntry = typeof import('../src/mock/index.ts');

const distModule = async <T>(name: string): Promise<T> =>
  (await import(pathToFileURL(join(root, 'dist', `${name}.js`)).href)) as T;

function quantiles(values: readonly number[]): Quantiles {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return { p50: at(0.5), p99: at(0.99), count: sorted.length };
}

const jsonHeaders = { 'content-type': 'application/json', accept: 'application/json' };
const KIT = 'http://127.0.0.1:4010';
const HAND = 'http://hand-written.test';

/** Times `slice` sequential calls of `run`, in ms. */
async function timeSlice(slice: number, run: () => Promise<void>): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < slice; i++) await run();
  return performance.now() - started;
}

/** The kit's msw handlers against hand-written ones, both in one `setupServer`, alternating slices. */
async function measureMsw(pairs: number, slice: number): Promise<InProcessResult['msw']> {
  const { createMockHandlers } = await distModule<MswEntry>('msw');
  const { http: mswHttp, HttpResponse } = await import('msw');
  const { setupServer } = await import('msw/node');
  const kit = createMockHandlers({ baseUrl: KIT, log: false });
  const answers: Record<string, unknown> = {};
  // The hand-written handlers answer what the kit answered, re-serialised per call as a hand-written handler does.
  const hand = mswHttp.post(`${HAND}${GRAPHQL_PATH}`, async ({ request }) => {
    const { query } = (await request.json()) as { query: string };
    return HttpResponse.json(answers[query] as Record<string, never>);
  });
  const server = setupServer(hand, ...kit.handlers);
  server.listen({ onUnhandledRequest: 'error' });
  try {
    const tokenRes = await fetch(`${KIT}${TOKEN_PATH}`, {
      method: 'POST',
      headers: { ...jsonHeaders, 'x-client-id': credentials.clientId, 'x-api-key': credentials.apiKey },
    });
    const { data } = (await tokenRes.json()) as { data: { token: string } };
    const call = (origin: string, query: string, variables: unknown) => async () => {
      const res = await fetch(`${origin}${GRAPHQL_PATH}`, {
        method: 'POST',
        headers: { ...jsonHeaders, 'x-jwt-token': data.token },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await res.json()) as { errors?: unknown };
      if (body.errors !== undefined) throw new Error(`msw bench: ${JSON.stringify(body).slice(0, 300)}`);
    };
    const feeVars = { amount: AMOUNT };
    const feeAnswer = await fetch(`${KIT}${GRAPHQL_PATH}`, {
      method: 'POST',
      headers: { ...jsonHeaders, 'x-jwt-token': data.token },
      body: JSON.stringify({ query: queries.fees, variables: feeVars }),
    });
    answers[queries.fees] = await feeAnswer.json();
    const cardFee = (answers[queries.fees] as { data: { paymentGatewayFeesCalc: { fees: number }[] } }).data
      .paymentGatewayFeesCalc[0]!.fees;
    const payVars = paymentVariables(cardFee);
    const payAnswer = await fetch(`${KIT}${GRAPHQL_PATH}`, {
      method: 'POST',
      headers: { ...jsonHeaders, 'x-jwt-token': data.token },
      body: JSON.stringify({ query: queries.payment, variables: payVars }),
    });
    answers[queries.payment] = await payAnswer.json();
    const out: Record<string, PairedRatio> = {};
    for (const [id, query, vars] of [
      ['fees-list', queries.fees, feeVars],
      ['process-payment', queries.payment, payVars],
    ] as const) {
      const kitMs: number[] = [];
      const handMs: number[] = [];
      await timeSlice(slice, call(KIT, query, vars));
      for (let i = 0; i < pairs; i++) {
        // Alternate which side goes first, so neither always runs on a warmer or colder moment.
        if (i % 2 === 0) {
          kitMs.push(await timeSlice(slice, call(KIT, query, vars)));
          handMs.push(await timeSlice(slice, call(HAND, query, vars)));
        } else {
          handMs.push(await timeSlice(slice, call(HAND, query, vars)));
          kitMs.push(await timeSlice(slice, call(KIT, query, vars)));
        }
        // Keep the payment history small: the per-client cap is not what this measures.
        if (id === 'process-payment') kit.control.reset();
      }
      // Throughput kit ÷ hand-written, pair by pair, with the hand-written slice as the reference.
      out[id] = pairedRatio(
        kitMs.map((k) => 1 / k),
        handMs.map((h) => 1 / h),
      );
    }
    return out as InProcessResult['msw'];
  } finally {
    server.close();
    await kit.close();
  }
}

async function measureSetup(): Promise<InProcessResult['setup']> {
  const { createMockHandlers } = await distModule<MswEntry>('msw');
  const createMs: number[] = [];
  for (let i = 0; i < 60; i++) {
    const started = performance.now();
    const handlers = createMockHandlers({ log: false });
    createMs.push(performance.now() - started);
    await handlers.close();
  }
  const handlers = createMockHandlers({ log: false });
  const resetMs: number[] = [];
  for (let i = 0; i < 500; i++) {
    const started = performance.now();
    handlers.control.reset();
    resetMs.push(performance.now() - started);
  }
  await handlers.close();
  return { createMs: quantiles(createMs.slice(10)), resetMs: quantiles(resetMs) };
}

/** Writes the two 100-test vitest files (kit handlers with a reset per test; hand-written handlers). */
function writeVitestSuites(dir: string): { kit: string; hand: string; config: string } {
  mkdirSync(dir, { recursive: true });
  const msw = pathToFileURL(join(root, 'dist', 'msw.js')).href;
  const common = (setup: string, reset: string, origin: string) => `
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { setupServer } from 'msw/node';
${setup}
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => { ${reset} });
afterAll(() => server.close());
const headers = { 'content-type': 'application/json', accept: 'application/json' };
async function token() {
  const res = await fetch('${origin}${TOKEN_PATH}', { method: 'POST', headers: { ...headers, 'x-client-id': '${credentials.clientId}', 'x-api-key': '${credentials.apiKey}' } });
  return (await res.json()).data.token;
}
for (let i = 0; i < 100; i++) {
  it('fee list ' + i, async () => {
    const res = await fetch('${origin}${GRAPHQL_PATH}', { method: 'POST', headers: { ...headers, 'x-jwt-token': await token() }, body: JSON.stringify({ query: ${JSON.stringify(queries.fees)}, variables: { amount: ${AMOUNT} } }) });
    const body = await res.json();
    if (!body.data) throw new Error(JSON.stringify(body).slice(0, 300));
    expect(body.data.paymentGatewayFeesCalc.length).toBeGreaterThan(0);
  });
}
`;
  const kit = join(dir, 'kit.test.mjs');
  const hand = join(dir, 'hand.test.mjs');
  writeFileSync(
    kit,
    common(
      `import { createMockHandlers } from '${msw}';\nconst mock = createMockHandlers({ baseUrl: '${KIT}', log: false });\nconst server = setupServer(...mock.handlers);`,
      'mock.control.reset();',
      KIT,
    ),
  );
  writeFileSync(
    hand,
    common(
      `import { http, HttpResponse } from 'msw';
const fees = [{ amount: ${AMOUNT}, fees: 1.8, total_settlement_amount: 101.8, card_type: 'VISA' }];
const server = setupServer(
  http.post('${HAND}${TOKEN_PATH}', () => HttpResponse.json({ status: 'SUCCESS', data: { token: 't', refresh_token: 'r', expiration: 1 } })),
  http.post('${HAND}${GRAPHQL_PATH}', () => HttpResponse.json({ data: { paymentGatewayFeesCalc: fees } })),
);`,
      'server.resetHandlers();',
      HAND,
    ),
  );
  const config = join(dir, 'vitest.config.mjs');
  // The kit is loaded from dist/ as a consumer's node_modules copy would be: by Node, not transformed by Vite (whose
  // resolution picks graphql's ESM build beside graphql-jit's CommonJS one, two realms a consumer never has).
  writeFileSync(
    config,
    `export default { test: { include: ['*.test.mjs'], root: ${JSON.stringify(dir)}, server: { deps: { external: [/\\/dist\\//] } } } };\n`,
  );
  return { kit, hand, config };
}

/**
 * Pairs of vitest-file runs in a full run. Three read 1.12× and 1.19× in two runs of one build, each outside the
 * other's spread: a file run is a whole vitest start (about 3 s), so one slow start moves a 3-pair median.
 */
const VITEST_FILE_PAIRS = 7;

/** Runs the kit's and the hand-written 100-test vitest files `pairs` times each, in alternating order: wall-time ratio. */
export function measureVitestFile(pairs: number): PairedRatio | undefined {
  const dir = join(root, '.tmp', 'bench', 'vitest-suite');
  const { kit, hand, config } = writeVitestSuites(dir);
  const run = (file: string) => {
    const started = performance.now();
    const result = spawnSync(
      process.execPath,
      [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', config, file],
      { cwd: root, encoding: 'utf8', timeout: 120_000 },
    );
    if (result.status !== 0) throw new Error(`vitest file ${file} failed: ${result.stdout.slice(-600)}`);
    return performance.now() - started;
  };
  const kitMs: number[] = [];
  const handMs: number[] = [];
  for (let i = 0; i < pairs; i++) {
    // Alternate which file goes first, so neither always starts on the cache the other just warmed.
    if (i % 2 === 0) {
      kitMs.push(run(kit));
      handMs.push(run(hand));
    } else {
      handMs.push(run(hand));
      kitMs.push(run(kit));
    }
  }
  return pairedRatio(kitMs, handMs);
}

/** A keep-alive receiver that counts webhooks and keeps the bodies and headers of the first batch. */
async function startReceiver() {
  let count = 0;
  let waiting: { want: number; resolve: () => void } | undefined;
  const kept: { headers: Record<string, string>; body: string }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (kept.length < 100_000)
        kept.push({
          headers: Object.fromEntries(
            Object.entries(req.headers).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])),
          ),
          body: Buffer.concat(chunks).toString('utf8'),
        });
      count++;
      res.writeHead(200, { 'content-length': '0' });
      res.end();
      if (waiting && count >= waiting.want) {
        const { resolve } = waiting;
        waiting = undefined;
        resolve();
      }
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  return {
    url,
    kept,
    /** Resolves once `n` more webhooks have arrived. */
    expect(n: number): Promise<void> {
      const want = count + n;
      return count >= want ? Promise.resolve() : new Promise((resolve) => (waiting = { want, resolve }));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Settled payments delivered by the mock, against a bare poster sending the same bodies, batch by batch. */
async function measureWebhooks(pairs: number, batch: number): Promise<PairedRatio> {
  const { createMockApp } = await distModule<MockEntry>('mock');
  const receiver = await startReceiver();
  const hour = 3_600_000;
  const app = createMockApp({ log: false, webhookUrls: [receiver.url], settleDelayMs: hour });
  const newAgent = () => new http.Agent({ keepAlive: true, maxSockets: 64 });
  let agent = newAgent();
  try {
    const request = (path: string, init: RequestInit) => app.fetch(new Request(`http://127.0.0.1${path}`, init));
    const tokenRes = await request(TOKEN_PATH, {
      method: 'POST',
      headers: { ...jsonHeaders, 'x-client-id': credentials.clientId, 'x-api-key': credentials.apiKey },
    });
    const { data } = (await tokenRes.json()) as { data: { token: string } };
    const feeRes = await request(GRAPHQL_PATH, {
      method: 'POST',
      headers: { ...jsonHeaders, 'x-jwt-token': data.token },
      body: JSON.stringify({ query: queries.fees, variables: { amount: AMOUNT } }),
    });
    const fee = ((await feeRes.json()) as { data: { paymentGatewayFeesCalc: { fees: number }[] } }).data
      .paymentGatewayFeesCalc[0]!.fees;
    const body = JSON.stringify({ query: queries.payment, variables: paymentVariables(fee) });
    const mockMs: number[] = [];
    const bareMs: number[] = [];
    const target = new URL(receiver.url);
    const postBare = (headers: Record<string, string>, text: string) =>
      new Promise<void>((resolve, reject) => {
        const req = http.request(
          { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent, headers },
          (res) => {
            res.resume();
            res.on('end', resolve);
          },
        );
        req.on('error', reject);
        req.end(text);
      });
    for (let i = 0; i < pairs; i++) {
      for (let p = 0; p < batch; p++) {
        const res = await request(GRAPHQL_PATH, {
          method: 'POST',
          headers: { ...jsonHeaders, 'x-jwt-token': data.token },
          body,
        });
        if (res.status !== 200) throw new Error(`webhook bench: payment answered ${res.status}`);
        await res.arrayBuffer();
      }
      const before = receiver.kept.length;
      const arrived = receiver.expect(batch);
      let started = performance.now();
      app.control.advanceClock(hour);
      await arrived;
      mockMs.push(performance.now() - started);
      const sent = receiver.kept.slice(before, before + batch);
      const bareArrived = receiver.expect(batch);
      started = performance.now();
      await Promise.all(
        sent.map(({ headers, body: text }) => {
          const { host: _h, connection: _c, ...rest } = headers;
          return postBare(rest, text);
        }),
      );
      await bareArrived;
      bareMs.push(performance.now() - started);
      receiver.kept.length = 0;
      // The reset drops the mock's pooled connections, so its next batch opens them again; the bare poster's are
      // dropped here too, or only the mock's batches would pay for opening connections (both ends of them).
      app.control.reset();
      agent.destroy();
      agent = newAgent();
    }
    // Deliveries per second, mock ÷ bare poster, batch by batch, with the bare poster as the reference.
    return pairedRatio(
      mockMs.map((m) => 1 / m),
      bareMs.map((b) => 1 / b),
    );
  } finally {
    agent.destroy();
    await app.close();
    await receiver.close();
  }
}

/** Options of {@link measureInProcess}. */
export interface InProcessOptions {
  readonly quick: boolean;
  readonly log: (line: string) => void;
}

/** Runs every in-process workload; the vitest-file one is skipped (undefined) in a quick run. */
export async function measureInProcess(options: InProcessOptions): Promise<InProcessResult> {
  const { quick, log } = options;
  const msw = await measureMsw(quick ? 6 : 24, quick ? 50 : 100);
  log(
    `msw: fee list ${msw['fees-list'].median.toFixed(2)}×, payment ${msw['process-payment'].median.toFixed(2)}× hand-written`,
  );
  const setup = await measureSetup();
  log(`createMockHandlers p50 ${setup.createMs.p50.toFixed(2)} ms, reset p50 ${setup.resetMs.p50.toFixed(3)} ms`);
  const vitestFile = quick ? undefined : measureVitestFile(VITEST_FILE_PAIRS);
  if (vitestFile) log(`100-test vitest file: ${vitestFile.median.toFixed(2)}× the hand-written file's wall time`);
  const webhooks = await measureWebhooks(quick ? 3 : 10, quick ? 200 : 500);
  log(`webhooks: ${webhooks.median.toFixed(2)}× a bare poster's deliveries per second`);
  const browserBundle = await measureBrowserBundle();
  if (browserBundle)
    log(
      `msw browser bundle: ${(browserBundle.minifiedBytes / 1000).toFixed(1)} kB minified, ${(browserBundle.gzipBytes / 1000).toFixed(1)} kB gzip`,
    );
  return { msw, setup, ...(vitestFile ? { vitestFile } : {}), webhooks, ...(browserBundle ? { browserBundle } : {}) };
}
