/**
 * The msw entry's browser bundle: `createMockHandlers` bundled by esbuild for the browser from the built
 * `dist/browser/msw.js`, msw and graphql left out (a front-end app bundles its own copies anyway), minified, then
 * gzipped. `npm test` holds the same figure, measured from the packed tarball, to its budget
 * (test/msw/browser.test.ts); the benchmark reports it beside the other in-process figures.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { root } from './servers.ts';

/** Bytes of the msw entry's own browser code. */
export interface BrowserBundleSize {
  readonly minifiedBytes: number;
  readonly gzipBytes: number;
}

/** Bundles the entry as an app would import it; undefined when the browser build is missing (run `npm run build`). */
export async function measureBrowserBundle(): Promise<BrowserBundleSize | undefined> {
  const entry = join(root, 'dist', 'browser', 'msw.js');
  if (!existsSync(entry)) return undefined;
  const result = await esbuild.build({
    stdin: {
      contents: `import { createMockHandlers } from ${JSON.stringify(entry)};\nglobalThis.handlers = createMockHandlers;\n`,
      resolveDir: root,
      loader: 'js',
    },
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'esm',
    minify: true,
    external: ['msw', 'msw/*', 'graphql', 'graphql/*'],
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.contents ?? new Uint8Array();
  return { minifiedBytes: code.byteLength, gzipBytes: gzipSync(code, { level: 9 }).byteLength };
}
