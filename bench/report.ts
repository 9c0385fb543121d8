/**
 * The pure half of the benchmark: reduce rounds to medians, turn them into named metrics, evaluate the targets as
 * ratios within one run, and render the tables (plain text for the terminal, Markdown for the README).
 * No I/O here, so test/bench/report.test.ts can pin all of it.
 *
 * @module
 */

import type { InProcessResult } from './in-process.ts';
import type { LatencyPoint } from './latency-curve.ts';
import type { LoadSample } from './load.ts';
import {
  CONTENDED_SHARE,
  formatPaired,
  median,
  type PairedRatio,
  pairedRatio,
  REFERENCE_OUTLIER_FACTOR,
} from './paired.ts';
import { roundTripLines, type SharedStoreResult, sharedStoreHeaders, sharedStoreRows } from './shared-store-report.ts';

export { median };

/** One round of load against one server: the counters of load.ts's LoadSample (a type-only import; no I/O here). */
export interface RoundResult
  extends Pick<LoadSample, 'rps' | 'p50' | 'p99' | 'requests' | 'non2xx' | 'errors' | 'failures'> {
  /** CPU the server process used during the round, in cores (1 = one core busy all the time); null if unknown. */
  readonly serverCpu?: number | null;
  /**
   * CPU that other processes took on the server core during the round, as a share of the round (0.1 = a tenth of
   * it): the core's busy time less the server's own; null or absent if unknown (no pinning, no /proc/stat).
   */
  readonly otherCpu?: number | null;
  /**
   * For the proxy in front of the mock: the CPU of the proxy process alone during the round, in cores (`serverCpu`
   * is the pair's, proxy and mock together); absent for other servers.
   */
  readonly proxyCpu?: number | null;
}

/** All rounds of one server in one workload. */
export interface ServerRun {
  readonly server: string;
  readonly label: string;
  /** What this server was sent when it is not the workload itself. */
  readonly note?: string;
  readonly rounds: readonly RoundResult[];
  /** Peak RSS (VmHWM) of the server process after its last round, KiB; null when /proc was not readable. */
  readonly peakRssKb: number | null;
  /** Why the server's numbers cannot be used (its answers failed a check), if they cannot. */
  readonly problem?: string;
}

/** One workload: the mock first, then its references. */
export interface WorkloadRun {
  readonly id: string;
  readonly title: string;
  readonly runs: readonly ServerRun[];
}

/** Medians over the rounds of one server. */
export interface RunSummary {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  /** Share of answers that were not successes (non-2xx, socket errors, failed checks). */
  readonly failureRate: number;
  /** Median CPU of the server process during the rounds, in cores; NaN when unknown. */
  readonly serverCpu: number;
  /**
   * Median requests per CPU-second of the server process: what it would serve with one core all to itself. Robust
   * when the load generator, not the server, is the bottleneck, or when other processes steal the server's core.
   */
  readonly perCpuSecond: number;
}

/** Server CPU under which a run is bound by the load generator (or by a busy machine), not by the server. */
export const SATURATED_CPU = 0.85;

/** Share of failed answers above which a server's numbers are not used. */
export const MAX_FAILURE_RATE = 0.001;

/** Medians of req/s and latencies over the rounds, and the failure rate over all of them. */
export function summarizeRun(run: Pick<ServerRun, 'rounds'>): RunSummary {
  const total = run.rounds.reduce((n, r) => n + r.requests, 0);
  const failed = run.rounds.reduce((n, r) => n + r.non2xx + r.errors + r.failures, 0);
  return {
    rps: median(run.rounds.map((r) => r.rps)),
    p50: median(run.rounds.map((r) => r.p50)),
    p99: median(run.rounds.map((r) => r.p99)),
    failureRate: total > 0 ? failed / total : failed > 0 ? 1 : 0,
    serverCpu: median(run.rounds.flatMap((r) => (typeof r.serverCpu === 'number' ? [r.serverCpu] : []))),
    perCpuSecond: median(
      run.rounds.flatMap((r) => (typeof r.serverCpu === 'number' && r.serverCpu > 0 ? [r.rps / r.serverCpu] : [])),
    ),
  };
}

/** Whether a run's numbers can be compared: no problem recorded, rounds run, failures under the threshold. */
export function usable(run: ServerRun): boolean {
  if (run.problem !== undefined || run.rounds.length === 0) return false;
  return summarizeRun(run).failureRate <= MAX_FAILURE_RATE;
}

/** Cold starts by server id: milliseconds from spawn to the first successful answer, and to milestones before it. */
export type ColdStart = Readonly<
  Record<
    string,
    {
      readonly label: string;
      readonly runsMs: readonly number[];
      /** Spawn to the address line. */
      readonly listeningMs?: readonly number[];
      /** Spawn to the first token pair, when the first success needs a token first (the mock). */
      readonly tokenMs?: readonly number[];
      /** Each run's CPU taken by other processes on the server core, as a share of the run (see `CONTENDED_SHARE`). */
      readonly otherCpuShares?: readonly (number | null)[];
    }
  >
>;

/** One point of the memory measurement. */
export interface MemoryCheckpoint {
  /** Payments accepted so far. */
  readonly payments: number;
  readonly rssKb: number | null;
  readonly peakRssKb: number | null;
  /** Heap used after two full garbage collections, KiB, when the probe answered. */
  readonly heapAfterGcKb?: number | null;
  /** Payments the mock reports it keeps (control API), when it reports them. */
  readonly storedPayments: number | null;
}

/** The "memory after N processed payments" measurement. */
export interface MemoryResult {
  readonly target: number;
  readonly checkpoints: readonly MemoryCheckpoint[];
  /** Payments answered with an error (they do not count as processed). */
  readonly failures: number;
  readonly problem?: string;
}

/** Named numbers of one run; targets refer to them by name. */
export type Metrics = Readonly<Record<string, number>>;

/** The metric name of a server's median req/s in a workload. */
export const rpsKey = (workload: string, server: string) => `rps:${workload}:${server}`;
/** The metric name of a server's median requests per CPU-second in a workload. */
export const perCpuKey = (workload: string, server: string) => `cpu:${workload}:${server}`;
/** The metric name of a server's median cold start. */
export const coldKey = (server: string) => `cold:${server}`;
/** The paired figure of a server's CPU per request ÷ the reference's, round by round, in a workload. */
export const cpuVsRefKey = (workload: string, server: string) => `cpu-vs-ref:${workload}:${server}`;
/** The paired figure of a server's req/s ÷ the reference's, round by round, in a workload. */
export const rpsVsRefKey = (workload: string, server: string) => `rps-vs-ref:${workload}:${server}`;
/** The paired figure of the mock's CPU per request ÷ another server's (a peer, or the baseline build). */
export const mockCpuVsKey = (workload: string, server: string) => `mock-cpu-vs:${workload}:${server}`;
/** The paired figure of the mock's req/s ÷ another server's. */
export const mockRpsVsKey = (workload: string, server: string) => `mock-rps-vs:${workload}:${server}`;
/** The paired figure of the proxy's req/s ÷ the mock's (the proxy in front of a mock of the same build). */
export const proxyVsMockKey = (workload: string) => `proxy-vs-mock:${workload}`;
/** The paired figure of the pair's (proxy and its mock) CPU per request ÷ the mock's alone, round by round. */
export const proxyPairCpuKey = (workload: string) => `proxy-pair-cpu-vs-mock:${workload}`;
/** The paired figure of the proxy process's own CPU per request ÷ the mock's alone, round by round. */
export const proxyOwnCpuKey = (workload: string) => `proxy-own-cpu-vs-mock:${workload}`;
/**
 * The paired figure of the proxy process's own CPU per request ÷ the bare passthrough's (server `proxy-floor`, the
 * same mock behind it), round by round: how far the checks and the byte-for-byte care sit above forwarding alone.
 */
export const proxyOwnCpuVsFloorKey = (workload: string) => `proxy-own-cpu-vs-floor:${workload}`;
/** The paired figure of the bare passthrough's own CPU per request ÷ the mock's alone: any Node proxy's floor. */
export const floorOwnCpuKey = (workload: string) => `proxy-floor-own-cpu-vs-mock:${workload}`;
/** The paired figure of a server's cold start ÷ the reference's, run by run. */
export const coldVsRefKey = (server: string) => `cold-vs-ref:${server}`;

/**
 * The reference every figure is paired with: (a), bare node:http answering one fixed token JSON, the most any server
 * that answers over node:http can do on the host (decision 0002). It runs in every workload's rounds.
 */
export const REFERENCE = 'rest-token';

/** Server CPU-seconds per answered request in one round; undefined when the CPU was not read or nothing answered. */
export function cpuPerRequest(round: RoundResult): number | undefined {
  return typeof round.serverCpu === 'number' && round.serverCpu > 0 && round.rps > 0
    ? round.serverCpu / round.rps
    : undefined;
}

/** The proxy process's own CPU-seconds per answered request in one round (the pair's CPU is `serverCpu`). */
export function proxyCpuPerRequest(round: RoundResult): number | undefined {
  return typeof round.proxyCpu === 'number' && round.proxyCpu > 0 && round.rps > 0
    ? round.proxyCpu / round.rps
    : undefined;
}

/**
 * Every paired figure of a run: per workload, each usable server's CPU per request and req/s against the reference in
 * the same round, and the mock's against every other server (peers as context, the baseline build as the judge of a
 * change); cold starts run by run against the reference's.
 */
export function pairedFigures(runs: readonly WorkloadRun[], cold: ColdStart): Record<string, PairedRatio> {
  const out: Record<string, PairedRatio> = {};
  for (const workload of runs) {
    const usableRuns = workload.runs.filter(usable);
    const byServer = new Map(usableRuns.map((r) => [r.server, r]));
    const cpu = (run: ServerRun) => run.rounds.map(cpuPerRequest);
    const rps = (run: ServerRun) => run.rounds.map((r) => r.rps);
    // A pair is contended when other processes took the core during either of its two rounds (paired.ts).
    const taken = (run: ServerRun, i: number) => (run.rounds[i]?.otherCpu ?? 0) > CONTENDED_SHARE;
    const contended = (a: ServerRun, b: ServerRun) =>
      Array.from({ length: Math.max(a.rounds.length, b.rounds.length) }, (_, i) => taken(a, i) || taken(b, i));
    // `ofB` when the two sides are read differently (a proxy's own CPU against the mock's whole CPU).
    const paired = (
      a: ServerRun,
      b: ServerRun,
      of: (run: ServerRun) => (number | undefined)[],
      ofB: (run: ServerRun) => (number | undefined)[] = of,
    ) => pairedRatio(of(a), ofB(b), REFERENCE_OUTLIER_FACTOR, contended(a, b));
    const proxyOwn = (run: ServerRun) => run.rounds.map(proxyCpuPerRequest);
    const ref = byServer.get(REFERENCE);
    const mock = byServer.get('mock');
    const proxy = byServer.get('proxy');
    if (proxy && mock) {
      out[proxyVsMockKey(workload.id)] = paired(proxy, mock, rps);
      out[proxyPairCpuKey(workload.id)] = paired(proxy, mock, cpu);
      out[proxyOwnCpuKey(workload.id)] = paired(proxy, mock, proxyOwn, cpu);
    }
    const floor = byServer.get('proxy-floor');
    if (floor && mock) out[floorOwnCpuKey(workload.id)] = paired(floor, mock, proxyOwn, cpu);
    if (floor && proxy) out[proxyOwnCpuVsFloorKey(workload.id)] = paired(proxy, floor, proxyOwn);
    for (const run of usableRuns) {
      if (ref && run !== ref) {
        out[cpuVsRefKey(workload.id, run.server)] = paired(run, ref, cpu);
        out[rpsVsRefKey(workload.id, run.server)] = paired(run, ref, rps);
      }
      if (mock && run !== mock && run !== ref) {
        out[mockCpuVsKey(workload.id, run.server)] = paired(mock, run, cpu);
        out[mockRpsVsKey(workload.id, run.server)] = paired(mock, run, rps);
      }
    }
  }
  const refCold = cold[REFERENCE];
  if (refCold) {
    const taken = (shares: readonly (number | null)[] | undefined, i: number) => (shares?.[i] ?? 0) > CONTENDED_SHARE;
    for (const [server, { runsMs, otherCpuShares }] of Object.entries(cold)) {
      if (server === REFERENCE) continue;
      const contended = runsMs.map((_, i) => taken(otherCpuShares, i) || taken(refCold.otherCpuShares, i));
      out[coldVsRefKey(server)] = pairedRatio(runsMs, refCold.runsMs, REFERENCE_OUTLIER_FACTOR, contended);
    }
  }
  return out;
}

/**
 * Turns the runs into metrics: median req/s and req per CPU-second of every usable run, median cold start per
 * server, the median of every paired figure ({@link pairedFigures}), and the mock's median heap after GC (else RSS)
 * over the middle and the last third of the memory checkpoints (`memory:mid`, `memory:last`, KiB).
 */
export function collectMetrics(runs: readonly WorkloadRun[], cold: ColdStart, memory?: MemoryResult): Metrics {
  const metrics: Record<string, number> = {};
  for (const workload of runs) {
    for (const run of workload.runs) {
      if (!usable(run)) continue;
      const summary = summarizeRun(run);
      metrics[rpsKey(workload.id, run.server)] = summary.rps;
      if (Number.isFinite(summary.perCpuSecond)) metrics[perCpuKey(workload.id, run.server)] = summary.perCpuSecond;
    }
  }
  for (const [server, { runsMs }] of Object.entries(cold))
    if (runsMs.length > 0) metrics[coldKey(server)] = median(runsMs);
  for (const [key, figure] of Object.entries(pairedFigures(runs, cold)))
    if (Number.isFinite(figure.median)) metrics[key] = figure.median;
  if (memory && memory.problem === undefined && memory.checkpoints.length >= 3) {
    // The middle third of the checkpoints against the last third, on the heap after a full collection (what the
    // mock retains) when the probe answered, else on RSS, whose swings with the collector's timing the medians damp.
    const checkpoints = memory.checkpoints.slice(1);
    const heap = checkpoints.every((c) => typeof c.heapAfterGcKb === 'number');
    const points = checkpoints.flatMap((c) => {
      const kb = heap ? c.heapAfterGcKb : c.rssKb;
      return typeof kb === 'number' ? [kb] : [];
    });
    const third = Math.floor(points.length / 3);
    if (third >= 1) {
      metrics['memory:mid'] = median(points.slice(third, points.length - third));
      metrics['memory:last'] = median(points.slice(points.length - third));
      metrics['memory:uses-heap'] = heap ? 1 : 0;
    }
  }
  return metrics;
}

/** A target: one metric (or a ratio of two) compared with a threshold. */
export interface Target {
  readonly id: string;
  readonly label: string;
  readonly numerator: string;
  /** When set, the value is numerator ÷ denominator; otherwise the numerator is already a ratio. */
  readonly denominator?: string;
  readonly op: '>=' | '<=';
  readonly threshold: number;
}

/** A target's outcome. `pass` is null when a metric is missing (not measured, or unusable). */
export interface TargetResult extends Target {
  readonly value: number | null;
  readonly pass: boolean | null;
}

/** Evaluates one target against the metrics. */
export function evaluateTarget(target: Target, metrics: Metrics): TargetResult {
  const n = metrics[target.numerator];
  const d = target.denominator === undefined ? 1 : metrics[target.denominator];
  const value =
    n === undefined || d === undefined || !Number.isFinite(n) || !Number.isFinite(d) || d <= 0 ? null : n / d;
  const pass = value === null ? null : target.op === '>=' ? value >= target.threshold : value <= target.threshold;
  return { ...target, value, pass };
}

/**
 * The mock's own targets: CPU per request paired round by round with the floor that bounds the work (a bare
 * node:http answer for the fee list; (a′), which signs the same HS256 token, for generate-token; (a″), which parses
 * the payment and answers its shape, for the payment), for the workloads that ran; cold start ÷ (a)'s, paired run
 * by run; memory flat. Peers carry no target.
 */
export function targetsFor(workloadIds: readonly string[]): Target[] {
  const cpuTargets: [string, string, string, string, number][] = [
    ['generate-token', 'generate-token', 'rest-token-signed', "(a′)'s", 1.05],
    ['fees-list', 'fee list', 'rest-token', "(a)'s", 1.3],
    ['process-payment', 'processPaymentRequest', 'payment-floor', "(a″)'s", 2.0],
  ];
  const targets: Target[] = cpuTargets
    .filter(([id]) => workloadIds.includes(id))
    .map(([id, name, floor, floorName, threshold]) => ({
      id: `${id}-cpu`,
      label: `${name}: server CPU per request ≤ ${threshold} × ${floorName}`,
      numerator: floor === REFERENCE ? cpuVsRefKey(id, 'mock') : mockCpuVsKey(id, floor),
      op: '<=' as const,
      threshold,
    }));
  targets.push(
    {
      id: 'cold-start',
      label: "cold start ≤ 1.5 × (a)'s spawn to first answer",
      numerator: coldVsRefKey('mock'),
      op: '<=',
      threshold: 1.5,
    },
    {
      id: 'memory-bounded',
      label: 'memory flat: heap after GC (RSS if no probe), last ÷ middle third ≤ 1.10',
      numerator: 'memory:last',
      denominator: 'memory:mid',
      op: '<=',
      threshold: 1.1,
    },
  );
  return targets;
}

/** Renders rows as an aligned plain-text table; numbers-looking cells are right-aligned. */
export function renderTextTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const numeric = headers.map((_, i) => rows.length > 0 && rows.every((r) => /^[-\d.,×x%<>≤≥ ]*$/.test(r[i] ?? '')));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** Renders rows as a GitHub Markdown table; numbers-looking columns are right-aligned. */
export function renderMarkdownTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const numeric = headers.map((_, i) => rows.length > 0 && rows.every((r) => /^[-\d.,×x%<>≤≥ ]*$/.test(r[i] ?? '')));
  const esc = (c: string) => c.replaceAll('|', '\\|');
  return [
    `| ${headers.map(esc).join(' | ')} |`,
    `|${numeric.map((n) => (n ? '---:' : '---')).join('|')}|`,
    ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`),
  ].join('\n');
}

const fmtInt = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '-');
// autocannon records latencies in whole milliseconds: 0 means under one.
const fmtMs = (n: number) =>
  !Number.isFinite(n) ? '-' : n === 0 ? '<1' : Number.isInteger(n) || n >= 10 ? String(Math.round(n)) : n.toFixed(1);
const fmtPercent = (n: number) => (Number.isFinite(n) ? `${Math.round(n * 100)}%` : '-');
const fmtMb = (kb: number | null) => (kb === null ? '-' : (kb / 1024).toFixed(0));
/** Formats a ratio as `1.23×`. */
export const fmtRatio = (r: number | null) => (r === null || !Number.isFinite(r) ? '-' : `${r.toFixed(2)}×`);

/** The targets table. */
export function targetRows(
  results: readonly TargetResult[],
  figures: Readonly<Record<string, PairedRatio>> = {},
): string[][] {
  return results.map((t) => {
    const figure = t.denominator === undefined ? figures[t.numerator] : undefined;
    return [
      t.label,
      fmtRatio(t.value),
      figure ? spread(figure) : '',
      `${t.op === '>=' ? '≥' : '≤'} ${t.threshold}`,
      fmtRatio(targetMargin(t)),
      t.pass === null ? 'not measured' : t.pass ? 'pass' : 'FAIL',
    ];
  });
}

/** `0.91–1.30, 12 pairs` (and how many rounds were flagged), or `-`. */
function spread(r: PairedRatio): string {
  if (!Number.isFinite(r.median)) return '-';
  return `${r.min.toFixed(2)}–${r.max.toFixed(2)}, ${r.pairs} pairs${r.flagged.length > 0 ? `, ${r.flagged.length} flagged` : ''}`;
}

/**
 * How far a target is from its threshold, as a factor where 1 is the threshold and above 1 passes, whichever way
 * the target points: measured ÷ wanted for "at least", wanted ÷ measured for "at most". Null when not measured.
 */
export function targetMargin(t: Pick<TargetResult, 'value' | 'op' | 'threshold'>): number | null {
  if (t.value === null || t.value <= 0) return null;
  return t.op === '>=' ? t.value / t.threshold : t.threshold / t.value;
}

export const targetHeaders = ['target', 'measured (median of pairs)', 'spread', 'wanted', 'margin', 'result'];

/**
 * The paired table: per workload and server, CPU per request and req/s ÷ the reference (a)'s in the same round
 * (median of the pairs, spread), and the server's own medians for scale.
 */
export function pairedRows(runs: readonly WorkloadRun[], figures: Readonly<Record<string, PairedRatio>>): string[][] {
  const rows: string[][] = [];
  for (const workload of runs) {
    for (const run of workload.runs) {
      const s = summarizeRun(run);
      const cpuUs = median(
        run.rounds.flatMap((r) => (cpuPerRequest(r) === undefined ? [] : [cpuPerRequest(r)! * 1e6])),
      );
      const isRef = run.server === REFERENCE;
      const flag = usable(run)
        ? ''
        : ` (unusable: ${run.problem ?? `${(s.failureRate * 100).toFixed(1)} % failed answers`})`;
      rows.push([
        workload.id,
        `${run.label}${run.note ? ` [${run.note}]` : ''}${flag}`,
        Number.isFinite(cpuUs) ? cpuUs.toFixed(1) : '-',
        isRef ? '1 (reference)' : formatPairedOrDash(figures[cpuVsRefKey(workload.id, run.server)]),
        isRef ? '1 (reference)' : formatPairedOrDash(figures[rpsVsRefKey(workload.id, run.server)]),
        fmtInt(s.rps),
        fmtMs(s.p50),
        fmtMs(s.p99),
        fmtPercent(s.serverCpu),
        fmtMb(run.peakRssKb),
      ]);
    }
  }
  return rows;
}

const formatPairedOrDash = (r: PairedRatio | undefined) => (r ? formatPaired(r) : '-');

export const pairedHeaders = [
  'workload',
  'server',
  'CPU µs per request',
  "CPU per request ÷ (a)'s",
  "req/s ÷ (a)'s",
  'req/s',
  'p50 ms',
  'p99 ms',
  'server CPU',
  'peak RSS MB',
];

/**
 * The mock against every other server of a workload, paired round by round: the baseline build (the judge of a
 * change) and the peers (context; no target). "ahead" is the other server's CPU per request ÷ the mock's.
 */
export function versusRows(runs: readonly WorkloadRun[], figures: Readonly<Record<string, PairedRatio>>): string[][] {
  const rows: string[][] = [];
  for (const workload of runs) {
    for (const run of workload.runs) {
      // The proxy and its floor have a table of their own (proxyRows): they front the mock rather than replace it.
      if (run.server === 'proxy' || run.server === 'proxy-floor') continue;
      const cpu = figures[mockCpuVsKey(workload.id, run.server)];
      const rps = figures[mockRpsVsKey(workload.id, run.server)];
      if (!cpu && !rps) continue;
      rows.push([workload.id, run.label, formatPairedOrDash(cpu), formatPairedOrDash(rps)]);
    }
  }
  return rows;
}

export const versusHeaders = ['workload', 'mock compared with', 'mock CPU per request ÷ this', 'mock req/s ÷ this'];

/**
 * The proxy's table: per workload, the pair's req/s ÷ the mock's alone (both on the server core, so the
 * proxy and its mock share it), the pair's CPU per request ÷ the mock's, and the proxy process's own CPU per request
 * ÷ the mock's (what it costs on a core of its own), with the proxy's own microseconds per request; then the same
 * against the floor (the bare passthrough, when it ran): the proxy's own CPU ÷ the floor's, the floor's ÷ the mock's,
 * and the floor's microseconds per request.
 */
export function proxyRows(runs: readonly WorkloadRun[], figures: Readonly<Record<string, PairedRatio>>): string[][] {
  const rows: string[][] = [];
  for (const workload of runs) {
    const proxy = workload.runs.find((r) => r.server === 'proxy' && usable(r));
    if (!proxy || !figures[proxyVsMockKey(workload.id)]) continue;
    const micros = (run: ServerRun | undefined) => {
      const own = median(run?.rounds.flatMap((r) => proxyCpuPerRequest(r) ?? []) ?? []);
      return Number.isFinite(own) ? (own * 1e6).toFixed(1) : '-';
    };
    const floor = workload.runs.find((r) => r.server === 'proxy-floor' && usable(r));
    rows.push([
      workload.id,
      formatPairedOrDash(figures[proxyVsMockKey(workload.id)]),
      formatPairedOrDash(figures[proxyPairCpuKey(workload.id)]),
      formatPairedOrDash(figures[proxyOwnCpuKey(workload.id)]),
      micros(proxy),
      formatPairedOrDash(figures[proxyOwnCpuVsFloorKey(workload.id)]),
      formatPairedOrDash(figures[floorOwnCpuKey(workload.id)]),
      micros(floor),
    ]);
  }
  return rows;
}

export const proxyHeaders = [
  'workload',
  "req/s ÷ the mock's (shared core)",
  "pair CPU per request ÷ the mock's",
  "proxy's own CPU per request ÷ the mock's",
  'proxy CPU µs per request',
  "proxy's own CPU ÷ the floor's (bare passthrough)",
  "floor's own CPU ÷ the mock's",
  'floor CPU µs per request',
];

/** The cold start table: medians per server, and each server ÷ (a) paired run by run. */
export function coldStartRows(cold: ColdStart, figures: Readonly<Record<string, PairedRatio>> = {}): string[][] {
  const cell = (values: readonly number[] | undefined) => (values && values.length > 0 ? fmtMs(median(values)) : '');
  return Object.entries(cold).map(([server, { label, runsMs, listeningMs, tokenMs }]) => [
    label,
    cell(listeningMs),
    cell(tokenMs),
    fmtMs(median(runsMs)),
    String(runsMs.length),
    server === REFERENCE ? '1 (reference)' : formatPairedOrDash(figures[coldVsRefKey(server)]),
  ]);
}

export const coldStartHeaders = [
  'server',
  'listening ms',
  'first token ms',
  'first success ms',
  'runs',
  "÷ (a)'s, paired",
];

/** The memory table: one row per checkpoint. */
export function memoryRows(memory: MemoryResult): string[][] {
  return memory.checkpoints.map((c) => [
    fmtInt(c.payments),
    fmtMb(c.rssKb),
    fmtMb(c.peakRssKb),
    typeof c.heapAfterGcKb === 'number' ? (c.heapAfterGcKb / 1024).toFixed(1) : '-',
    c.storedPayments === null ? '-' : fmtInt(c.storedPayments),
  ]);
}

export const memoryHeaders = [
  'payments processed',
  'RSS MB',
  'peak RSS MB',
  'heap after GC MB',
  'payments kept (control API)',
];

/** Machine and settings a run was made with. */
export interface RunContext {
  readonly date: string;
  readonly cpu: string;
  readonly cores: number;
  readonly node: string;
  readonly pinning: string;
  readonly settings: string;
  /** The host's one-minute load average when the run started (older summaries lack it). */
  readonly loadAtStart?: number;
}

/** Everything one run produced, as written to summary.json. */
export interface BenchSummary {
  readonly context: RunContext;
  readonly workloads: readonly WorkloadRun[];
  readonly coldStart: ColdStart;
  readonly memory?: MemoryResult;
  readonly targets: readonly TargetResult[];
  /** The payment latency at 1, 10 and 100 connections, when measured. */
  readonly latencyCurve?: readonly LatencyPoint[];
  /** The in-process workloads (msw, set-up and reset, a vitest file, webhook delivery), when measured. */
  readonly inProcess?: InProcessResult;
  /** Milliseconds of p50 the proxy adds in front of the mock (paired slices), when measured. */
  readonly proxyLatency?: PairedRatio;
  /** The mock on Redis (one and two replicas) beside the mock on memory, when measured. */
  readonly sharedStore?: SharedStoreResult;
  /** Every paired figure ({@link pairedFigures}) by metric name. */
  readonly paired: Readonly<Record<string, PairedRatio>>;
}

/** What one run measured, besides its context. */
export interface Measurements {
  readonly workloads: readonly WorkloadRun[];
  readonly coldStart: ColdStart;
  readonly memory?: MemoryResult | undefined;
  readonly latencyCurve?: readonly LatencyPoint[] | undefined;
  readonly inProcess?: InProcessResult | undefined;
  readonly proxyLatency?: PairedRatio | undefined;
  readonly sharedStore?: SharedStoreResult | undefined;
}

/** The metrics of the in-process workloads, named for their targets. */
export function inProcessMetrics(result: InProcessResult | undefined): Metrics {
  if (!result) return {};
  const out: Record<string, number> = {
    'in-process:msw:fees-list': result.msw['fees-list'].median,
    'in-process:msw:process-payment': result.msw['process-payment'].median,
    'in-process:webhooks': result.webhooks.median,
  };
  if (result.vitestFile) out['in-process:vitest-file'] = result.vitestFile.median;
  return Object.fromEntries(Object.entries(out).filter(([, v]) => Number.isFinite(v)));
}

/** The targets of the in-process workloads, each against its own limit in the same run. */
export const inProcessTargets: readonly Target[] = [
  {
    id: 'msw-fees',
    label: 'msw handlers, fee list ≥ 0.5 × a hand-written msw handler',
    numerator: 'in-process:msw:fees-list',
    op: '>=',
    threshold: 0.5,
  },
  {
    id: 'msw-payment',
    label: 'msw handlers, payment ≥ 0.5 × a hand-written msw handler',
    numerator: 'in-process:msw:process-payment',
    op: '>=',
    threshold: 0.5,
  },
  {
    id: 'vitest-file',
    label: '100-test vitest file with a reset per test ≤ 1.5 × hand-written handlers',
    numerator: 'in-process:vitest-file',
    op: '<=',
    threshold: 1.5,
  },
  {
    id: 'webhooks',
    label: 'webhook deliveries per second ≥ 0.5 × a bare node:http poster',
    numerator: 'in-process:webhooks',
    op: '>=',
    threshold: 0.5,
  },
];

/**
 * The proxy's targets: its own CPU per request ÷ the bare passthrough's (its floor: node:http and an undici Pool
 * with no checks), in the same round, and the p50 it adds. Its req/s beside the mock's on one core is printed with no
 * target: the bare passthrough itself reaches only about a quarter of it there.
 */
export function proxyTargets(workloadIds: readonly string[], latencyMeasured: boolean): Target[] {
  const targets: Target[] = (['fees-list', 'process-payment'] as const)
    .filter((id) => workloadIds.includes(id))
    .map((id) => ({
      id: `proxy-${id}`,
      label: `proxy's own CPU per request, ${id} ≤ 1.5 × the bare passthrough's`,
      numerator: proxyOwnCpuVsFloorKey(id),
      op: '<=' as const,
      threshold: 1.5,
    }));
  if (latencyMeasured)
    targets.push({
      id: 'proxy-p50',
      label: 'proxy: p50 added to a fee list ≤ 1 ms (value in ms)',
      numerator: 'proxy:added-p50-ms',
      op: '<=',
      threshold: 1,
    });
  return targets;
}

/** Evaluates every target of a run and bundles the summary. */
export function summarize(context: RunContext, measured: Measurements): BenchSummary {
  const { workloads, coldStart, memory, latencyCurve, inProcess, proxyLatency, sharedStore } = measured;
  const metrics = {
    ...collectMetrics(workloads, coldStart, memory),
    ...inProcessMetrics(inProcess),
    ...(proxyLatency && Number.isFinite(proxyLatency.median) ? { 'proxy:added-p50-ms': proxyLatency.median } : {}),
  };
  const ids = workloads.map((w) => w.id);
  const proxyRan = workloads.some((w) => w.runs.some((r) => r.server === 'proxy'));
  const targets = [
    ...targetsFor(ids),
    ...(proxyRan || proxyLatency ? proxyTargets(ids, proxyLatency !== undefined) : []),
    ...(inProcess ? inProcessTargets : []),
  ].map((t) => evaluateTarget(t, metrics));
  const paired = {
    ...pairedFigures(workloads, coldStart),
    ...(inProcess
      ? {
          'in-process:msw:fees-list': inProcess.msw['fees-list'],
          'in-process:msw:process-payment': inProcess.msw['process-payment'],
          'in-process:webhooks': inProcess.webhooks,
          ...(inProcess.vitestFile ? { 'in-process:vitest-file': inProcess.vitestFile } : {}),
        }
      : {}),
    ...(proxyLatency ? { 'proxy:added-p50-ms': proxyLatency } : {}),
  };
  return {
    context,
    workloads,
    coldStart,
    ...(memory ? { memory } : {}),
    ...(latencyCurve ? { latencyCurve } : {}),
    ...(inProcess ? { inProcess } : {}),
    ...(proxyLatency ? { proxyLatency } : {}),
    ...(sharedStore ? { sharedStore } : {}),
    targets,
    paired,
  };
}

function sections(summary: BenchSummary, table: typeof renderTextTable): [string, string][] {
  const unsaturated = summary.workloads.flatMap((w) =>
    w.runs.filter((r) => summarizeRun(r).serverCpu < SATURATED_CPU).map((r) => `${w.id} / ${r.server}`),
  );
  const footnote =
    unsaturated.length > 0
      ? `\n\nServer CPU under ${SATURATED_CPU * 100}% (bound by the load generator or a busy machine, not by the server): ${unsaturated.join(', ')}. Their req/s measure the load generator; read their CPU per request.`
      : '';
  const out: [string, string][] = [
    [
      'Against the limit: each server ÷ (a) bare node:http in the same round (median of per-round ratios, min–max, pairs)',
      `${table(pairedHeaders, pairedRows(summary.workloads, summary.paired))}${footnote}`,
    ],
  ];
  const versus = versusRows(summary.workloads, summary.paired);
  if (versus.length > 0)
    out.push([
      'The mock against the baseline build and the peers (paired; context, no target)',
      table(versusHeaders, versus),
    ]);
  const proxy = proxyRows(summary.workloads, summary.paired);
  if (proxy.length > 0 || summary.proxyLatency) {
    const latency = summary.proxyLatency;
    const added =
      latency && Number.isFinite(latency.median)
        ? `\n\nAdded p50 on a fee list (one connection, sequential, paired slices proxy − mock): ${latency.median.toFixed(3)} ms (${latency.min.toFixed(3)} to ${latency.max.toFixed(3)}, ${latency.pairs} pairs).`
        : '';
    out.push([
      'The validating proxy in front of the mock (checks on; proxy and mock on the server core, paired with the mock alone in the same round)',
      `${table(proxyHeaders, proxy)}${added}`,
    ]);
  }
  if (summary.sharedStore) out.push(sharedStoreSection(summary.sharedStore, table));
  if (Object.keys(summary.coldStart).length > 0)
    out.push([
      'Cold start (spawn to first successful answer)',
      table(coldStartHeaders, coldStartRows(summary.coldStart, summary.paired)),
    ]);
  if (summary.latencyCurve && summary.latencyCurve.length > 0)
    out.push([
      'processPaymentRequest latency by connections in flight (the mock alone)',
      table(
        ['connections', 'req/s', 'p50 ms', 'p99 ms', 'failed answers'],
        summary.latencyCurve.map((p) => [
          String(p.connections),
          fmtInt(p.rps),
          fmtMs(p.p50),
          fmtMs(p.p99),
          fmtInt(p.failures),
        ]),
      ),
    ]);
  if (summary.inProcess) {
    const { createMs, resetMs } = summary.inProcess.setup;
    out.push([
      "A test suite's view: createMockHandlers() and control.reset()",
      table(
        ['step', 'p50 ms', 'p99 ms', 'samples'],
        [
          ['createMockHandlers()', createMs.p50.toFixed(2), createMs.p99.toFixed(2), String(createMs.count)],
          ['control.reset()', resetMs.p50.toFixed(3), resetMs.p99.toFixed(3), String(resetMs.count)],
        ],
      ),
    ]);
    const bundle = summary.inProcess.browserBundle;
    if (bundle)
      out.push([
        "The msw entry in the browser: its own code, bundled by esbuild (msw and graphql are the app's)",
        table(
          ['minified kB', 'gzip kB'],
          [[(bundle.minifiedBytes / 1000).toFixed(1), (bundle.gzipBytes / 1000).toFixed(1)]],
        ),
      ]);
  }
  if (summary.memory) {
    const m = summary.memory;
    const title = `Memory while processing ${fmtInt(m.target)} payments${m.failures > 0 ? ` (${fmtInt(m.failures)} failed)` : ''}${m.problem ? ` (${m.problem})` : ''}`;
    out.push([title, table(memoryHeaders, memoryRows(m))]);
  }
  out.push([
    'Targets (paired ratios within this run)',
    table(targetHeaders, targetRows(summary.targets, summary.paired)),
  ]);
  return out;
}

/** The shared-store section: the table, then where the round trips come from (or the line saying it was skipped). */
function sharedStoreSection(result: SharedStoreResult, table: typeof renderTextTable): [string, string] {
  const title =
    'A shared store: the mock on Redis, one replica and two, ÷ the mock on memory in the same round (median of per-round ratios, min–max, pairs; all on the server core)';
  if (result.skipped !== undefined) return [title, result.skipped];
  const lines = roundTripLines(result);
  return [
    title,
    `${table(sharedStoreHeaders, sharedStoreRows(result))}${lines.length > 0 ? `\n\nStore round trips per request (Redis INFO commandstats around a fixed number of requests):\n${lines.map((l) => `- ${l}`).join('\n')}` : ''}`,
  ];
}

/** Above this share of contended rounds the whole run measured the host (the report says so). */
export const BUSY_HOST_SHARE = 0.25;

/**
 * How many throughput rounds and cold starts had other processes take more than {@link CONTENDED_SHARE} of the
 * server core, of those where that is known (older summaries and unpinned runs count none).
 */
export function contention(summary: Pick<BenchSummary, 'workloads' | 'coldStart'>): {
  rounds: number;
  contended: number;
} {
  const shares = [
    ...summary.workloads.flatMap((w) => w.runs.flatMap((r) => r.rounds.map((round) => round.otherCpu))),
    ...Object.values(summary.coldStart).flatMap((c) => c.otherCpuShares ?? []),
  ].filter((share): share is number => typeof share === 'number');
  return { rounds: shares.length, contended: shares.filter((share) => share > CONTENDED_SHARE).length };
}

function machineLine(summary: BenchSummary): string {
  const c = summary.context;
  const load = c.loadAtStart === undefined ? '' : `; load ${c.loadAtStart.toFixed(1)} at start`;
  const { rounds, contended } = contention(summary);
  const waited =
    rounds === 0
      ? ''
      : `; ${contended} of ${rounds} rounds and cold starts had other processes take over ${CONTENDED_SHARE * 100}% of the server core (flagged)` +
        (contended > rounds * BUSY_HOST_SHARE
          ? ': the host was busy, so this run measured the host, not the code'
          : '');
  return `${c.cpu}, ${c.cores} cores, Node ${c.node}; ${c.pinning}; ${c.settings}${load}${waited}; ${c.date}`;
}

/** The report for the terminal. */
export function renderText(summary: BenchSummary): string {
  const body = sections(summary, renderTextTable)
    .map(([title, table]) => `${title}\n${table}`)
    .join('\n\n');
  return `${machineLine(summary)}\n\n${body}\n`;
}

/** The report as Markdown, for the README's performance section. */
export function renderMarkdown(summary: BenchSummary): string {
  const body = sections(summary, renderMarkdownTable)
    .map(([title, table]) => `### ${title}\n\n${table}`)
    .join('\n\n');
  return [
    '## Performance',
    '',
    `Machine: ${machineLine(summary)}.`,
    '',
    'Numbers come from `npm run bench`: every server is its own child process, pinned to a core apart from the load',
    'generator (autocannon, 127.0.0.1, keep-alive), and many short rounds alternate between servers. Each figure is',
    'the median of per-round ratios against (a), bare node:http answering a fixed JSON body, measured in the same',
    "round, with its spread; the primary figure is the server's CPU time per answered request (from /proc), which",
    'the load generator cannot cap. Absolute numbers depend on the host; the paired ratios are the result.',
    '',
    body,
    '',
  ].join('\n');
}
