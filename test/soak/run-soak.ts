/**
 * The soak of issue 27, against the mock's own process: the CLI mock started as a child (`--port 0`, real HTTP,
 * webhooks to a port that refuses connections), driven on its virtual clock so a simulated day takes minutes.
 * Payments arrive in batches spread over the outage; between batches the dashboard's requests run (health and one
 * page of each list) and the clock moves on (settlements and retries run). Then the receiver comes up on its port,
 * the clock runs out the retry schedule, more payments are made and delivered, and a page of refused deliveries is
 * redelivered. Memory is the RSS of the mock's process as the system counts it, so the figure is the product's,
 * not the test runner's. It returns every figure it measured; the test asserts the deterministic ones and the
 * issue's RSS bound, and `npm run soak` prints a longer run.
 *
 * @module
 */
import { print } from 'graphql';
import { ProcessPaymentRequestDocument } from '../../src/index.ts';
import { serviceHeaders } from '../../src/spec-names.ts';
import { credentials, payInput, tokenPaths } from '../mock/helpers.ts';
import { downReceiver, type SoakMock, startSoakMock } from './soak-process.ts';

/** Options of {@link runSoak}. */
export interface SoakOptions {
  /** Payments made while the receiver is down. */
  readonly payments: number;
  /** Simulated length of the outage, in ms of the mock's clock. */
  readonly outageMs: number;
  /** Payments per batch (the clock moves and the dashboard polls between batches). */
  readonly batch: number;
  /** Payments in flight at once within a batch (and the client's sockets). */
  readonly concurrency: number;
  /** Payments made after the receiver is back. */
  readonly afterPayments: number;
  /** Payment counts at which a memory figure is taken while the receiver is down (the 30,000). */
  readonly checkpoints: readonly number[];
  /** Progress lines (the longer run prints them). */
  readonly progress?: (line: string) => void;
}

/** A memory reading of the mock's process, in MB: RSS now and the highest RSS so far. */
export interface MemoryFigure {
  readonly label: string;
  readonly payments: number;
  readonly rssMb: number;
  readonly peakRssMb: number;
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
    /** POSTs the receiver answered once it was up. */
    readonly received: number;
  };
  /** Largest answer of the dashboard's requests (default pages), bytes, and the slowest, ms. */
  readonly controlAnswers: {
    readonly largestBytes: number;
    readonly largestPath: string;
    readonly slowestMs: number;
    readonly count: number;
  };
  /** Payment latency (ms, over HTTP from this process) while the dashboard's requests run. */
  readonly paymentLatency: { readonly p50: number; readonly p99: number; readonly max: number };
  /** Log lines the mock wrote, and those about the pending cap. */
  readonly log: { readonly lines: number; readonly capLines: readonly string[] };
  readonly seconds: number;
}

/** The history counters of `GET /__pck/health` the soak reads. */
interface DeliveryCounts {
  readonly byState: Readonly<Record<string, number>>;
  readonly kept: number;
  readonly pending: number;
  readonly evicted: number;
  readonly refused: number;
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
const round = (n: number) => Math.round(n * 10) / 10;

/** The dashboard's requests: its poll (health) and one default page of each list. */
const dashboardPaths = ['/__pck/health', '/__pck/payments', '/__pck/deliveries', '/__pck/requests'];

/** Runs the soak; see the module comment. */
export async function runSoak(options: SoakOptions): Promise<SoakFigures> {
  const started = performance.now();
  const receiver = await downReceiver();
  const mock = await startSoakMock(['--webhook-url', receiver.url, '--seed', 'soak'], options.concurrency + 1);
  try {
    const driver = createDriver(mock, options);
    const figures = await driver.run(receiver.up);
    return {
      ...figures,
      deliveries: { ...figures.deliveries, received: receiver.received() },
      seconds: round((performance.now() - started) / 1000),
    };
  } finally {
    await mock.stop();
    await receiver.close();
  }
}

/** The requests of the soak and what they measured. */
function createDriver(mock: SoakMock, options: SoakOptions) {
  const body = JSON.stringify({ query: print(ProcessPaymentRequestDocument), variables: { input: payInput() } });
  const latencies: number[] = [];
  const answers = { largestBytes: 0, largestPath: '', slowestMs: 0, count: 0 };
  const payments = { accepted: 0, refused: 0, crashes: 0 };
  let token = '';
  const json = async (method: string, path: string, value?: unknown) => {
    const answer = await mock.call(method, path, {}, value === undefined ? undefined : JSON.stringify(value));
    if (answer.status !== 200)
      throw new Error(`${method} ${path} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    return JSON.parse(answer.text);
  };
  const counts = async (): Promise<DeliveryCounts> => (await json('GET', '/__pck/health')).history.deliveries;

  async function newToken(): Promise<void> {
    const answer = await mock.call('POST', tokenPaths.generate, credentials);
    token = JSON.parse(answer.text).data.token;
  }

  async function pay(): Promise<void> {
    const t0 = performance.now();
    const answer = await mock.call('POST', '/graphql', { [serviceHeaders.jwt]: token }, body);
    latencies.push(performance.now() - t0);
    if (answer.status >= 500) payments.crashes += 1;
    if (answer.status === 200 && answer.text.includes('"uuid"')) payments.accepted += 1;
    else payments.refused += 1;
  }

  async function dashboardPoll(): Promise<void> {
    for (const path of dashboardPaths) {
      const t0 = performance.now();
      const answer = await mock.call('GET', path);
      const ms = performance.now() - t0;
      const bytes = Buffer.byteLength(answer.text);
      if (answer.status >= 500) payments.crashes += 1;
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
   * Moves the clock in steps: a retry is scheduled only once its attempt failed, which takes a connection attempt
   * in real time, so one big jump would make one attempt per delivery. Each step waits for the attempts it started
   * to end (the receiver refuses or answers at once, never holds one). Tokens live 10 minutes of the mock's clock,
   * so a fresh one follows.
   */
  async function advance(ms: number, steps = 8): Promise<void> {
    for (let i = 0; i < steps; i++) {
      await json('POST', '/__pck/clock/advance', { ms: Math.floor(ms / steps) });
      await attemptsEnded();
    }
    await newToken();
  }

  /**
   * Resolves once no delivery is sending. Each check is one request the mock answers from its own state, so the
   * wait ends when the attempts have ended, however long a loaded machine takes; no timer is involved.
   */
  async function attemptsEnded(): Promise<void> {
    let sending = (await counts()).byState.sending ?? 0;
    while (sending > 0) sending = (await counts()).byState.sending ?? 0;
  }

  /** Moves the clock a minute at a time until nothing is pending (bounded: the test then reports what is left). */
  async function drain(): Promise<void> {
    for (let i = 0; i < 600 && (await counts()).pending > 0; i++) await advance(60_000, 1);
  }

  /**
   * Up to 100 deliveries refused at the cap and still kept, redelivered once the receiver is back; how many. The
   * failed ones are read page by page (bounded by the cap on finished deliveries): later failures may have evicted
   * every refused one, which then counts 0.
   */
  async function redeliverRefused(): Promise<number> {
    let redelivered = 0;
    let before: number | null | undefined;
    while (redelivered < 100 && before !== null) {
      const cursor = before === undefined ? '' : `&before=${before}`;
      const page = await json('GET', `/__pck/deliveries?state=failed&limit=500${cursor}`);
      for (const d of page.deliveries as { id: string; reason?: string }[])
        if (d.reason === 'pending-cap' && redelivered < 100) {
          await json('POST', '/__pck/deliveries/redeliver', { id: d.id });
          redelivered += 1;
        }
      before = page.next;
    }
    return redelivered;
  }

  const memory: MemoryFigure[] = [];
  const measure = (label: string, made: number) => {
    const { nowMb, peakMb } = mock.rss();
    memory.push({ label, payments: made, rssMb: nowMb, peakRssMb: peakMb });
  };

  return {
    async run(receiverUp: () => Promise<void>) {
      await newToken();
      measure('before', 0);
      const batches = Math.ceil(options.payments / options.batch);
      const step = Math.floor(options.outageMs / batches);
      for (let b = 0; b < batches; b++) {
        await batch(Math.min(options.batch, options.payments - b * options.batch), step);
        const made = Math.min((b + 1) * options.batch, options.payments);
        if (options.checkpoints.includes(made)) measure('receiver down', made);
        if (b % 10 === 9) options.progress?.(`[soak] ${made} payments, ${JSON.stringify(mock.rss())} MB`);
      }
      if (!options.checkpoints.includes(options.payments)) measure('end of outage', options.payments);

      await receiverUp();
      await advance(12 * 60 * 60 * 1000, 48);
      const afterBatches = Math.ceil(options.afterPayments / options.batch);
      for (let b = 0; b < afterBatches; b++)
        await batch(Math.min(options.batch, options.afterPayments - b * options.batch), 2_000);
      const redelivered = await redeliverRefused();
      await drain();
      measure('after recovery', options.payments + options.afterPayments);

      const h = await counts();
      latencies.sort((x, y) => x - y);
      if (mock.exited()) payments.crashes += 1;
      return {
        memory,
        payments,
        deliveries: {
          created: h.kept + h.evicted,
          delivered: h.byState.delivered ?? 0,
          failed: h.byState.failed ?? 0,
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
        log: { lines: mock.log.lines, capLines: mock.log.capLines },
      };
    },
  };
}
