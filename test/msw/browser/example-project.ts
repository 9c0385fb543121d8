/**
 * An example project from `examples/` as a team has it, in a temporary directory: its pinned tools installed once
 * per manifest and kept in a cache directory, then hard-linked into each run's copy, with the packed kit unpacked
 * into its node_modules. The tools (Vitest's browser mode, Storybook) are never dependencies of the kit itself.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, packKit, root, run } from '../../package/support/packed-kit.ts';

/** A run's copy of an example project. */
export interface ExampleProject {
  readonly dir: string;
  /** Runs `args` under this Node in the project, with `env` added to the process environment. */
  node(args: readonly string[], env?: NodeJS.ProcessEnv): Promise<{ stdout: string; stderr: string }>;
  remove(): Promise<void>;
}

/** Files of an example that are not its sources: installs, build output, the worker script `msw init` copies. */
const generated = /[\\/](node_modules|storybook-static|mockServiceWorker\.js|results\.json)$|\.tgz$/;

/** Never a downloaded browser: the tests drive Debian's Chromium. */
const noDownloads = { PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', STORYBOOK_DISABLE_TELEMETRY: '1' };

/**
 * The manifest the cache installs: the example's, with the kit replaced by the kit's own dependencies (the kit comes
 * from this run's tarball; what `npm install` of it would add is there already).
 */
async function toolsManifest(example: string): Promise<string> {
  const manifest = JSON.parse(await readFile(join(root, 'examples', example, 'package.json'), 'utf8'));
  const kit = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { dependencies: object };
  delete manifest.dependencies['payment-contract-kit'];
  manifest.dependencies = { ...manifest.dependencies, ...kit.dependencies };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/**
 * The example's tools, installed once per manifest (the cache key is its hash, so a version bump installs afresh).
 * The install happens in a staging directory renamed into place when complete, so an interrupted install is never
 * taken for a finished one.
 */
async function installedTools(example: string): Promise<string> {
  const manifest = await toolsManifest(example);
  const key = createHash('sha256').update(manifest).digest('hex').slice(0, 16);
  const cache = join(tmpdir(), `pck-example-${example}-${key}`);
  if (existsSync(join(cache, 'node_modules'))) return cache;
  const staging = await mkdtemp(`${cache}-staging-`);
  await writeFile(join(staging, 'package.json'), manifest);
  const args = ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];
  await run('npm', args, staging, { ...process.env, ...noDownloads });
  await rename(staging, cache).catch(async () => {
    // Another process finished the same install first: keep its copy.
    await rm(staging, { recursive: true, force: true });
  });
  return cache;
}

/**
 * Copies `examples/<example>` to a temporary directory, hard-links the cached tools into its node_modules and unpacks
 * the packed kit there as `payment-contract-kit`.
 */
export async function exampleProject(example: string): Promise<ExampleProject> {
  await ensureBuilt(['dist/browser/msw.js', 'dist/client.js']);
  const tools = await installedTools(example);
  const dir = await mkdtemp(join(tmpdir(), `pck-${example}-`));
  await cp(join(root, 'examples', example), dir, { recursive: true, filter: (source) => !generated.test(source) });
  // Hard links: a copy of the tools in a second instead of an install; the tools write only new files (caches).
  await run('cp', ['-al', join(tools, 'node_modules'), join(dir, 'node_modules')], dir);
  const tarball = join(dir, await packKit(dir));
  const kit = join(dir, 'node_modules', 'payment-contract-kit');
  await mkdir(kit);
  await run('tar', ['-xzf', tarball, '-C', kit, '--strip-components=1'], dir);
  return {
    dir,
    node: (args, env = {}) => run(process.execPath, args, dir, { ...process.env, ...noDownloads, ...env }),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
