/**
 * Which runs of `npm run bench` write the committed summary (bench/results/summary.{json,md}, copied into
 * docs/performance.md), and what goes into it. Only a full run does: every workload and every measurement, at the
 * default rounds, round length and payment count or more. A `--baseline` run is a full run too: the baseline build's
 * rows are left out of the summary, so its tables and targets read as a run without one would, and a change is
 * compared with the code before it and leaves a committed summary in one run. The terminal report and the raw
 * latest-<date>.json keep the baseline's rows.
 *
 * @module
 */
import type { Measurements } from './report.ts';

/** The settings of a full run; a run below any of them is quick or partial. */
export const FULL_RUN = { rounds: 12, seconds: 1, payments: 100_000, connections: 8 } as const;

/** The flags of `npm run bench` that decide whether a run is a full one (as node:util's parseArgs returns them). */
export interface SummaryFlags {
  readonly quick?: boolean | undefined;
  readonly only?: string | undefined;
  readonly servers?: string | undefined;
  readonly rounds?: string | undefined;
  readonly seconds?: string | undefined;
  readonly payments?: string | undefined;
  readonly connections?: string | undefined;
  readonly profile?: boolean | undefined;
  readonly 'no-cold-start'?: boolean | undefined;
  readonly 'no-memory'?: boolean | undefined;
  readonly 'no-latency-curve'?: boolean | undefined;
  readonly 'no-in-process'?: boolean | undefined;
  readonly 'no-proxy-latency'?: boolean | undefined;
  readonly 'no-shared-store'?: boolean | undefined;
  /** Not a reason to leave the summary alone: its rows are left out of it ({@link withoutBaseline}). */
  readonly baseline?: string | undefined;
}

/**
 * Whether a run writes the summary files: a full run of the mock (built or from src), with nothing skipped or cut
 * below {@link FULL_RUN} (nor at another number of connections). `--profile` does not: the profiler's own CPU lands in the servers' figures.
 *
 * @example
 * writesSummary({ baseline: '../kit-before' }, true) // true: the baseline rows are left out of the summary
 * writesSummary({ rounds: '3' }, true) // false
 */
export function writesSummary(flags: SummaryFlags, withMock: boolean): boolean {
  const atLeast = (value: string | undefined, full: number) => value === undefined || Number(value) >= full;
  return (
    withMock &&
    !flags.quick &&
    flags.only === undefined &&
    flags.servers === undefined &&
    atLeast(flags.rounds, FULL_RUN.rounds) &&
    atLeast(flags.seconds, FULL_RUN.seconds) &&
    atLeast(flags.payments, FULL_RUN.payments) &&
    // Another load is not a shorter run, but its figures are not comparable with the committed ones.
    (flags.connections === undefined || Number(flags.connections) === FULL_RUN.connections) &&
    !flags.profile &&
    !flags['no-cold-start'] &&
    !flags['no-memory'] &&
    !flags['no-latency-curve'] &&
    !flags['no-in-process'] &&
    !flags['no-proxy-latency'] &&
    !flags['no-shared-store']
  );
}

/** The server id of the `--baseline` build (servers.ts). */
const BASELINE = 'baseline';

/**
 * A run's measurements without the baseline build: its rounds in every workload and its cold starts. Every other
 * figure is paired with (a) or the mock alone, so what is left is what the same run without `--baseline` would hold.
 */
export function withoutBaseline(measured: Measurements): Measurements {
  return {
    ...measured,
    workloads: measured.workloads.map((w) => ({ ...w, runs: w.runs.filter((r) => r.server !== BASELINE) })),
    coldStart: Object.fromEntries(Object.entries(measured.coldStart).filter(([server]) => server !== BASELINE)),
  };
}
