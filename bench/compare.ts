/**
 * `npm run bench:compare -- <first.json> <second.json>`: do two benchmark runs agree? Reads two results files written
 * by `npm run bench` (bench/results/latest-*.json), prints every paired figure of both with its spread and whether
 * they agree, and, when the second run was made with `--baseline` (the same build against itself), whether each
 * mock ÷ baseline CPU-per-request figure reads within 0.95–1.05. Exits 1 when a judged figure disagrees or falls
 * outside the band (req/s ratios to (a) and the peers are shown, not judged).
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { compareRuns, type RunFile, renderComparison, selfBaselineChecks } from './compare-runs.ts';

const [firstPath, secondPath] = process.argv.slice(2);
if (!firstPath || !secondPath) {
  process.stderr.write(
    '[payment-contract-kit] bench:compare: give two results files, e.g. bench/results/latest-*.json.\n',
  );
  process.exit(2);
}
const read = (path: string): RunFile => JSON.parse(readFileSync(path, 'utf8')) as RunFile;
const figures = compareRuns(read(firstPath), read(secondPath));
const self = selfBaselineChecks(read(secondPath));
process.stdout.write(`${renderComparison(figures, self)}\n`);
process.exit(figures.every((f) => f.agree || !f.judged) && self.every((s) => s.withinBand || !s.judged) ? 0 : 1);
