// A clean `npm ci` of this repository on every supported Node: no EBADENGINE warning (a locked package whose
// `engines` leaves out Node 20) and no npm 11 install-script warning (an install script `allowScripts` does not
// cover). Both read the lockfile, so they fail as soon as a dependency update brings such a package back.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  allowScripts?: Record<string, boolean>;
};
interface LockedPackage {
  readonly version?: string;
  readonly optional?: boolean;
  readonly engines?: { readonly node?: string };
  readonly hasInstallScript?: boolean;
}
const locked = Object.entries(
  (JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockedPackage> })
    .packages,
).filter(([path]) => path !== '');

// The oldest Node 20 the development tools run on: vite and rolldown (vitest's) need 20.19.
const oldestNode20 = [20, 19, 0] as const;

const compare = (a: readonly number[], b: readonly number[]): number =>
  (a[0]! - b[0]!) * 1e6 + ((a[1] ?? 0) - (b[1] ?? 0)) * 1e3 + ((a[2] ?? 0) - (b[2] ?? 0));

/** One comparator of an npm range (`>=22.15.0`, `^20.17.0`, `20`, `<21.0.0`) against a version. */
function admitsOne(comparator: string, version: readonly number[]): boolean {
  const m = /^(>=|<=|>|<|\^|~|=)?v?(\d+)(?:\.(\d+|x))?(?:\.(\d+|x))?/.exec(comparator);
  if (!m) throw new Error(`unread engines comparator "${comparator}"`);
  const part = (text: string | undefined) => (text === undefined || text === 'x' ? undefined : Number(text));
  const [major, minor] = [Number(m[2]), part(m[3])];
  const floor = [major, minor ?? 0, part(m[4]) ?? 0];
  const diff = compare(version, floor);
  switch (m[1]) {
    case '>=':
      return diff >= 0;
    case '>':
      return diff > 0;
    case '<':
      return diff < 0;
    case '<=':
      return diff <= 0;
    case '~':
      return diff >= 0 && version[0] === major && version[1] === floor[1];
    default:
      // `^x.y.z`, or a bare `x` / `x.y`: the same major (and minor, when given without ^).
      return diff >= 0 && version[0] === major && (m[1] === '^' || minor === undefined || version[1] === minor);
  }
}

/** Whether an `engines.node` range (alternatives with `||`, comparators with spaces) admits a version. */
function rangeAdmits(range: string, version: readonly number[]): boolean {
  return range
    .replace(/(>=|<=|>|<|\^|~|=)\s+/g, '$1')
    .split('||')
    .map((alternative) => alternative.trim())
    .some((alternative) =>
      alternative
        .split(/\s+/)
        .filter((comparator) => comparator !== '' && comparator !== '*')
        .every((comparator) => admitsOne(comparator, version)),
    );
}

describe('a clean install of this repository', () => {
  it('reads engines ranges as npm does', () => {
    expect(rangeAdmits('>=22.15.0', oldestNode20)).toBe(false);
    expect(rangeAdmits('>=22.12.0 || >=20.19.0 <21.0.0', oldestNode20)).toBe(true);
    expect(rangeAdmits('^20.17.0 || >=22.9.0', oldestNode20)).toBe(true);
    expect(rangeAdmits('^20.12||^22||>=24', oldestNode20)).toBe(true);
    expect(rangeAdmits('18 || 20 || >=22', oldestNode20)).toBe(true);
    expect(rangeAdmits('^22.20 || ^24.12 || >=25', oldestNode20)).toBe(false);
    expect(rangeAdmits('>= 10.x', oldestNode20)).toBe(true);
    expect(rangeAdmits('6.* || 8.* || >= 10.*', oldestNode20)).toBe(true);
    expect(rangeAdmits('4.x || >=6.0.0', oldestNode20)).toBe(true);
    expect(rangeAdmits('^14.17.0 || ^16.13.0', oldestNode20)).toBe(false);
  });

  it('locks no required package that refuses Node 20 (npm ci would print EBADENGINE)', () => {
    // Optional packages are platform builds npm skips where they do not fit, without a warning.
    const refusing = locked
      .filter(([, p]) => !p.optional && p.engines?.node !== undefined && !rangeAdmits(p.engines.node, oldestNode20))
      .map(([path, p]) => `${path}@${p.version} (node ${p.engines?.node})`);
    expect(refusing).toEqual([]);
  });

  it('states, in package.json allowScripts, whether each install script may run', () => {
    const policy = manifest.allowScripts ?? {};
    const uncovered = locked
      .filter(([, p]) => p.hasInstallScript && !p.optional)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length))
      .filter((name) => policy[name] === undefined);
    expect(uncovered).toEqual([]);
    // esbuild's postinstall checks its platform binary; the others are telemetry, a version notice and msw's
    // worker copy (this project configures no worker folder), which the project does not need.
    expect(policy).toEqual({ esbuild: true, '@apollo/protobufjs': false, '@scarf/scarf': false, msw: false });
  });
});
