/**
 * Cold start: milliseconds from spawning a server to its first successful answer. For the mock that is a
 * generate-token followed by a fee list query (the first useful GraphQL answer); for reference (a) and Prism the
 * first token pair; for yoga and Apollo the first fee list answer. Runs alternate between servers, pass by pass.
 *
 * @module
 */
import { coresBusySeconds, startServer } from './processes.ts';
import { roundOrder } from './round-order.ts';
import { isMockServer, type ServerId, serverCommand } from './servers.ts';
import { AMOUNT, generateToken, graphql, queries } from './workloads.ts';

const RETRY_FOR_MS = 30_000;

/** Milestones of one cold start, ms after spawn: address printed, first token (mock), first success. */
export interface ColdStartRun {
  readonly listeningMs: number;
  readonly tokenMs?: number;
  readonly totalMs: number;
  /** CPU other processes took on the server core during the start, as a share of `totalMs`; null where unknown. */
  readonly otherCpuShare?: number | null;
}

async function firstSuccess(server: ServerId, url: string, spawnedAt: number): Promise<{ tokenMs?: number }> {
  const until = performance.now() + RETRY_FOR_MS;
  for (;;) {
    try {
      if (isMockServer(server)) {
        const { token } = await generateToken(url);
        const tokenMs = performance.now() - spawnedAt;
        await graphql(url, token, queries.fees, { amount: AMOUNT });
        return { tokenMs };
      } else if (server === 'rest-token' || server === 'prism') {
        await generateToken(url);
      } else {
        await graphql(url, 'reference-token', queries.fees, { amount: AMOUNT });
      }
      return {};
    } catch (error) {
      // A server may print its address a moment before it answers; retry connection failures only.
      if (performance.now() > until || !(error instanceof TypeError)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }
}

/** One cold start of one server. */
export async function coldStartOnce(server: ServerId, cpus: string | undefined): Promise<ColdStartRun> {
  const coreBefore = cpus === undefined ? null : coresBusySeconds(cpus);
  const proc = await startServer(await serverCommand(server), { cpus });
  try {
    const { tokenMs } = await firstSuccess(server, proc.url, proc.spawnedAt);
    const totalMs = performance.now() - proc.spawnedAt;
    const coreAfter = cpus === undefined ? null : coresBusySeconds(cpus);
    const own = proc.cpuSeconds();
    // The core's busy time over the start, less the server's own CPU: what other processes took (ticks: clamp at 0).
    const otherCpuShare =
      coreBefore === null || coreAfter === null || own === null
        ? null
        : Math.max(0, coreAfter - coreBefore - own) / (totalMs / 1000);
    return { listeningMs: proc.readyMs, ...(tokenMs !== undefined ? { tokenMs } : {}), totalMs, otherCpuShare };
  } finally {
    await proc.stop();
  }
}

/**
 * Cold starts of several servers, `runs[server]` times each, taken a pass at a time so the benchmark can spread them
 * over its whole run (one pass after each round of the workloads). Within a pass the servers follow the balanced
 * order of that pass ({@link roundOrder}). A failed start is logged and left out; a server that failed twice is given
 * up on, and a server without one successful start is absent from the result.
 */
export class ColdStarts {
  readonly #runs: Readonly<Partial<Record<ServerId, number>>>;
  readonly #out: Partial<Record<ServerId, ColdStartRun[]>> = {};
  readonly #failures = new Map<ServerId, number>();
  readonly #cpus: string | undefined;
  readonly #log: (line: string) => void;
  readonly #startOnce: typeof coldStartOnce;

  /** `startOnce` is the cold start of one server (tests pass their own). */
  constructor(
    runs: Readonly<Partial<Record<ServerId, number>>>,
    cpus: string | undefined,
    log: (line: string) => void,
    startOnce: typeof coldStartOnce = coldStartOnce,
  ) {
    this.#runs = runs;
    this.#cpus = cpus;
    this.#log = log;
    this.#startOnce = startOnce;
  }

  /** Passes needed for every server's runs: the largest run count. */
  get passes(): number {
    return Math.max(0, ...Object.values(this.#runs).map((n) => n ?? 0));
  }

  /** Pass `i`: one cold start of every server that has a run `i` left. */
  async pass(i: number): Promise<void> {
    const due = (Object.entries(this.#runs) as [ServerId, number][])
      .filter(([server, count]) => i < count && (this.#failures.get(server) ?? 0) < 2)
      .map(([server]) => server);
    for (const server of roundOrder(due, i)) {
      // A server that failed twice (a peer that cannot start in time on a loaded host) is given up on; its
      // failures are logged and the others' figures stand, instead of one time-out losing the whole run.
      let run: ColdStartRun;
      try {
        run = await this.#startOnce(server, this.#cpus);
      } catch (error) {
        this.#failures.set(server, (this.#failures.get(server) ?? 0) + 1);
        this.#log(`cold start ${server} #${i + 1} failed: ${error instanceof Error ? error.message : String(error)}`);
        continue;
      }
      const list = this.#out[server] ?? [];
      list.push(run);
      this.#out[server] = list;
      this.#log(
        `cold start ${server} #${i + 1}: ${run.totalMs.toFixed(0)} ms (listening at ${run.listeningMs.toFixed(0)} ms` +
          `${run.tokenMs !== undefined ? `, first token at ${run.tokenMs.toFixed(0)} ms` : ''})`,
      );
    }
  }

  /** The runs so far, by server. */
  result(): Partial<Record<ServerId, ColdStartRun[]>> {
    return this.#out;
  }
}
