/**
 * The kit as a front-end team's bundler sees it: the packed tarball unpacked into a consumer's node_modules, and
 * esbuild (`--platform=browser`, the `browser` condition) bundling code that imports it. The consumer's other
 * packages (msw, graphql) come from this repository's node_modules, one copy each, as a consumer has.
 *
 * @module
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { ensureBuilt, packKit, root, run } from '../../package/support/packed-kit.ts';

/** A consumer folder with the packed kit installed in its node_modules. */
export interface PackedConsumer {
  readonly dir: string;
  /** Bundles `source` (a module's text) for the browser; throws with esbuild's messages when it cannot. */
  bundle(source: string, options?: BundleOptions): Promise<BrowserBundle>;
  remove(): Promise<void>;
}

/** How {@link PackedConsumer.bundle} bundles. */
export interface BundleOptions {
  readonly external?: string[];
  readonly minify?: boolean;
  /**
   * `browser` (the default: esbuild's browser platform, as Vite and webpack resolve for a page) or `worker` (the
   * neutral platform with only the `worker` condition, as edge-worker bundlers resolve).
   */
  readonly target?: 'browser' | 'worker';
}

/** One bundle: its code, the inputs esbuild read, and its size. */
export interface BrowserBundle {
  readonly code: string;
  readonly inputs: readonly string[];
  /** Imports esbuild left unbundled (externals), by specifier. */
  readonly externals: readonly string[];
  readonly bytes: number;
  readonly gzipBytes: number;
}

/** Builds dist when needed, packs the kit and unpacks the tarball as `node_modules/payment-contract-kit`. */
export async function packedConsumer(): Promise<PackedConsumer> {
  await ensureBuilt(['dist/browser/msw.js', 'dist/browser/mock.js', 'dist/msw.js', 'dist/client.js']);
  const dir = await mkdtemp(join(tmpdir(), 'pck-browser-'));
  const tarball = join(dir, await packKit(dir));
  const kit = join(dir, 'node_modules', 'payment-contract-kit');
  await mkdir(kit, { recursive: true });
  await run('tar', ['-xzf', tarball, '-C', kit, '--strip-components=1'], dir);
  return {
    dir,
    async bundle(source, options = {}) {
      const entry = join(dir, `entry-${Math.random().toString(36).slice(2)}.ts`);
      await writeFile(entry, source);
      const worker = options.target === 'worker';
      const result = await esbuild.build({
        entryPoints: [entry],
        bundle: true,
        platform: worker ? 'neutral' : 'browser',
        ...(worker ? { conditions: ['worker'], mainFields: ['module', 'main'] } : {}),
        format: 'esm',
        target: 'es2022',
        minify: options.minify ?? true,
        write: false,
        metafile: true,
        logLevel: 'silent',
        external: options.external ?? [],
        // msw and graphql: the consumer's copies, found after the consumer's own node_modules.
        nodePaths: [join(root, 'node_modules')],
        absWorkingDir: dir,
      });
      const code = result.outputFiles[0]!.text;
      const output = Object.values(result.metafile.outputs)[0]!;
      return {
        code,
        inputs: Object.keys(result.metafile.inputs),
        externals: (output.imports ?? []).filter((i) => i.external).map((i) => i.path),
        bytes: Buffer.byteLength(code),
        gzipBytes: gzipSync(code, { level: 9 }).length,
      };
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Node built-ins among `specifiers` (`node:fs`, `fs`, `buffer`, ...). */
export function nodeBuiltins(specifiers: readonly string[]): string[] {
  return specifiers.filter((s) => s.startsWith('node:') || isBuiltin(s));
}
