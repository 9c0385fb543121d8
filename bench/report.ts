/**
 * The pure half of the benchmark: reduce rounds to medians, turn them into named metrics, evaluate the targets of
 * issue 6 as ratios within one run, and render the tables (plain text for the terminal, Markdown for the README).
 * No I/O here, so test/bench/report.test.ts can pin all of it.
 *
 * @module
 */

import type { LoadSample } from './load.ts';

/** One round of load against one server: the counters of load.ts's LoadSample (a type-only import; no I/O here). */
export interface RoundResult
  extends Pick<LoadSample, 'rps' | 'p50' | 'p99' | 'requests' | 'non2xx' | 'errors' | 'failures'> {
  /** CPU the server process used during the round, in cores (1 = one core busy all the time); null if unknown. */
  readonly serverCpu?: number | null;
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

/** The median of a list (mean of the middle two for even lengths); NaN for an empty list. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

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

/**
 * Turns the runs into metrics: median req/s and req per CPU-second of every usable run, median cold start per
 * server, and the mock's median heap after GC (else RSS) over the middle and the last third of the memory checkpoints
 * (`memory:mid`, `memory:last`, KiB).
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

/** A target: a ratio of one metric to another (or to the best of several) compared with a threshold. */
export interface Target {
  readonly id: string;
  readonly label: string;
  readonly numerator: string;
  /** One metric, or several of which the largest counts (the best reference). */
  readonly denominator: string | readonly string[];
  readonly op: '>=' | '<=';
  readonly threshold: number;
}

/** A target's outcome. `pass` is null when a metric is missing (not measured, or unusable). */
export interface TargetResult extends Target {
  readonly value: number | null;
  readonly pass: boolean | null;
  /** Which metric the ratio was taken against (the best of several). */
  readonly against: string | null;
  /**
   * For throughput targets, the same ratio in requests per server CPU-second (null when unknown): what the ratio
   * would be if every server had its core to itself. Shown beside the target; the target is judged on `value`.
   */
  readonly perCpuValue: number | null;
}

function ratio(numerator: string, denominators: readonly string[], metrics: Metrics) {
  const n = metrics[numerator];
  let against: string | null = null;
  for (const key of denominators) {
    const d = metrics[key];
    if (d !== undefined && Number.isFinite(d) && (against === null || d > metrics[against]!)) against = key;
  }
  if (n === undefined || !Number.isFinite(n) || against === null || metrics[against]! <= 0)
    return { value: null, against };
  return { value: n / metrics[against]!, against };
}

/** Evaluates one target against the metrics. */
export function evaluateTarget(target: Target, metrics: Metrics): TargetResult {
  const denominators = typeof target.denominator === 'string' ? [target.denominator] : target.denominator;
  const { value, against } = ratio(target.numerator, denominators, metrics);
  const toCpu = (key: string) => key.replace(/^rps:/, 'cpu:');
  // Per CPU-second, compare with the same reference the throughput ratio used.
  const perCpuValue =
    target.numerator.startsWith('rps:') && against !== null
      ? ratio(toCpu(target.numerator), [toCpu(against)], metrics).value
      : null;
  const pass = value === null ? null : target.op === '>=' ? value >= target.threshold : value <= target.threshold;
  return { ...target, value, pass, against, perCpuValue };
}

/** The references "the usual way" compared with each workload (Prism for REST; yoga and Apollo for GraphQL). */
const usualWay = ['prism', 'yoga', 'apollo'] as const;

/** The targets of issue 6, for the workloads that ran. */
export function targetsFor(workloadIds: readonly string[]): Target[] {
  const targets: Target[] = [
    {
      id: 'token-vs-a',
      label: 'generate-token ≥ 0.7 × (a) bare node:http',
      numerator: rpsKey('generate-token', 'mock'),
      denominator: rpsKey('generate-token', 'rest-token'),
      op: '>=',
      threshold: 0.7,
    },
    {
      id: 'fees-vs-b',
      label: 'paymentGatewayFeesCalc ≥ 1.1 × (b) graphql-js execute',
      numerator: rpsKey('fees-list', 'mock'),
      denominator: rpsKey('fees-list', 'graphql-execute'),
      op: '>=',
      threshold: 1.1,
    },
    {
      id: 'payment-vs-b',
      label: 'processPaymentRequest ≥ 0.7 × (b) graphql-js execute',
      numerator: rpsKey('process-payment', 'mock'),
      denominator: rpsKey('process-payment', 'graphql-execute'),
      op: '>=',
      threshold: 0.7,
    },
  ];
  for (const id of workloadIds) {
    targets.push({
      id: `${id}-vs-usual`,
      label: `${id} ≥ 3 × best of Prism / yoga / Apollo`,
      numerator: rpsKey(id, 'mock'),
      denominator: usualWay.map((server) => rpsKey(id, server)),
      op: '>=',
      threshold: 3,
    });
  }
  targets.push(
    {
      id: 'cold-start',
      label: 'cold start ≤ 2.5 × (a) bare node:http',
      numerator: coldKey('mock'),
      denominator: coldKey('rest-token'),
      op: '<=',
      threshold: 2.5,
    },
    {
      id: 'memory-bounded',
      label: 'memory bounded: heap after GC (RSS if no probe), last ÷ middle third ≤ 1.10',
      numerator: 'memory:last',
      denominator: 'memory:mid',
      op: '<=',
      threshold: 1.1,
    },
  );
  return targets.filter(
    (t) => workloadIds.some((id) => t.numerator.includes(`:${id}:`)) || !t.numerator.startsWith('rps:'),
  );
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

/** The throughput table: one row per server per workload, with mock ÷ that server's req/s. */
export function throughputRows(runs: readonly WorkloadRun[]): string[][] {
  const rows: string[][] = [];
  for (const workload of runs) {
    const mock = workload.runs.find((r) => r.server === 'mock');
    const mockRps = mock && usable(mock) ? summarizeRun(mock).rps : Number.NaN;
    for (const run of workload.runs) {
      const s = summarizeRun(run);
      const ok = usable(run);
      const flag = ok ? '' : ` (unusable: ${run.problem ?? `${(s.failureRate * 100).toFixed(1)} % failed answers`})`;
      rows.push([
        workload.id,
        `${run.label}${run.note ? ` [${run.note}]` : ''}${flag}`,
        fmtInt(s.rps),
        fmtMs(s.p50),
        fmtMs(s.p99),
        fmtMb(run.peakRssKb),
        fmtPercent(s.serverCpu),
        fmtInt(s.perCpuSecond),
        run.server === 'mock' ? '' : ok ? fmtRatio(mockRps / s.rps) : '-',
      ]);
    }
  }
  return rows;
}

export const throughputHeaders = [
  'workload',
  'server',
  'req/s',
  'p50 ms',
  'p99 ms',
  'peak RSS MB',
  'server CPU',
  'req per CPU-s',
  'mock ÷ this',
];

/** The targets table. */
export function targetRows(results: readonly TargetResult[]): string[][] {
  return results.map((t) => [
    t.label,
    fmtRatio(t.value),
    fmtRatio(t.perCpuValue),
    `${t.op === '>=' ? '≥' : '≤'} ${t.threshold}`,
    fmtRatio(targetMargin(t)),
    t.pass === null ? 'not measured' : t.pass ? 'pass' : 'FAIL',
  ]);
}

/**
 * How far a target is from its threshold, as a factor where 1 is the threshold and above 1 passes, whichever way
 * the target points: measured ÷ wanted for "at least", wanted ÷ measured for "at most". Null when not measured.
 */
export function targetMargin(t: Pick<TargetResult, 'value' | 'op' | 'threshold'>): number | null {
  if (t.value === null || t.value <= 0) return null;
  return t.op === '>=' ? t.value / t.threshold : t.threshold / t.value;
}

export const targetHeaders = ['target', 'measured', 'per server CPU-s', 'wanted', 'margin', 'result'];

/** The cold start table: median per server and mock ÷ that server. */
export function coldStartRows(cold: ColdStart): string[][] {
  const mock = cold.mock ? median(cold.mock.runsMs) : Number.NaN;
  const cell = (values: readonly number[] | undefined) => (values && values.length > 0 ? fmtMs(median(values)) : '');
  return Object.entries(cold).map(([server, { label, runsMs, listeningMs, tokenMs }]) => {
    const ms = median(runsMs);
    return [
      label,
      cell(listeningMs),
      cell(tokenMs),
      fmtMs(ms),
      String(runsMs.length),
      server === 'mock' ? '' : fmtRatio(mock / ms),
    ];
  });
}

export const coldStartHeaders = ['server', 'listening ms', 'first token ms', 'first success ms', 'runs', 'mock ÷ this'];

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
}

/** Everything one run produced, as written to summary.json. */
export interface BenchSummary {
  readonly context: RunContext;
  readonly workloads: readonly WorkloadRun[];
  readonly coldStart: ColdStart;
  readonly memory?: MemoryResult;
  readonly targets: readonly TargetResult[];
}

/** Evaluates every target of a run and bundles the summary. */
export function summarize(
  context: RunContext,
  workloads: readonly WorkloadRun[],
  coldStart: ColdStart,
  memory?: MemoryResult,
): BenchSummary {
  const metrics = collectMetrics(workloads, coldStart, memory);
  const targets = targetsFor(workloads.map((w) => w.id)).map((t) => evaluateTarget(t, metrics));
  return { context, workloads, coldStart, ...(memory ? { memory } : {}), targets };
}

function sections(summary: BenchSummary, table: typeof renderTextTable): [string, string][] {
  const unsaturated = summary.workloads.flatMap((w) =>
    w.runs.filter((r) => summarizeRun(r).serverCpu < SATURATED_CPU).map((r) => `${w.id} / ${r.server}`),
  );
  const footnote =
    unsaturated.length > 0
      ? `\n\nServer CPU under ${SATURATED_CPU * 100}% (bound by the load generator or a busy machine, not by the server): ${unsaturated.join(', ')}. Compare those by req per CPU-s.`
      : '';
  const out: [string, string][] = [
    ['Throughput (median of rounds)', `${table(throughputHeaders, throughputRows(summary.workloads))}${footnote}`],
  ];
  if (Object.keys(summary.coldStart).length > 0)
    out.push([
      'Cold start (spawn to first successful answer)',
      table(coldStartHeaders, coldStartRows(summary.coldStart)),
    ]);
  if (summary.memory) {
    const m = summary.memory;
    const title = `Memory while processing ${fmtInt(m.target)} payments${m.failures > 0 ? ` (${fmtInt(m.failures)} failed)` : ''}${m.problem ? ` (${m.problem})` : ''}`;
    out.push([title, table(memoryHeaders, memoryRows(m))]);
  }
  out.push(['Targets (ratios within this run)', table(targetHeaders, targetRows(summary.targets))]);
  return out;
}

function machineLine(c: RunContext): string {
  return `${c.cpu}, ${c.cores} cores, Node ${c.node}; ${c.pinning}; ${c.settings}; ${c.date}`;
}

/** The report for the terminal. */
export function renderText(summary: BenchSummary): string {
  const body = sections(summary, renderTextTable)
    .map(([title, table]) => `${title}\n${table}`)
    .join('\n\n');
  return `${machineLine(summary.context)}\n\n${body}\n`;
}

/** The report as Markdown, for the README's performance section. */
export function renderMarkdown(summary: BenchSummary): string {
  const body = sections(summary, renderMarkdownTable)
    .map(([title, table]) => `### ${title}\n\n${table}`)
    .join('\n\n');
  return [
    '## Performance',
    '',
    `Machine: ${machineLine(summary.context)}.`,
    '',
    'Numbers come from `npm run bench`: every server is its own child process, pinned to a core apart from the load',
    'generator (autocannon, 127.0.0.1, keep-alive), rounds alternate between servers, and targets are ratios within',
    'the same run, so machine drift hits every server alike. Absolute req/s depend on the machine; the ratios are',
    'the result.',
    '',
    body,
    '',
  ].join('\n');
}
