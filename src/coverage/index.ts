/**
 * `payment-contract-kit/coverage`: what a suite exercised of the service's behaviours (docs/coverage.md). The mock
 * collects it wherever it runs (`control.coverage()`, `GET /__pck/coverage`, msw's `coverage()`, `--coverage-file`);
 * this entry reads, merges, words and writes the reports, and holds the small vitest helper that writes one file per
 * test file after a run, for `payment-contract-kit coverage <files> --min 80` to gate on.
 *
 * @example
 * // vitest.setup.ts
 * import { afterAll } from 'vitest';
 * import { coverageAfterAll } from 'payment-contract-kit/coverage';
 * import { mock } from './mock-handlers';
 * coverageAfterAll(afterAll, mock, { dir: 'pck-coverage' });
 *
 * @module
 */
export { type Behaviour, behaviourCatalogue } from '../contract/coverage/catalogue.ts';
export {
  type CoverageReport,
  type CoveredBehaviour,
  coveragePercent,
  coverageReport,
  mergeCoverageReports,
  readCoverageReport,
} from '../contract/coverage/report.ts';
export { coverageHint, coverageJunit, coverageText } from '../contract/coverage/report-formats.ts';
export { type CoverageTarget, coverageAfterAll, writeCoverageReport } from './write.ts';
