/**
 * Cold start: milliseconds from spawning a server to its first successful answer. For the mock that is a
 * generate-token followed by a fee list query (the first useful GraphQL answer); for reference (a) and Prism the
 * first token pair; for yoga and Apollo the first fee list answer. Runs alternate between servers.
 *
 * @module
 */
import { startServer } from './processes.ts';
import { isMockServer, type ServerId, serverCommand } from './servers.ts';
import { AMOUNT, generateToken, graphql, queries } from './workloads.ts';

const RETRY_FOR_MS = 30_000;

/** Milestones of one cold start, ms after spawn: address printed, first token (mock), first success. */
export interface ColdStartRun {
  readonly listeningMs: number;
  readonly tokenMs?: number;
  readonly totalMs: number;
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
  const proc = await startServer(await serverCommand(server), { cpus });
  try {
    const { tokenMs } = await firstSuccess(server, proc.url, proc.spawnedAt);
    const totalMs = performance.now() - proc.spawnedAt;
    return { listeningMs: proc.readyMs, ...(tokenMs !== undefined ? { tokenMs } : {}), totalMs };
  } finally {
    await proc.stop();
  }
}

/**
 * Cold starts of several servers, `runs[server]` times each, alternating servers run by run. A failed start is
 * logged and left out; a server without one successful start is absent from the result.
 */
export async function measureColdStarts(
  runs: Readonly<Partial<Record<ServerId, number>>>,
  cpus: string | undefined,
  log: (line: string) => void,
  startOnce: typeof coldStartOnce = coldStartOnce,
): Promise<Partial<Record<ServerId, ColdStartRun[]>>> {
  const out: Partial<Record<ServerId, ColdStartRun[]>> = {};
  const failures = new Map<ServerId, number>();
  const most = Math.max(0, ...Object.values(runs));
  for (let i = 0; i < most; i++) {
    for (const [server, count] of Object.entries(runs) as [ServerId, number][]) {
      // A server that failed twice (a peer that cannot start in time on a loaded host) is given up on; its
      // failures are logged and the others' figures stand, instead of one time-out losing the whole run.
      if (i >= count || (failures.get(server) ?? 0) >= 2) continue;
      let run: ColdStartRun;
      try {
        run = await startOnce(server, cpus);
      } catch (error) {
        failures.set(server, (failures.get(server) ?? 0) + 1);
        log(`cold start ${server} #${i + 1} failed: ${error instanceof Error ? error.message : String(error)}`);
        continue;
      }
      const list = out[server] ?? [];
      list.push(run);
      out[server] = list;
      log(
        `cold start ${server} #${i + 1}: ${run.totalMs.toFixed(0)} ms (listening at ${run.listeningMs.toFixed(0)} ms` +
          `${run.tokenMs !== undefined ? `, first token at ${run.tokenMs.toFixed(0)} ms` : ''})`,
      );
    }
  }
  return out;
}
