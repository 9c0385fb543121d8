/**
 * What a shared store costs: the built mock on `memory:`, on `--store redis://` (one replica) and as two
 * replicas on the same Redis, for generate-token, the fee list and the payment. The benchmark starts its own Debian
 * `redis-server` on a free port (no persistence, pinned to the server core with the mocks) and gives each workload
 * and setup a key prefix of its own, so no replica follows another setup's records.
 *
 * The two replicas get the load as a load balancer would spread it: autocannon sends connection i to replica i mod 2
 * (no balancer process, whose CPU would blur the comparison). Rounds alternate between the setups, as the main
 * workloads do, and every figure is a median of per-round ratios to the memory mock in the same round (decision
 * 0002). Afterwards a fixed number of requests is sent to each Redis setup between two readings of Redis's
 * `INFO commandstats`, which counts the store's round trips per request (shared-store-report.ts reads them).
 *
 * @module
 */
import { spawnSync } from 'node:child_process';
import type { Redis as RedisClient } from 'ioredis';
import { startRedisServer, type TestRedisServer } from '../test/support/redis-server.ts';
import { runLoad } from './load.ts';
import { pinPid, procCpuSeconds, type ServerProcess, startServer, waitIdle } from './processes.ts';
import { mockEntry, serverCommand } from './servers.ts';
import {
  parseCommandStats,
  type RoundTrips,
  roundTripsPerRequest,
  type SharedStoreResult,
  type StoreRound,
  type StoreSetup,
  type StoreWorkloadRun,
} from './shared-store-report.ts';
import { openSession, type Session, type Workload, workloads } from './workloads.ts';

/** The workloads measured on a shared store. */
export const sharedStoreWorkloads = ['generate-token', 'fees-list', 'process-payment'] as const;

/** How long and how hard. */
export interface SharedStoreOptions {
  readonly rounds: number;
  readonly seconds: number;
  readonly warmupSeconds: number;
  readonly connections: number;
  /** Requests sent between the two commandstats readings of each Redis setup. */
  readonly countRequests: number;
  /** Workload ids to run (those of {@link sharedStoreWorkloads} among them run). */
  readonly only?: readonly string[] | undefined;
  /** `taskset -c` list of the server core(s): the mocks and redis-server run there. */
  readonly cpus?: string | undefined;
  readonly log: (line: string) => void;
}

const setups: readonly StoreSetup[] = ['memory', 'redis-1', 'redis-2'];

/** Why the measurement cannot run on this machine, or undefined when it can. */
function cannotRun(): string | undefined {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0)
    return 'shared store: skipped, redis-server is not installed (apt-get install -y redis-server).';
  if (mockEntry() !== 'cli') return 'shared store: skipped, it needs the built CLI (npm run build).';
  return undefined;
}

/** Runs the measurement; never throws for a missing redis-server (the result says it was skipped). */
export async function measureSharedStore(options: SharedStoreOptions): Promise<SharedStoreResult> {
  const selected = workloads.filter(
    (w) =>
      (sharedStoreWorkloads as readonly string[]).includes(w.id) &&
      (options.only === undefined || options.only.includes(w.id)),
  );
  const skipped = selected.length === 0 ? 'shared store: skipped, no workload of it selected.' : cannotRun();
  if (skipped !== undefined) {
    options.log(skipped);
    return { skipped, workloads: [] };
  }
  const redis = await startRedisServer();
  const { Redis } = await import('ioredis');
  const client: RedisClient = new Redis(redis.url, { maxRetriesPerRequest: 1 });
  try {
    const redisPid = Number(/process_id:(\d+)/.exec(await client.info('server'))?.[1]);
    if (options.cpus !== undefined) pinPid(redisPid, options.cpus);
    options.log(`shared store: redis-server ${redisPid} on ${redis.url}`);
    const runs: StoreWorkloadRun[] = [];
    for (const workload of selected) runs.push(await measureWorkload(workload, redis, redisPid, client, options));
    return { workloads: runs };
  } finally {
    client.disconnect();
    await redis.close();
  }
}

/** The mock processes of one setup, started on the workload's own prefix. */
async function startSetup(
  setup: StoreSetup,
  redis: TestRedisServer,
  workloadId: string,
  cpus: string | undefined,
): Promise<ServerProcess[]> {
  const base = await serverCommand('mock', { steady: true });
  const store = `${redis.url}?prefix=bench-${workloadId}-${setup}:`;
  const args = setup === 'memory' ? base.args : [...base.args, '--store', store];
  const count = setup === 'redis-2' ? 2 : 1;
  const procs: ServerProcess[] = [];
  try {
    for (let i = 0; i < count; i++) procs.push(await startServer({ ...base, args }, { cpus }));
  } catch (error) {
    await Promise.all(procs.map((p) => p.stop()));
    throw error;
  }
  return procs;
}

const sumCpu = (procs: readonly ServerProcess[]): number | null => {
  let sum = 0;
  for (const proc of procs) {
    const cpu = proc.cpuSeconds();
    if (cpu === null) return null;
    sum += cpu;
  }
  return sum;
};
const minus = (after: number | null, before: number | null) =>
  after === null || before === null ? null : after - before;

/** One workload: start the three setups, check and warm each, rotate rounds between them, then count round trips. */
async function measureWorkload(
  workload: Workload,
  redis: TestRedisServer,
  redisPid: number,
  client: RedisClient,
  options: SharedStoreOptions,
): Promise<StoreWorkloadRun> {
  const procs = new Map<StoreSetup, ServerProcess[]>();
  const rounds = Object.fromEntries(setups.map((s) => [s, [] as StoreRound[]])) as Record<StoreSetup, StoreRound[]>;
  const problems: Partial<Record<StoreSetup, string>> = {};
  const roundTrips: Partial<Record<StoreSetup, RoundTrips>> = {};
  const fail = (setup: StoreSetup, what: string, error: unknown) => {
    problems[setup] = `${what}: ${String((error as Error).message ?? error)
      .split('\n')[0]!
      .slice(0, 160)}`;
    options.log(`shared store ${workload.id} ${setup}: ${problems[setup]}`);
  };
  try {
    // The setups start side by side (cold starts on a loaded host take seconds each); the rounds come after.
    await Promise.all(
      setups.map(async (setup) => {
        try {
          procs.set(setup, await startSetup(setup, redis, workload.id, options.cpus));
        } catch (error) {
          fail(setup, 'did not start', error);
        }
      }),
    );
    const live = () => setups.filter((s) => procs.has(s) && problems[s] === undefined);
    const load = async (setup: StoreSetup, run: { seconds?: number; amount?: number }, given?: Session) => {
      const servers = procs.get(setup)!;
      const session = given ?? (await openSession('mock', servers[0]!.url));
      const { requests, failures } = workload.load('mock', session);
      return runLoad({
        url: servers.map((p) => p.url),
        requests,
        connections: options.connections,
        ...run,
        ...(failures ? { failures } : {}),
      });
    };
    const check = async (setup: StoreSetup, when: string) => {
      const servers = procs.get(setup)!;
      try {
        // A session from the first replica, checked on every replica: a token of one is valid on the other.
        const session = await openSession('mock', servers[0]!.url);
        for (const proc of servers) await workload.check('mock', proc.url, session);
      } catch (error) {
        fail(setup, `answer check ${when} failed`, error);
      }
    };
    const idle = async (setup: StoreSetup) => {
      for (const proc of procs.get(setup)!) await waitIdle(proc);
    };
    for (const setup of live()) await check(setup, 'before the rounds');
    for (const setup of live()) {
      await load(setup, { seconds: options.warmupSeconds });
      await idle(setup);
    }
    for (let round = 0; round < options.rounds; round++) {
      const order = live().map((_, i, all) => all[(i + round) % all.length]!);
      for (const setup of order) {
        const servers = procs.get(setup)!;
        const cpuBefore = sumCpu(servers);
        const redisBefore = setup === 'memory' ? 0 : procCpuSeconds(redisPid);
        const sample = await load(setup, { seconds: options.seconds });
        const mockCpuSeconds = minus(sumCpu(servers), cpuBefore);
        const redisCpuSeconds = setup === 'memory' ? 0 : minus(procCpuSeconds(redisPid), redisBefore);
        const failed = sample.non2xx + sample.errors + sample.failures;
        rounds[setup].push({ rps: sample.rps, requests: sample.requests, failed, mockCpuSeconds, redisCpuSeconds });
        await idle(setup);
        options.log(
          `shared store ${workload.id} ${setup} round ${round + 1}: ${sample.rps.toFixed(0)} req/s` +
            (failed > 0 ? `, ${failed} failed answers` : ''),
        );
      }
    }
    for (const setup of live()) await check(setup, 'after the rounds');
    for (const setup of live()) {
      if (setup === 'memory') continue;
      // The session is opened before the first reading: its token and fee requests are not the workload's.
      const session = await openSession('mock', procs.get(setup)![0]!.url);
      await idle(setup);
      roundTrips[setup] = await countRoundTrips(client, options.countRequests, () =>
        load(setup, { amount: options.countRequests }, session).then(async (sample) => {
          // Settlements (and their claims) fall due a second after a payment: count them with the payment.
          await new Promise((resolve) => setTimeout(resolve, 1_200));
          await idle(setup);
          return sample.requests;
        }),
      );
    }
  } finally {
    await Promise.all([...procs.values()].flat().map((p) => p.stop()));
  }
  return { id: workload.id, title: workload.title, rounds, roundTrips, problems };
}

/** Reads `INFO commandstats` before and after `send` and turns the difference into round trips per request. */
async function countRoundTrips(
  client: RedisClient,
  requests: number,
  send: () => Promise<number>,
): Promise<RoundTrips> {
  const before = parseCommandStats(await client.info('commandstats'));
  const answered = await send();
  const after = parseCommandStats(await client.info('commandstats'));
  return roundTripsPerRequest(before, after, answered > 0 ? answered : requests);
}
