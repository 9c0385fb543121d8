/**
 * The pure half of the shared-store measurement: Redis `INFO commandstats` read as store round trips per
 * request, the paired ratios of the mock on Redis (one replica, two replicas) against the mock on memory in the same
 * round, and their table. No I/O here, so test/bench/shared-store-report.test.ts can pin it.
 *
 * @module
 */
import { formatPaired, type PairedRatio, pairedRatio } from './paired.ts';

/** The three ways the mock runs in this measurement. */
export type StoreSetup = 'memory' | 'redis-1' | 'redis-2';

/** How each setup is named in the table. */
export const storeSetupLabels: Readonly<Record<StoreSetup, string>> = {
  memory: 'mock, memory: (one process)',
  'redis-1': 'mock on redis:// (one replica)',
  'redis-2': 'two replicas on one redis:// (connections alternate)',
};

/** One round of one setup. */
export interface StoreRound {
  readonly rps: number;
  readonly requests: number;
  /** Answers that were not successes (non-2xx, socket errors, failed checks). */
  readonly failed: number;
  /** CPU seconds of the mock process(es) over the round. */
  readonly mockCpuSeconds: number | null;
  /** CPU seconds of redis-server over the round (0 for memory). */
  readonly redisCpuSeconds: number | null;
}

/**
 * The store's round trips per request, from the `calls` of `INFO commandstats` before and after a fixed number of
 * requests. Redis counts a command a Lua script calls as a call of its own, so only the commands the kit's client
 * sends by itself are round trips; what scripts and transactions run inside is kept apart, for the record.
 */
export interface RoundTrips {
  /** Requests sent between the two readings. */
  readonly requests: number;
  /** Scripts (`EVALSHA`/`EVAL`): the token check, the state's reads and writes, appends, claims. */
  readonly scripts: number;
  /** Transactions (`MULTI`..`EXEC`, written at once: one round trip each). */
  readonly transactions: number;
  /** Blocking reads of the watcher that tells a replica about other replicas' records (`XREAD`, off the request). */
  readonly watcherReads: number;
  /** Other commands the client sends by itself (`INCR`, `PING`, the compaction's upload...). */
  readonly other: number;
  /** The sum of the above: round trips per request. */
  readonly total: number;
  /** Commands run inside scripts and transactions, per request, for the record (not round trips). */
  readonly inside: Readonly<Record<string, number>>;
}

/** Parses `INFO commandstats` into calls per command (lower case). */
export function parseCommandStats(info: string): Map<string, number> {
  const calls = new Map<string, number>();
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm))
    calls.set(match[1]!.toLowerCase(), Number(match[2]));
  return calls;
}

// The commands the store's client sends by itself besides scripts, transactions and the watcher's reads (its
// counter, its connection's checks). Any other command was run by a script or inside a transaction (the rare
// compaction upload's RPUSHes are counted there too): Redis counts those calls, and they cost no round trip.
const sentAlone = new Set(['incr', 'ping', 'script|load', 'client|setname', 'select', 'quit']);
// Commands that read commandstats or reset it: the measurement's own.
const measurement = new Set(['info', 'config|resetstat', 'config|get']);

/** Round trips per request from two readings of `INFO commandstats` around `requests` requests. */
export function roundTripsPerRequest(
  before: ReadonlyMap<string, number>,
  after: ReadonlyMap<string, number>,
  requests: number,
): RoundTrips {
  const delta = (command: string) => Math.max(0, (after.get(command) ?? 0) - (before.get(command) ?? 0));
  const per = (n: number) => (requests > 0 ? n / requests : Number.NaN);
  const scripts = delta('evalsha') + delta('eval');
  const transactions = delta('exec');
  const watcher = delta('xread');
  const counted = new Set(['exec', 'evalsha', 'eval', 'xread', ...measurement]);
  let other = 0;
  const inside: Record<string, number> = {};
  for (const command of after.keys()) {
    const n = delta(command);
    if (n === 0 || counted.has(command)) continue;
    if (sentAlone.has(command)) other += n;
    else inside[command] = per(n);
  }
  return {
    requests,
    scripts: per(scripts),
    transactions: per(transactions),
    watcherReads: per(watcher),
    other: per(other),
    total: per(scripts + transactions + watcher + other),
    inside,
  };
}

/** One workload of the measurement: every setup's rounds, and the round trips of the Redis setups. */
export interface StoreWorkloadRun {
  readonly id: string;
  readonly title: string;
  readonly rounds: Readonly<Record<StoreSetup, readonly StoreRound[]>>;
  readonly roundTrips: Partial<Record<StoreSetup, RoundTrips>>;
  /** Why a setup's figures cannot be used (it did not start, or its answers failed), by setup. */
  readonly problems: Partial<Record<StoreSetup, string>>;
}

/** The whole measurement, or why it did not run. */
export interface SharedStoreResult {
  /** The line printed in place of the table when the measurement was skipped (no redis-server, no built CLI). */
  readonly skipped?: string;
  readonly workloads: readonly StoreWorkloadRun[];
}

/** The paired figures of one setup against memory in the same rounds. */
export interface StoreFigures {
  readonly rps: PairedRatio;
  /** CPU per request of the mock process(es). */
  readonly mockCpu: PairedRatio;
  /** CPU per request of the mock process(es) and redis-server together. */
  readonly totalCpu: PairedRatio;
}

const perRequest = (cpu: number | null, r: StoreRound) =>
  cpu === null || r.requests <= 0 ? undefined : cpu / r.requests;

/** A setup's req/s and CPU per request as median ratios to the memory mock's in the same round. */
export function storeFigures(run: StoreWorkloadRun, setup: StoreSetup): StoreFigures {
  const memory = run.rounds.memory;
  const rounds = run.rounds[setup];
  const memoryCpu = memory.map((r) => perRequest(r.mockCpuSeconds, r));
  const total = (r: StoreRound) =>
    r.mockCpuSeconds === null || r.redisCpuSeconds === null ? null : r.mockCpuSeconds + r.redisCpuSeconds;
  return {
    rps: pairedRatio(
      rounds.map((r) => r.rps),
      memory.map((r) => r.rps),
    ),
    mockCpu: pairedRatio(
      rounds.map((r) => perRequest(r.mockCpuSeconds, r)),
      memoryCpu,
    ),
    totalCpu: pairedRatio(
      rounds.map((r) => perRequest(total(r), r)),
      memoryCpu,
    ),
  };
}

/** Column headers of {@link sharedStoreRows}. */
export const sharedStoreHeaders = [
  'workload',
  'setup',
  'req/s',
  'req/s ÷ memory',
  'CPU/req ÷ memory (mock)',
  'CPU/req ÷ memory (mock + Redis)',
  'round trips/req',
  'failed',
] as const;

const fmtNumber = (n: number, digits: number) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
const medianOf = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The table rows: each workload's memory row (the reference), then its Redis rows as ratios to it. */
export function sharedStoreRows(result: SharedStoreResult): string[][] {
  return result.workloads.flatMap((run) =>
    (['memory', 'redis-1', 'redis-2'] as const).map((setup) => {
      const rounds = run.rounds[setup];
      const problem = run.problems[setup];
      const rps = fmtNumber(medianOf(rounds.map((r) => r.rps)), 0);
      const failed = String(rounds.reduce((n, r) => n + r.failed, 0));
      const trips = run.roundTrips[setup];
      const tripCell = setup === 'memory' ? '0' : trips ? fmtNumber(trips.total, 2) : '-';
      if (problem !== undefined) return [run.id, storeSetupLabels[setup], '-', '-', '-', '-', '-', problem];
      if (setup === 'memory')
        return [run.id, storeSetupLabels[setup], rps, '1 (reference)', '1', '1', tripCell, failed];
      const figures = storeFigures(run, setup);
      return [
        run.id,
        storeSetupLabels[setup],
        rps,
        formatPaired(figures.rps),
        formatPaired(figures.mockCpu),
        formatPaired(figures.totalCpu),
        tripCell,
        failed,
      ];
    }),
  );
}

/** Where each Redis setup's round trips per request come from, one line per workload and setup. */
export function roundTripLines(result: SharedStoreResult): string[] {
  return result.workloads.flatMap((run) =>
    (['redis-1', 'redis-2'] as const).flatMap((setup) => {
      const t = run.roundTrips[setup];
      if (!t) return [];
      const inside = Object.entries(t.inside)
        .map(([command, n]) => `${command} ${fmtNumber(n, 2)}`)
        .join(', ');
      return [
        `${run.id}, ${storeSetupLabels[setup]}: ${fmtNumber(t.total, 2)} per request over ${t.requests} requests = ` +
          `scripts ${fmtNumber(t.scripts, 2)} + transactions ${fmtNumber(t.transactions, 2)} + ` +
          `watcher XREAD ${fmtNumber(t.watcherReads, 2)} + other ${fmtNumber(t.other, 2)}` +
          `${inside ? ` (run inside scripts and transactions: ${inside})` : ''}`,
      ];
    }),
  );
}
