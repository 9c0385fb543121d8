/**
 * The report of `npm run check:majors`: for each peer, TypeScript and Node, the newest major on the registry beside
 * the majors the peer range admits and the matrix covers. Kept free of I/O so a test can feed it any registry.
 *
 * @module
 */
import { coveredMajors, type Tracked } from './cells.ts';

/** One row of the report. */
export interface MajorRow {
  readonly name: Tracked;
  /** The newest major the registry has (its `latest` tag), or undefined when it could not be read. */
  readonly newest: string | undefined;
  /** Majors the matrix runs. */
  readonly covered: readonly string[];
  /** Majors the package.json range admits (`^N` parts of a peer range; `>=N` of engines as N). */
  readonly admitted: readonly string[];
  /** `covered`: the newest major is tested; `new major`: it is not; `unknown`: the registry did not answer. */
  readonly status: 'covered' | 'new major' | 'unknown';
}

/** The majors a range like `^16.15.0 || ^17.1.0` (or `>=20`) names, as strings. */
export function majorsOfRange(range: string | undefined): string[] {
  return [...(range ?? '').matchAll(/(?:\^|>=|~)?\s*(\d+)(?:\.[\dx*]+){0,2}/g)].map((m) => m[1]!);
}

/**
 * Builds the report from the newest major of each tracked package and package.json's ranges.
 *
 * @example
 * majorsReport({ graphql: '18' }, pkg).find((r) => r.name === 'graphql')?.status; // 'new major'
 */
export function majorsReport(
  newest: Partial<Record<Tracked, string>>,
  pkg: { peerDependencies?: Record<string, string>; engines?: Record<string, string> },
): MajorRow[] {
  const covered = coveredMajors();
  const names: Tracked[] = ['graphql', '@pact-foundation/pact', 'msw', 'typescript', 'node'];
  return names.map((name) => {
    const range = name === 'node' ? pkg.engines?.node : pkg.peerDependencies?.[name];
    const latest = newest[name];
    const status = latest === undefined ? 'unknown' : covered[name].includes(latest) ? 'covered' : 'new major';
    return { name, newest: latest, covered: covered[name], admitted: majorsOfRange(range), status };
  });
}
