/**
 * The coverage report: every behaviour of the catalogue with whether it was exercised and how often, as the mock
 * answers it at `GET /__pck/coverage`, writes it with `--coverage-file`, and `payment-contract-kit coverage` reads,
 * merges and gates on it. The JSON shape is `{ behaviours: [{ id, title, spec, guides, covered, count }], covered,
 * total }`, and nothing else: a report is a sum of counts, so reports of several processes merge by adding them.
 *
 * @module
 */
import type { GuideName } from '../guides.ts';
import type { Behaviour } from './catalogue.ts';

/** One behaviour in a report. */
export interface CoveredBehaviour {
  readonly id: string;
  readonly title: string;
  readonly spec: string;
  readonly guides: readonly GuideName[];
  /** Whether the behaviour was exercised at least once (`count > 0`). */
  readonly covered: boolean;
  /** How many times it was exercised. */
  readonly count: number;
}

/** A coverage report. */
export interface CoverageReport {
  readonly behaviours: readonly CoveredBehaviour[];
  /** Behaviours exercised at least once. */
  readonly covered: number;
  /** Behaviours in the catalogue. */
  readonly total: number;
}

function finish(behaviours: readonly CoveredBehaviour[]): CoverageReport {
  return { behaviours, covered: behaviours.filter((b) => b.covered).length, total: behaviours.length };
}

/**
 * The report of `catalogue` with `counts` (by behaviour id; ids outside the catalogue are ignored).
 *
 * @example
 * coverageReport(behaviourCatalogue(defaultAssumptions), new Map([['token.generate', 2]])).covered; // 1
 */
export function coverageReport(catalogue: readonly Behaviour[], counts: ReadonlyMap<string, number>): CoverageReport {
  return finish(
    catalogue.map(({ id, title, spec, guides }) => {
      const count = counts.get(id) ?? 0;
      return { id, title, spec, guides: [...guides], covered: count > 0, count };
    }),
  );
}

/**
 * Several reports as one: counts added by id, in the order of the first report that lists each behaviour (its
 * title, section and guides are kept). Merging is associative and commutative on the counts, so ten processes each
 * covering a part merge to what one process doing all of it reports.
 *
 * @example
 * mergeCoverageReports([fromWorker1, fromWorker2]).covered;
 */
export function mergeCoverageReports(reports: readonly CoverageReport[]): CoverageReport {
  const merged = new Map<string, CoveredBehaviour>();
  for (const report of reports)
    for (const b of report.behaviours) {
      const known = merged.get(b.id);
      const count = (known?.count ?? 0) + b.count;
      merged.set(b.id, { ...(known ?? b), guides: [...(known ?? b).guides], covered: count > 0, count });
    }
  return finish([...merged.values()]);
}

/**
 * The share of behaviours covered, in percent (0 to 100; 100 for an empty catalogue).
 *
 * @example
 * coveragePercent({ behaviours: [], covered: 3, total: 4 }); // 75
 */
export function coveragePercent(report: Pick<CoverageReport, 'covered' | 'total'>): number {
  return report.total === 0 ? 100 : (report.covered / report.total) * 100;
}

const isGuide = (v: unknown): v is GuideName => v === 'current' || v === 'legacy';

function behaviourProblem(b: unknown, i: number): string | undefined {
  if (b === null || typeof b !== 'object') return `behaviours[${i}] is not an object`;
  const r = b as Record<string, unknown>;
  for (const key of ['id', 'title', 'spec'] as const)
    if (typeof r[key] !== 'string') return `behaviours[${i}].${key} is not a string`;
  if (!Array.isArray(r.guides) || !r.guides.every(isGuide))
    return `behaviours[${i}].guides is not a list of "current" and "legacy"`;
  if (typeof r.count !== 'number' || !Number.isSafeInteger(r.count) || r.count < 0)
    return `behaviours[${i}].count is not a whole number`;
  if (r.covered !== r.count > 0) return `behaviours[${i}].covered does not agree with its count`;
  return undefined;
}

/**
 * Reads a report from parsed JSON: the report (recounted from its behaviours), or the reason it is not one.
 *
 * @example
 * const read = readCoverageReport(JSON.parse(text));
 * if (typeof read === 'string') throw new Error(`not a coverage report: ${read}`);
 */
export function readCoverageReport(value: unknown): CoverageReport | string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'it is not a JSON object';
  const behaviours = (value as { behaviours?: unknown }).behaviours;
  if (!Array.isArray(behaviours)) return 'it has no "behaviours" list';
  const seen = new Set<string>();
  for (const [i, b] of behaviours.entries()) {
    const problem = behaviourProblem(b, i);
    if (problem !== undefined) return problem;
    const id = (b as CoveredBehaviour).id;
    if (seen.has(id)) return `behaviour "${id}" is listed twice`;
    seen.add(id);
  }
  return finish(
    (behaviours as CoveredBehaviour[]).map(({ id, title, spec, guides, covered, count }) => ({
      id,
      title,
      spec,
      guides: [...guides],
      covered,
      count,
    })),
  );
}
