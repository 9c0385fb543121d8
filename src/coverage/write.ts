/**
 * Writing coverage reports from a test run: {@link writeCoverageReport} writes one (to a file, or to a file of its
 * own in a folder, so parallel test files never overwrite each other), and {@link coverageAfterAll} registers that
 * write with the test runner's `afterAll` (vitest, Jest, Mocha's `after`), so a setup file holds one line.
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CoverageReport } from '../contract/coverage/report.ts';
import { kitMessage } from '../internal/messages.ts';

/** Where a report goes: one `file`, or a `dir` where each call writes a file of its own. */
export type CoverageTarget = { readonly file: string } | { readonly dir: string };

/**
 * Writes `report` as JSON to `target` (folders created); answers the file written.
 *
 * @example
 * writeCoverageReport(mock.coverage(), { dir: 'pck-coverage' }); // 'pck-coverage/coverage-4242-1f0c….json'
 */
export function writeCoverageReport(report: CoverageReport, target: CoverageTarget): string {
  const file = 'file' in target ? target.file : join(target.dir, `coverage-${process.pid}-${randomUUID()}.json`);
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  } catch (error) {
    throw new Error(kitMessage(`cannot write the coverage report to ${file} (${String(error)}).`), { cause: error });
  }
  return file;
}

/**
 * Registers with `afterAll` the write of `source`'s report (the msw handlers, a `startMockServer` mock, or anything
 * with `coverage()` or `control.coverage()`) to `target`. Give a `dir` when several test files run: each writes its
 * own file, and `payment-contract-kit coverage <dir>/*.json` merges them.
 *
 * @example
 * import { afterAll } from 'vitest';
 * coverageAfterAll(afterAll, mock, { dir: 'pck-coverage' });
 */
export function coverageAfterAll(
  afterAll: (fn: () => void) => unknown,
  source: { coverage(): CoverageReport } | { readonly control: { coverage(): CoverageReport } },
  target: CoverageTarget,
): void {
  afterAll(() => {
    writeCoverageReport('coverage' in source ? source.coverage() : source.control.coverage(), target);
  });
}
