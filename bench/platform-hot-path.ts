/**
 * Issue 28's hot-path figures, in one process (no sockets, so the host's speed modes hit both sides alike):
 *
 * 1. HS256 per token on each platform: the Node platform's signer (node:crypto one-shot hashes) against the web
 *    platform's (@noble/hashes), signing a token-sized input; alternating slices, median of the per-pair ratios.
 * 2. The mock before and after the isomorphic core: `createMockApp` of another checkout's build (`--before <dir>`,
 *    its `dist/mock.js`) and of this one, each answering a fee list and a payment (each with its token check) through
 *    `app.fetch`, in alternating slices of CPU time; median of the per-pair ratios and its spread. Two copies of the
 *    mock in one process share graphql, and the copy loaded second runs slower (an A/A run of two copies of one
 *    build read 1.4-1.5), so it runs once in each load order, each in its own process, and the geometric mean of the
 *    two after/before ratios cancels that bias.
 *
 * Run: `npm run build && tsx bench/platform-hot-path.ts --before /path/to/checkout-before` (its dist built); `--workload
 * token|fees|payment` times one request kind alone instead of a fee list and a payment per step.
 *
 * @module
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
// The mock's internals are reached through the support modules only (rule bench-and-scripts-stay-off-mock-internals).
import { nodeCrypto, webCrypto } from '../test/support/mock-internals/platform.ts';
import { cardFeeVariables, paymentVariables, queries } from './workloads.ts';

const args = process.argv.slice(2);
const beforeDir = args.includes('--before') ? resolve(args[args.indexOf('--before') + 1]!) : undefined;
const pairs = Number(process.env.PCK_BENCH_PAIRS ?? 40);
/** What one step sends (`--workload`): a fee list and a payment (default), or only one of generate-token, fees, payment. */
const workload = args.includes('--workload') ? args[args.indexOf('--workload') + 1]! : 'fees+payment';
if (!['fees+payment', 'token', 'fees', 'payment'].includes(workload))
  throw new Error(
    `[payment-contract-kit] bench: --workload takes token, fees, payment or fees+payment, not ${workload}.`,
  );

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
const spread = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return [sorted[Math.floor(sorted.length * 0.1)]!, sorted[Math.floor(sorted.length * 0.9)]!] as const;
};

/** Alternates `a` and `b` (order flipped every pair) and answers each side's median CPU ns per call and the ratios. */
async function alternate(a: () => Promise<void> | void, b: () => Promise<void> | void, perSlice: number) {
  const times: { a: number[]; b: number[]; ratio: number[] } = { a: [], b: [], ratio: [] };
  // CPU time of this process (user + system), not wall time: on a shared 2-core host the wall clock also counts
  // the time other processes held the cores.
  const slice = async (f: () => Promise<void> | void) => {
    const start = process.cpuUsage();
    for (let i = 0; i < perSlice; i++) await f();
    const used = process.cpuUsage(start);
    return ((used.user + used.system) * 1000) / perSlice;
  };
  await slice(a);
  await slice(b);
  for (let p = 0; p < pairs; p++) {
    let ta: number;
    let tb: number;
    if (p % 2 === 0) {
      ta = await slice(a);
      tb = await slice(b);
    } else {
      tb = await slice(b);
      ta = await slice(a);
    }
    times.a.push(ta);
    times.b.push(tb);
    times.ratio.push(tb / ta);
  }
  return { aNs: median(times.a), bNs: median(times.b), ratio: median(times.ratio), ratioSpread: spread(times.ratio) };
}

async function hs256(): Promise<void> {
  const key = new Uint8Array(32).fill(7);
  const input = `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.${nodeCrypto.base64urlOfText(
    JSON.stringify({ sub: 'test-client', typ: 'access', jti: crypto.randomUUID(), gen: 0, iat: 1, exp: 601 }),
  )}`;
  const [node, web] = [nodeCrypto.hs256Signer(key), webCrypto.hs256Signer(key)];
  if (node(input) !== web(input)) throw new Error('the two signers disagree');
  const r = await alternate(
    () => void node(input),
    () => void web(input),
    2_000,
  );
  console.log(
    JSON.stringify({
      figure: 'hs256-sign-per-token',
      nodeNs: Math.round(r.aNs),
      webNs: Math.round(r.bNs),
      webOverNode: +r.ratio.toFixed(2),
      spread: r.ratioSpread.map((x) => +x.toFixed(2)),
    }),
  );
}

interface Mock {
  fetch(request: Request): Promise<Response>;
  close(): Promise<void>;
  control: { reset(): void };
}

/** One fee list and one payment through `app.fetch`, each checked, with the client's token. */
async function driver(module: string) {
  const { createMockApp } = (await import(pathToFileURL(module).href)) as { createMockApp(o: object): Mock };
  const app = createMockApp({ log: false, ui: false });
  const base = 'http://localhost:4010';
  const post = (path: string, headers: Record<string, string>, body?: unknown) =>
    app.fetch(
      new Request(base + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
  const credentials = { 'x-client-id': 'test-client', 'x-api-key': 'test-api-key' };
  const tokenAnswer = await post('/api/v2/accounting/token/generate-token', credentials);
  const token = ((await tokenAnswer.json()) as { data: { token: string } }).data.token;
  const gql = async (query: string, variables: unknown) => {
    const res = await post('/graphql', { 'x-jwt-token': token }, { query, variables });
    const body = (await res.json()) as { data?: unknown; errors?: unknown };
    if (res.status !== 200 || body.errors) throw new Error(`answer ${res.status}: ${JSON.stringify(body)}`);
    return body.data as Record<string, { fees: number }>;
  };
  const fee = (await gql(queries.cardFee, cardFeeVariables())).paymentCreditCardFeeCalc!.fees;
  // The first GraphQL answer starts loading graphql-jit through a dynamic import, which completes only once the
  // event loop runs a macrotask; the timed loops below only await promises, so without this wait every step would
  // run on graphql-js and the figures would not be the Node mock's.
  await new Promise((resolve) => setTimeout(resolve, 500));
  let n = 0;
  return {
    app,
    async step() {
      if (workload === 'token') {
        const res = await post('/api/v2/accounting/token/generate-token', credentials);
        if (res.status !== 200) throw new Error(`generate-token answered ${res.status}: ${await res.text()}`);
        await res.arrayBuffer();
      }
      if (workload.includes('fees')) await gql(queries.fees, { amount: 100 });
      if (workload.includes('payment')) await gql(queries.payment, paymentVariables(fee));
      // Payments accumulate (and settle on real timers): start over now and then, on both sides alike.
      if (++n % 2_000 === 0) app.control.reset();
    },
  };
}

/** One load order, in this process: answers after/before. */
async function beforeAfter(dir: string, afterFirst: boolean): Promise<number> {
  const afterPath = join(import.meta.dirname, '../dist/mock.js');
  const [first, second] = afterFirst ? [afterPath, join(dir, 'dist/mock.js')] : [join(dir, 'dist/mock.js'), afterPath];
  const loaded = [await driver(first), await driver(second)];
  const [before, after] = afterFirst ? [loaded[1]!, loaded[0]!] : [loaded[0]!, loaded[1]!];
  // 20k app.fetch calls a side: 40 pairs of 250 steps, two calls a step.
  const r = await alternate(before.step, after.step, Number(process.env.PCK_BENCH_STEPS ?? 250));
  console.log(
    JSON.stringify({
      figure: `${workload}-via-app-fetch`,
      loadedFirst: afterFirst ? 'after' : 'before',
      beforeUsPerStep: +(r.aNs / 1000).toFixed(1),
      afterUsPerStep: +(r.bNs / 1000).toFixed(1),
      afterOverBefore: +r.ratio.toFixed(3),
      spread: r.ratioSpread.map((x) => +x.toFixed(3)),
      pairs,
    }),
  );
  await before.app.close();
  await after.app.close();
  return r.ratio;
}

/** Runs one load order in a child process (a fresh V8 for each) and answers its ratio. */
function orderInChild(afterFirst: boolean): number {
  const child = spawnSync(
    process.execPath,
    [...process.execArgv, ...process.argv.slice(1), '--order', String(afterFirst)],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  process.stdout.write(child.stdout);
  const line = child.stdout.split('\n').find((l) => l.includes('"loadedFirst"'));
  if (child.status !== 0 || line === undefined)
    throw new Error(`the ${afterFirst ? 'after' : 'before'}-first run failed`);
  return (JSON.parse(line) as { afterOverBefore: number }).afterOverBefore;
}

if (args.includes('--order')) {
  if (beforeDir) await beforeAfter(beforeDir, args[args.indexOf('--order') + 1] === 'true');
} else {
  await hs256();
  if (beforeDir) {
    const ratios = [orderInChild(false), orderInChild(true)];
    const both = Math.sqrt(ratios[0]! * ratios[1]!);
    console.log(JSON.stringify({ figure: 'after-over-before-both-orders', geometricMean: +both.toFixed(3), ratios }));
  }
}
