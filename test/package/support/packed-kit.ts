/**
 * Helpers for tests that use the kit as consumers get it: build `dist/` when it is missing, pack the tarball, run a
 * command with its output kept for the failure message, and install a consumer project from the tarball.
 *
 * @module
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** The repository root. */
export const root = join(import.meta.dirname, '../../..');

/** Runs `cmd` in `cwd`; a failure throws with the command and its whole output, so the test report shows why. */
export async function run(
  cmd: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ stdout: string; stderr: string }> {
  return execFileAsync(cmd, [...args], { cwd, env, maxBuffer: 64 * 1024 * 1024 }).catch(
    (error: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`${cmd} ${args.join(' ')} failed:\n${error.stdout ?? ''}\n${error.stderr ?? error.message}`);
    },
  );
}

/**
 * Builds `dist/` when one of `files` (paths under the root) is missing: `npm test` builds before vitest, so this
 * only runs when a test file runs on its own.
 */
export async function ensureBuilt(files: readonly string[] = ['dist/index.js', 'dist/mock.js']): Promise<void> {
  if (files.some((f) => !existsSync(join(root, f)))) await run('npm', ['run', 'build', '--silent'], root);
}

/**
 * Puts the kit's tarball into `dir` and answers its file name: a copy of the one the package tier packed for the
 * whole run (`PCK_PACKED_TARBALL`, test/support/packed-kit-setup.ts), or a fresh `npm pack` when a file runs alone.
 */
export async function packKit(dir: string): Promise<string> {
  const shared = process.env.PCK_PACKED_TARBALL;
  if (shared === undefined) return packKitFresh(dir);
  await copyFile(shared, join(dir, basename(shared)));
  return basename(shared);
}

/**
 * Packs the kit into `dir` (`npm pack`) and answers the tarball's file name. npm's report of what it packed (the
 * files and sizes) is kept beside the tarball as `<tarball>.json`, for {@link packedContents}.
 */
export async function packKitFresh(dir: string): Promise<string> {
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dir], root);
  const [report] = JSON.parse(stdout) as [PackedContents & { filename: string }];
  await writeFile(join(dir, `${report.filename}.json`), JSON.stringify(report));
  return report.filename;
}

/** What `npm pack` reports it put in the tarball: each file with its size, and the unpacked total. */
export interface PackedContents {
  readonly files: readonly { readonly path: string; readonly size: number }[];
  readonly unpackedSize: number;
}

/**
 * What the tarball holds, as npm reported it: the report kept beside the run's shared tarball (`PCK_PACKED_TARBALL`),
 * or `npm pack --dry-run` when a file runs alone. The same `dist/` either way: the run packs after it builds.
 */
export async function packedContents(): Promise<PackedContents> {
  const shared = process.env.PCK_PACKED_TARBALL;
  if (shared !== undefined && existsSync(`${shared}.json`))
    return JSON.parse(await readFile(`${shared}.json`, 'utf8')) as PackedContents;
  const { stdout } = await run('npm', ['pack', '--dry-run', '--json'], root);
  return (JSON.parse(stdout) as [PackedContents])[0];
}

/**
 * `npm install` in `cwd` at `warn` level, so an engine warning anywhere in the tree shows in the output it answers.
 * `--prefer-offline` and a shared `cacheDir` keep repeated installs from the network.
 */
export async function npmInstall(cwd: string, extra: readonly string[] = [], cacheDir?: string): Promise<string> {
  const args = ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=warn', ...extra];
  if (cacheDir) args.push('--cache', cacheDir);
  const { stdout, stderr } = await run('npm', args, cwd);
  return `${stdout}\n${stderr}`;
}

/** The command that runs `args` under Node `major` from the npm registry's `node` package (npx caches it). */
export function onNode(major: string, args: readonly string[]): [string, string[]] {
  return ['npx', ['-y', '-p', `node@${major}`, 'node', ...args]];
}
