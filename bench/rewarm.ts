/**
 * The unmeasured load before each measured round. In passes a server sleeps through the other workloads' rounds, and
 * its first requests after that cost more: its caches are cold, and V8 may have flushed the code it compiled. How
 * much more depends on the server: a fixed slice left the mock's first rounds after an idle spell up to 1.6× its
 * settled CPU per request and yoga's up to 4×, while (a) settled at once. So slices run until the server's CPU per
 * request settles: two slices in a row within a tolerance of each other. The larger cost, V8's memory reducer after
 * about a minute idle (seconds to take back), is switched off for measured servers (decision 0038).
 *
 * @module
 */

/** One unmeasured slice: the server's CPU seconds over it and the requests it answered (null CPU: unreadable). */
export interface RewarmSlice {
  readonly cpuSeconds: number | null;
  readonly requests: number;
}

/** When rewarming stops. */
export interface RewarmRule {
  /** Slices always run (the first compares with nothing). */
  readonly minSlices: number;
  /** Slices at most, settled or not. */
  readonly maxSlices: number;
  /** Settled: the last two slices' CPU per request differ by at most this share of the lower one. */
  readonly tolerance: number;
}

/** The benchmark's rule: slices of a fifth of a second, 2 to 6 of them, settled within 5%. */
export const defaultRewarmRule: RewarmRule = { minSlices: 2, maxSlices: 6, tolerance: 0.05 };

/** How a server's rewarm went: slices run, and whether its CPU per request settled within them. */
export interface RewarmOutcome {
  readonly slices: number;
  readonly settled: boolean;
}

/**
 * Runs `slice` until the server's CPU per request settles by `rule` or the slices run out. A slice with no CPU
 * reading or no answered request cannot judge, so the rule then runs its minimum only.
 */
export async function rewarm(
  slice: () => Promise<RewarmSlice>,
  rule: RewarmRule = defaultRewarmRule,
): Promise<RewarmOutcome> {
  let previous: number | null = null;
  for (let n = 1; n <= rule.maxSlices; n++) {
    const s = await slice();
    const perRequest = s.cpuSeconds === null || s.requests === 0 ? null : s.cpuSeconds / s.requests;
    if (perRequest === null) {
      if (n >= rule.minSlices) return { slices: n, settled: false };
      continue;
    }
    if (n >= rule.minSlices && previous !== null && settledBetween(previous, perRequest, rule.tolerance)) {
      return { slices: n, settled: true };
    }
    previous = perRequest;
  }
  return { slices: rule.maxSlices, settled: false };
}

function settledBetween(a: number, b: number, tolerance: number): boolean {
  return Math.abs(a - b) <= tolerance * Math.min(a, b);
}
