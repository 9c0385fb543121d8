/**
 * Two runs of `npm run bench` side by side: for every paired figure both runs printed, whether they agree (each
 * median lies within the other run's spread, decision 0002), and for a `--baseline` run of the same build, whether
 * every mock ÷ baseline figure reads within 0.95–1.05. This is how the benchmark shows it measures the code and not the
 * host. The req/s ratios to (a) and to the peers are shown but not judged, in both checks: on the fast
 * endpoints they measure the load generator; CPU per request, the primary figure, and every other figure are.
 * Pure functions; `bench/compare.ts` reads the files.
 *
 * @module
 */
import { agreeWithinSpread, formatPaired, type PairedRatio } from './paired.ts';

/** The part of a results file (`bench/results/latest-*.json`) this comparison reads. */
export interface RunFile {
  readonly summary: { readonly context?: { readonly date?: string }; readonly paired: Record<string, PairedRatio> };
}

/** One figure compared across the two runs. */
export interface FigureComparison {
  /** The figure's key in `summary.paired`, e.g. `cpu-vs-ref:fees-list:mock`. */
  readonly key: string;
  readonly first: PairedRatio;
  readonly second: PairedRatio;
  /** Each median inside the other run's spread. */
  readonly agree: boolean;
  /**
   * Whether the figure is judged. Req/s beside (a) or beside the peers is not, as in {@link selfBaselineChecks}: (a)
   * answers as fast as the load generator sends, so those ratios carry the load generator's speed on the host
   * (decision 0002). Every other figure is: CPU per request, cold starts, the in-process and proxy figures.
   */
  readonly judged: boolean;
}

/** The req/s ratios to (a) and to the peers: shown beside the CPU figures, not judged. */
const loadGeneratorBound = (key: string): boolean => key.startsWith('rps-vs-ref:') || key.startsWith('mock-rps-vs:');

/** A mock ÷ baseline figure of a `--baseline` run, against the 0.95–1.05 band of a build against itself. */
export interface SelfBaselineCheck {
  readonly key: string;
  readonly ratio: PairedRatio;
  readonly withinBand: boolean;
  /**
   * Whether the figure is judged: CPU per request is (the primary figure, decision 0002); req/s is shown beside it
   * but not judged, since on the fast endpoints it measures the load generator, which saturates first.
   */
  readonly judged: boolean;
}

/** The band a `--baseline` run of a build against itself must read within. */
export const SELF_BASELINE_BAND = { low: 0.95, high: 1.05 } as const;

const usable = (r: PairedRatio | undefined): r is PairedRatio => r !== undefined && Number.isFinite(r.median);

/**
 * Figures both runs hold, in the first run's order. Figures of the `--baseline` server only (`…:baseline`) and the
 * mock ÷ baseline ratios are left out: a plain run has no baseline to agree with.
 */
export function compareRuns(first: RunFile, second: RunFile): FigureComparison[] {
  const out: FigureComparison[] = [];
  for (const [key, a] of Object.entries(first.summary.paired)) {
    if (key.endsWith(':baseline')) continue;
    const b = second.summary.paired[key];
    if (!usable(a) || !usable(b)) continue;
    out.push({ key, first: a, second: b, agree: agreeWithinSpread(a, b), judged: !loadGeneratorBound(key) });
  }
  return out;
}

/** The mock ÷ baseline figures of a run (CPU per request and req/s per workload), each judged against the band. */
export function selfBaselineChecks(run: RunFile): SelfBaselineCheck[] {
  return Object.entries(run.summary.paired)
    .filter(([key, r]) => key.startsWith('mock-') && key.endsWith(':baseline') && usable(r))
    .map(([key, ratio]) => ({
      key,
      ratio,
      withinBand: ratio.median >= SELF_BASELINE_BAND.low && ratio.median <= SELF_BASELINE_BAND.high,
      judged: key.startsWith('mock-cpu-vs:'),
    }));
}

/** The comparison as text: one line per figure, then a verdict line. */
export function renderComparison(figures: readonly FigureComparison[], self: readonly SelfBaselineCheck[]): string {
  const width = Math.max(10, ...figures.map((f) => f.key.length), ...self.map((s) => s.key.length));
  const lines = [
    `${'figure'.padEnd(width)}  first run                          second run                         agree`,
  ];
  for (const f of figures) {
    const verdict = f.agree ? 'yes' : f.judged ? 'NO' : 'no (req/s: context, not judged)';
    lines.push(
      `${f.key.padEnd(width)}  ${formatPaired(f.first).padEnd(33)}  ${formatPaired(f.second).padEnd(33)}  ${verdict}`,
    );
  }
  const judged = figures.filter((f) => f.judged);
  const context = figures.filter((f) => !f.judged);
  const agreeing = (list: readonly FigureComparison[]) => list.filter((f) => f.agree).length;
  lines.push(`${agreeing(judged)} of ${judged.length} judged figures agree within their spreads.`);
  if (context.length > 0)
    lines.push(
      `req/s beside (a) and the peers (context, not judged): ${agreeing(context)} of ${context.length} agree.`,
    );
  if (self.length > 0) {
    lines.push(
      '',
      `mock ÷ baseline of the second run (same build: wanted ${SELF_BASELINE_BAND.low}–${SELF_BASELINE_BAND.high})`,
    );
    for (const s of self) {
      const verdict = s.withinBand ? 'yes' : s.judged ? 'NO' : 'no (req/s: context, not judged)';
      lines.push(`${s.key.padEnd(width)}  ${formatPaired(s.ratio).padEnd(33)}  ${verdict}`);
    }
    const judged = self.filter((s) => s.judged);
    const out = judged.filter((s) => !s.withinBand).length;
    lines.push(`${judged.length - out} of ${judged.length} CPU-per-request figures read within the band.`);
  }
  return lines.join('\n');
}
