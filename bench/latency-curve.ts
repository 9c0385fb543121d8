/**
 * The payment latency curve: one mock process answering valid processPaymentRequest calls at 1, 10 and 100
 * connections in turn, so a team load-testing its own checkout against the mock knows the latency it adds at each
 * concurrency. Every answer is checked.
 *
 * @module
 */
import { runLoad } from './load.ts';
import { startServer, waitIdle } from './processes.ts';
import { serverCommand } from './servers.ts';
import { checkedPaymentRequest, openSession } from './workloads.ts';

/** One point of the curve. */
export interface LatencyPoint {
  readonly connections: number;
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  /** Answers that were not a successful payment (non-2xx, socket errors, GraphQL errors). */
  readonly failures: number;
}

/** Options of {@link measureLatencyCurve}. */
export interface LatencyCurveOptions {
  readonly connections: readonly number[];
  /** Seconds of load at each connection count. */
  readonly seconds: number;
  readonly cpus: string | undefined;
  readonly log: (line: string) => void;
}

/** Runs the curve on a fresh mock process (the built CLI, or startMockServer when the CLI is not built). */
export async function measureLatencyCurve(options: LatencyCurveOptions): Promise<LatencyPoint[]> {
  const proc = await startServer(await serverCommand('mock', { steady: true }), { cpus: options.cpus });
  try {
    const points: LatencyPoint[] = [];
    for (const connections of options.connections) {
      const session = await openSession('mock', proc.url);
      let failed = 0;
      const sample = await runLoad({
        url: proc.url,
        connections,
        seconds: options.seconds,
        requests: [checkedPaymentRequest(session, () => failed++)],
        failures: () => failed,
      });
      const point = {
        connections,
        rps: sample.rps,
        p50: sample.p50,
        p99: sample.p99,
        failures: sample.failures + sample.errors + sample.non2xx,
      };
      points.push(point);
      options.log(
        `latency curve: ${connections} connection(s): ${point.rps.toFixed(0)} req/s, p50 ${point.p50} ms, p99 ${point.p99} ms`,
      );
      await waitIdle(proc);
    }
    return points;
  } finally {
    await proc.stop();
  }
}
