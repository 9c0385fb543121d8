/**
 * The settings line of a benchmark run (its table header names the machine, this says how it was measured): how many
 * rounds ran of those asked for (the round budget may stop a run early), the unmeasured load before each one, the
 * warm-up and the connections.
 *
 * @module
 */
import type { RewarmOutcome, RewarmRule } from './rewarm.ts';

/** What the settings line reports. */
export interface RunSettings {
  /** Passes that ran, and passes asked for. */
  readonly ran: number;
  readonly asked: number;
  /** Length of a measured round, in seconds. */
  readonly seconds: number;
  /** Every measured round's rewarm. */
  readonly rewarms: readonly RewarmOutcome[];
  readonly sliceSeconds: number;
  readonly rule: RewarmRule;
  readonly warmupSeconds: number;
  readonly connections: number;
  readonly quick: boolean;
}

/**
 * The settings line.
 *
 * @example
 * settingsLine({ ran: 7, asked: 12, seconds: 1, rewarms, sliceSeconds: 0.2, rule, warmupSeconds: 2, connections: 8, quick: false })
 * // "7 of 12 × 1 s rounds (each after 2–6 unmeasured 0.2 s slices until CPU per request settles within 5%: median 2, 3 of 180 unsettled) after 2 s warm-up, 8 connections"
 */
export function settingsLine(s: RunSettings): string {
  return `${roundsLine(s)} after ${s.warmupSeconds} s warm-up, ${s.connections} connections${s.quick ? ', --quick' : ''}`;
}

function roundsLine(o: RunSettings): string {
  const count = o.ran === o.asked ? `${o.asked}` : `${o.ran} of ${o.asked}`;
  const { minSlices: min, maxSlices: max } = o.rule;
  const span = min === max ? `${min}` : `${min}–${max}`;
  let warm = `each after ${span} unmeasured ${o.sliceSeconds} s slice${max === 1 ? '' : 's'}`;
  if (max > min) {
    warm += ` until CPU per request settles within ${Math.round(o.rule.tolerance * 100)}%`;
    if (o.rewarms.length > 0) {
      const sorted = o.rewarms.map((r) => r.slices).sort((a, b) => a - b);
      const unsettled = o.rewarms.filter((r) => !r.settled).length;
      warm += `: median ${sorted[Math.floor((sorted.length - 1) / 2)]}, ${unsettled} of ${o.rewarms.length} unsettled`;
    }
  }
  return `${count} × ${o.seconds} s rounds (${warm})`;
}
