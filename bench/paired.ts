/**
 * The paired estimator: on a shared 2-core host whole rounds run at half speed for every server, so a figure is never
 * a server's own median but the median of per-round ratios against a reference measured in the same round. A round
 * whose reference itself ran far from its own median is flagged and kept out of the median (shown, not averaged in).
 * Pure functions; no I/O.
 *
 * @module
 */

/** How far (as a factor either way) a reference round may sit from the reference's median before it is flagged. */
export const REFERENCE_OUTLIER_FACTOR = 1.5;

/**
 * The share of the server core that other processes may take during a round before the round is flagged as
 * contended. The benchmark runs one server at a time on that core (the load generator has the other one, the idle
 * servers sleep), so more than this means something outside the benchmark took the core, and the round measured the
 * host rather than the code. (A server's own threads are not counted: Node's collector threads share its core too.)
 */
export const CONTENDED_SHARE = 0.1;

/** The median of per-pair ratios, its spread and how many pairs stood behind it. */
export interface PairedRatio {
  /** Median of the kept ratios; NaN when no pair could be formed. */
  readonly median: number;
  /** Smallest and largest kept ratio. */
  readonly min: number;
  readonly max: number;
  /** Pairs kept. */
  readonly pairs: number;
  /**
   * Indexes (rounds) of pairs left out: the reference ran far from its own median, or another process took either side's
   * core (contended).
   */
  readonly flagged: readonly number[];
}

const finitePositive = (n: number | undefined): n is number => n !== undefined && Number.isFinite(n) && n > 0;

/** The median of a list (mean of the middle two for even lengths); NaN for an empty list. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Pairs `values[i]` with `reference[i]` (the same round), drops pairs where either side is missing, flags the rounds
 * whose reference lies more than {@link REFERENCE_OUTLIER_FACTOR} from the reference's median or that `contended[i]`
 * marks, and reduces the rest to the median ratio `values[i] / reference[i]` with its min and max. When every pair
 * would be flagged (too few to tell), all are kept.
 */
export function pairedRatio(
  values: readonly (number | undefined)[],
  reference: readonly (number | undefined)[],
  outlierFactor = REFERENCE_OUTLIER_FACTOR,
  contended: readonly boolean[] = [],
): PairedRatio {
  const pairs: { index: number; ratio: number; ref: number }[] = [];
  for (let i = 0; i < Math.min(values.length, reference.length); i++) {
    const v = values[i];
    const r = reference[i];
    if (finitePositive(v) && finitePositive(r)) pairs.push({ index: i, ratio: v / r, ref: r });
  }
  const refMedian = median(pairs.map((p) => p.ref));
  const far = (p: { index: number; ref: number }) =>
    contended[p.index] === true || p.ref > refMedian * outlierFactor || p.ref < refMedian / outlierFactor;
  const flaggedPairs = pairs.filter(far);
  const kept = flaggedPairs.length === pairs.length ? pairs : pairs.filter((p) => !far(p));
  const ratios = kept.map((p) => p.ratio);
  return {
    median: median(ratios),
    min: ratios.length > 0 ? Math.min(...ratios) : Number.NaN,
    max: ratios.length > 0 ? Math.max(...ratios) : Number.NaN,
    pairs: kept.length,
    flagged: kept === pairs ? [] : flaggedPairs.map((p) => p.index),
  };
}

/** Whether two paired figures agree: each one's median lies within the other's spread. */
export function agreeWithinSpread(a: PairedRatio, b: PairedRatio): boolean {
  const inside = (x: number, r: PairedRatio) => x >= r.min && x <= r.max;
  return inside(a.median, b) && inside(b.median, a);
}

/** `1.23× (1.10–1.31, 12 pairs)`, or `-` when nothing was paired; flagged rounds are named. */
export function formatPaired(r: PairedRatio): string {
  if (!Number.isFinite(r.median)) return '-';
  const flagged = r.flagged.length > 0 ? `, ${r.flagged.length} flagged` : '';
  return `${r.median.toFixed(2)}× (${r.min.toFixed(2)}–${r.max.toFixed(2)}, ${r.pairs} pairs${flagged})`;
}

/**
 * Pairs `values[i]` with `reference[i]` and reduces the differences `values[i] - reference[i]` to their median, min
 * and max (flagged rounds are not applied: a difference in milliseconds is already relative to its own round).
 */
export function pairedDifference(
  values: readonly (number | undefined)[],
  reference: readonly (number | undefined)[],
): PairedRatio {
  const diffs: number[] = [];
  for (let i = 0; i < Math.min(values.length, reference.length); i++) {
    const v = values[i];
    const r = reference[i];
    if (v !== undefined && r !== undefined && Number.isFinite(v) && Number.isFinite(r)) diffs.push(v - r);
  }
  return {
    median: median(diffs),
    min: diffs.length > 0 ? Math.min(...diffs) : Number.NaN,
    max: diffs.length > 0 ? Math.max(...diffs) : Number.NaN,
    pairs: diffs.length,
    flagged: [],
  };
}
