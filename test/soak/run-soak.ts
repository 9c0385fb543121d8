/**
 * The soak of issue 27, in process (`app.fetch`, no sockets) and on the virtual clock, so a simulated day takes
 * seconds: payments arrive in batches spread over the outage while the webhook receiver refuses every attempt;
 * between batches the clock moves on (settlements and retries run) and the dashboard's poll runs (health and one
 * page of each list). Then the receiver comes back, the clock runs out the retry schedule, more payments are made
 * and delivered, and a page of refused deliveries is redelivered. It returns every figure it measured; the test
 * asserts the deterministic ones and `npm run soak` prints a longer run.
 *
 * @module
 */

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { print } from 'graphql';
import { ProcessPaymentRequestDocument } from '../../src/index.ts';
import { buildNodeMockApp } from '../../src/mock/app.ts';
import type { MockApp } from '../../src/mock/control-types.ts';
import { serviceHeaders } from '../../src/spec-names.ts';
import { payInput } from '../mock/helpers.ts';

/** Options of {@link runSoak}. */
export interface SoakOptions {
  /** Payments made while the receiver is down. */
  readonly payments: number;
  /** Simulated length of the outage, in ms of the mock's clock. */
  readonly outageMs: number;
  /** Payments per batch (the clock moves and the dashboard polls between batches). */
  readonly batch: number;
  /** Payments in flight at once within a batch. */
  readonly concurrency: number;
  /** Payments made after the receiver is back. */
  readonly afterPayments: number;
  /** Payments count at which the "during" memory figure is taken (the issue's 30,000). */
  readonly checkpointAt: number;
  /** Progress lines (the longer run prints them). */
  readonly progress?: (line: string) => void;
}

/** A memory reading: RSS and heap after two full collections, in MB. */
export interface MemoryFigure {
  readonly label: string;
  readonly payments: number;
  readonly rssMb: number;
  readonly heapAfterGcMb: number;
}

/** What the soak measured. */
export interface SoakFigures {
  readonly memory: MemoryFigure[];
  readonly payments: { readonly accepted: number; readonly refused: number; readonly crashes: number };
  /** Every delivery the mock created, by what became of it. */
  readonly deliveries: {
    readonly created: number;
    readonly delivered: number;
    readonly failed: number;
    readonly pending: number;
    readonly evicted: number;
    readonly refusedAtCap: number;
    readonly redeliveredAfterOutage: number;
  };
  /** Largest answer of the dashboard's requests (default pages), bytes, and the slowest, ms. */
  readonly controlAnswers: {
    readonly largestBytes: number;
    readonly largestPath: string;
    readonly slowestMs: number;
    readonly count: number;
  };
  /** Payment latency (ms, in process) while the dashboard's requests run. */
  readonly paymentLatency: { readonly p50: number; readonly p99: number; readonly max: number };
  /** Log lines the mock wrote, and how many were about the pending cap. */
  readonly log: { readonly lines: number; readonly capLines: readonly string[] };
  readonly seconds: number;
}

const gc = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

function memory(label: string, payments: number): MemoryFigure {
  gc();
  gc();
  const { rss, heapUsed } = process.memoryUsage();
  const mb = (n: number) => Math.round((n / 1024 / 1024) * 10) / 10;
  return { label, payments, rssMb: mb(rss), heapAfterGcMb: mb(heapUsed) };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

/** The dashboard's requests: its poll (health) and one default page of each list. */
const dashboardPaths = ['/__pck/health', '/__pck/payments', '/__pck/deliveries', '/__pck/requests'];

/** Runs the soak; see the module comment. */
export async function runSoak(options: SoakOptions): Promise<SoakFigures> {
  const started = performance.now();
  let receiverUp = false;
  // Lines are counted, not kept (a line per request would be the soak's own leak); the cap lines are kept.
  const log = { lines: 0, capLines: [] as string[] };
  const sink = (chunk: string) => {
    for (const line of chunk.split('\n')) {
      if (line === '') continue;
      log.lines += 1;
      if (line.includes('pending-cap')) log.capLines.push(line);
    }
  };
  const app: MockApp = buildNodeMockApp(
    { log: sink, seed: 'soak' },
    {
      webhookReceivers: [
        () => (receiverUp ? new Response(null, { status: 204 }) : Promise.reject(new Error('ECONNREFUSED'))),
      ],
    },
  );
  const { control } = app;
  const query = print(ProcessPaymentRequestDocument);
  const body = JSON.stringify({ query, variables: { input: payInput() } });
  let token = control.issueToken('test-client').token;
  const latencies: number[] = [];
  const answers = { largestBytes: 0, largestPath: '', slowestMs: 0, count: 0 };
  let accepted = 0;
  let refused = 0;
  let crashes = 0;

  async function pay(): Promise<void> {
    const t0 = performance.now();
    const res = await app.fetch(
      new Request('http://mock/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', [serviceHeaders.jwt]: token },
        body,
      }),
    );
    const text = await res.text();
    latencies.push(performance.now() - t0);
    if (res.status >= 500) crashes += 1;
    if (res.status === 200 && text.includes('"uuid"')) accepted += 1;
    else refused += 1;
  }

  async function dashboardPoll(): Promise<void> {
    for (const path of dashboardPaths) {
      const t0 = performance.now();
      const res = await app.fetch(new Request(`http://mock${path}`));
      const bytes = (await res.arrayBuffer()).byteLength;
      const ms = performance.now() - t0;
      if (res.status >= 500) crashes += 1;
      answers.count += 1;
      answers.slowestMs = Math.max(answers.slowestMs, ms);
      if (bytes > answers.largestBytes) Object.assign(answers, { largestBytes: bytes, largestPath: path });
    }
  }

  /** One batch of payments with the dashboard polling alongside, then the clock moves by `advanceMs`. */
  async function batch(count: number, advanceMs: number): Promise<void> {
    let left = count;
    const worker = async () => {
      while (left > 0) {
        left -= 1;
        await pay();
      }
    };
    await Promise.all([...Array.from({ length: options.concurrency }, worker), dashboardPoll()]);
    await advance(advanceMs);
  }

  /**
   * Moves the clock in steps: an attempt to the in-process receiver settles a turn of the event loop after the
   * advance that started it, and only then is its retry scheduled, so one big jump would make one attempt each.
   */
  async function advance(ms: number, steps = 8): Promise<void> {
    for (let i = 0; i < steps; i++) {
      control.advanceClock(ms / steps);
      await new Promise((r) => setImmediate(r));
    }
    // Tokens live 10 minutes of the mock's clock.
    token = control.issueToken('test-client').token;
  }

  await control.warmUp();
  const figures: MemoryFigure[] = [memory('before', 0)];
  const batches = Math.ceil(options.payments / options.batch);
  const step = Math.floor(options.outageMs / batches);
  for (let b = 0; b < batches; b++) {
    await batch(Math.min(options.batch, options.payments - b * options.batch), step);
    const made = Math.min((b + 1) * options.batch, options.payments);
    if (made >= options.checkpointAt && figures.length === 1) figures.push(memory('during (receiver down)', made));
    if (b % 10 === 9)
      options.progress?.(`[soak] ${made} payments, ${JSON.stringify(control.history().deliveries.byState)}`);
  }
  figures.push(memory('end of outage', options.payments));

  // The receiver is back: the retry schedule runs out, new payments are delivered, refused ones are redelivered.
  receiverUp = true;
  await advance(12 * 60 * 60 * 1000, 48);
  const afterBatches = Math.ceil(options.afterPayments / options.batch);
  for (let b = 0; b < afterBatches; b++)
    await batch(Math.min(options.batch, options.afterPayments - b * options.batch), 2_000);
  const page = control.deliveryPage({ state: 'failed', limit: 100 });
  let redelivered = 0;
  for (const d of page.items)
    if (d.reason === 'pending-cap') {
      control.redeliver(d.id);
      redelivered += 1;
    }
  await advance(60_000);
  figures.push(memory('after recovery', options.payments + options.afterPayments));

  const h = control.history().deliveries;
  sorted(latencies);
  await app.close();
  return {
    memory: figures,
    payments: { accepted, refused, crashes },
    deliveries: {
      created: h.kept + h.evicted,
      delivered: h.byState.delivered,
      failed: h.byState.failed,
      pending: h.pending,
      evicted: h.evicted,
      refusedAtCap: h.refused,
      redeliveredAfterOutage: redelivered,
    },
    controlAnswers: { ...answers, slowestMs: round(answers.slowestMs) },
    paymentLatency: {
      p50: round(percentile(latencies, 0.5)),
      p99: round(percentile(latencies, 0.99)),
      max: round(latencies.at(-1) ?? 0),
    },
    log: { lines: log.lines, capLines: log.capLines },
    seconds: round((performance.now() - started) / 1000),
  };
}

const round = (n: number) => Math.round(n * 10) / 10;
const sorted = (a: number[]) => a.sort((x, y) => x - y);
