/**
 * What the dashboard's coverage section makes of `GET /__pck/coverage`: the summary line, the rows a filter keeps,
 * and when the report is worth reading again. Pure functions, so the unit tier tests them against the mock's own
 * answers without a browser.
 *
 * @module
 */

/** One behaviour of the report, as the dashboard shows it. */
export interface BehaviourView {
  readonly id: string;
  readonly title: string;
  readonly spec: string;
  readonly covered: boolean;
  readonly count: number;
}

/** The coverage report (`{ behaviours, covered, total }`, docs/coverage.md). */
export interface CoverageView {
  readonly behaviours: readonly BehaviourView[];
  readonly covered: number;
  readonly total: number;
}

/** Which behaviours the section lists: every one, those never exercised, or those exercised. */
export type CoverageFilter = 'all' | 'never' | 'covered';

/** The filters in the order the select offers them, with their labels. */
export const coverageFilters: readonly (readonly [CoverageFilter, string])[] = [
  ['all', 'all'],
  ['never', 'never exercised'],
  ['covered', 'exercised'],
];

/**
 * The section's summary line.
 *
 * @example
 * coverageSummary({ behaviours: [], covered: 9, total: 53 }); // '9 of 53 behaviours exercised (17.0%) since the mock started; a reset keeps the counts.'
 */
export function coverageSummary(report: Pick<CoverageView, 'covered' | 'total'>): string {
  const percent = report.total === 0 ? 100 : (report.covered / report.total) * 100;
  return `${report.covered} of ${report.total} behaviours exercised (${percent.toFixed(1)}%) since the mock started; a reset keeps the counts.`;
}

/**
 * The behaviours `filter` keeps, in the report's order (the catalogue's, by section of the interface document).
 *
 * @example
 * coverageRows(report, 'never').every((b) => !b.covered); // true
 */
export function coverageRows(report: CoverageView, filter: CoverageFilter): readonly BehaviourView[] {
  if (filter === 'all') return report.behaviours;
  const covered = filter === 'covered';
  return report.behaviours.filter((b) => b.covered === covered);
}

/** The counters of `GET /__pck/health` the coverage signal reads. */
export interface CoverageSignalSource {
  readonly payments: { readonly version: number };
  readonly deliveries: { readonly version: number };
  readonly requests: { readonly cursor: number };
}

/**
 * A key that changes whenever a count of the report can have: the report counts answered service requests (each
 * moves the journal's cursor), accepted and settled payments (the payments' version) and finished webhook deliveries
 * (the deliveries' version). The dashboard reads the report again only when the key moved, so an idle mock costs it
 * the health poll alone, as every other list.
 *
 * @example
 * coverageSignal(health.history); // '3/1/12'
 */
export function coverageSignal(history: CoverageSignalSource): string {
  return `${history.payments.version}/${history.deliveries.version}/${history.requests.cursor}`;
}
