/**
 * Writes a release's artifacts into one folder (`release/` unless `--out`), until the kit is published: the npm
 * package as `npm pack` makes it, the single executable for this platform (scripts/build-binary.ts), and
 * `SHA256SUMS` with a checksum of each, in `sha256sum` format (`sha256sum -c SHA256SUMS` checks them). An earlier
 * release's files in the folder are removed first, so it never mixes two releases. Run by `npm run release` after `npm run build`, which writes the
 * `dist/` both are made from.
 *
 *   tsx scripts/release.ts [--out <folder>] [--binary <built executable>]
 *
 * `--binary` takes an executable already built from this `dist/` instead of building it again (the test run has one).
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(import.meta.dirname, '..');

/** The checksum file's name, as in most releases that ship `sha256sum` output. */
export const checksumFileName = 'SHA256SUMS';

/**
 * The single executable's name in a release: the platform and architecture in Node's names, as one release job per
 * platform uploads it (docs/single-executable.md), `.exe` on Windows.
 */
export function binaryFileName(platform: NodeJS.Platform = process.platform, arch: string = process.arch): string {
  return `payment-contract-kit-${platform}-${arch}${platform === 'win32' ? '.exe' : ''}`;
}

/** One artifact: its file name in the release folder and its bytes. */
export interface Artifact {
  readonly name: string;
  readonly bytes: Uint8Array;
}

/**
 * The checksum file's text: one `<sha-256 in hex>  <file name>` line per artifact, sorted by name, as `sha256sum`
 * prints it (two spaces: text mode, which `sha256sum -c` and `shasum -a 256 -c` both read).
 */
export function checksumFile(artifacts: readonly Artifact[]): string {
  return [...artifacts]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map(({ name, bytes }) => `${createHash('sha256').update(bytes).digest('hex')}  ${name}\n`)
    .join('');
}

/** Whether a file in the release folder is a release's artifact (the next release replaces it). */
export const isReleaseFile = (name: string): boolean =>
  name === checksumFileName ||
  /^payment-contract-kit-.+\.(tgz|exe)$|^payment-contract-kit-[a-z0-9]+-[a-z0-9]+$/.test(name);

/** `npm pack` into `dir`; answers the tarball's file name. */
function pack(dir: string): string {
  const stdout = execFileSync('npm', ['pack', '--json', '--silent', '--pack-destination', dir], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
  return filename;
}

/** The single executable at `file`: copied from `built`, or built (about a minute) with this script's Node. */
function executable(file: string, built: string | undefined): void {
  if (built !== undefined) {
    copyFileSync(built, file);
    return;
  }
  // The same loader flags as this script (tsx), so build-binary.ts runs from source as `npm run build:binary` does.
  execFileSync(process.execPath, [...process.execArgv, join(root, 'scripts/build-binary.ts'), '--out', file], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** Writes the release into `out` and answers the artifacts' file names, the checksum file last. */
export async function writeRelease(out: string, built?: string): Promise<string[]> {
  mkdirSync(out, { recursive: true });
  // Only an earlier release's own files go: a mistyped --out (the repository itself) loses nothing else.
  for (const name of readdirSync(out))
    if (isReleaseFile(name)) rmSync(join(out, name), { recursive: true, force: true });
  const tarball = pack(out);
  const binary = binaryFileName();
  executable(join(out, binary), built);
  const artifacts = [tarball, binary].map((name) => ({ name, bytes: readFileSync(join(out, name)) }));
  await writeFile(join(out, checksumFileName), checksumFile(artifacts));
  return [tarball, binary, checksumFileName];
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { out: { type: 'string' }, binary: { type: 'string' } } });
  const out = resolve(values.out ?? join(root, 'release'));
  const names = await writeRelease(out, values.binary === undefined ? undefined : resolve(values.binary));
  process.stdout.write(`Wrote the release to ${out}:\n${names.map((name) => `  ${name}\n`).join('')}`);
}

// Imported by the tests for its pure parts; run as a script, it writes the release.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(`[payment-contract-kit] release: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
