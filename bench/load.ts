/**
 * The load generator: one autocannon run against one server on 127.0.0.1, in this process (which run.ts pins to
 * its own core), with a fixed duration or a fixed number of requests, a few keep-alive connections, no pipelining.
 *
 * @module
 */
import autocannon, { type AutocannonOptions, type AutocannonRequest } from 'autocannon';

/** What one load run measured. */
export interface LoadSample {
  /** Completed requests per second over the run. */
  readonly rps: number;
  /** Median latency, milliseconds. */
  readonly p50: number;
  /** 99th percentile latency, milliseconds. */
  readonly p99: number;
  /** Completed requests. */
  readonly requests: number;
  /** Answers outside 2xx. */
  readonly non2xx: number;
  /** Connection errors and timeouts. */
  readonly errors: number;
  /** Answers the workload's own checks rejected (GraphQL `errors`, a failed refresh), when it checks every answer. */
  readonly failures: number;
  /** Seconds the run took. */
  readonly seconds: number;
}

/** One load run. */
export interface LoadOptions {
  /**
   * Base URL of the server, `http://127.0.0.1:<port>`, or of several replicas of one server: autocannon then spreads
   * the connections over them in turn (connection i goes to the i-th URL modulo their number).
   */
  readonly url: string | readonly string[];
  /** The request sequence each connection loops over. */
  readonly requests: AutocannonRequest[];
  /** Concurrent keep-alive connections. */
  readonly connections: number;
  /** Run for this many seconds ... */
  readonly seconds?: number;
  /** ... or until this many requests completed. */
  readonly amount?: number;
  /** Counter of failed answers kept by the workload's onResponse hooks, read after the run. */
  readonly failures?: () => number;
}

/** Autocannon's sample tick, in milliseconds: how late a timed run may end. */
export const SAMPLE_MS = 50;

/** Autocannon's options for one run of {@link runLoad}. */
export function autocannonOptions(urls: readonly string[], options: LoadOptions): AutocannonOptions {
  return {
    url: urls.length === 1 ? urls[0]! : [...urls],
    connections: options.connections,
    ...(options.amount !== undefined ? { amount: options.amount } : { duration: options.seconds ?? 5 }),
    timeout: 10,
    // Autocannon ends a timed run at its next sample tick and keeps its connections sending until then, so with the
    // default 1 s tick a 0.2 s slice ran for a whole second; a 50 ms tick ends it within 50 ms of its time.
    sampleInt: SAMPLE_MS,
    requests: options.requests,
  };
}

/** Runs autocannon once and reduces its result to a {@link LoadSample}. */
export async function runLoad(options: LoadOptions): Promise<LoadSample> {
  const urls = typeof options.url === 'string' ? [options.url] : [...options.url];
  const remote = urls.find((url) => !url.startsWith('http://127.0.0.1:'));
  if (remote !== undefined || urls.length === 0) {
    throw new Error(`[payment-contract-kit] bench: load only goes to 127.0.0.1, not ${remote ?? 'nowhere'}.`);
  }
  const before = options.failures?.() ?? 0;
  const started = performance.now();
  const result = await autocannon(autocannonOptions(urls, options));
  // Wall time, not result.duration: autocannon reports whole seconds, too coarse for short fixed-amount runs.
  const seconds = (performance.now() - started) / 1000;
  return {
    rps: seconds > 0 ? result.requests.total / seconds : 0,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    failures: (options.failures?.() ?? 0) - before,
    seconds,
  };
}
