/**
 * The one place the kit reads the files it ships beside its code (`schema.graphql`, `openapi.yaml`, the legacy SDL,
 * `package.json`, the built pages under `dist/ui/`), so the mock serves the published sources themselves rather than
 * copies compiled into `dist`. From the npm package they are read from disk: this works from the sources
 * (`src/internal/`), from the ESM and CommonJS bundles (`dist/`) and from the CLI's (`dist/cli/`). The single
 * executable (`npm run build:binary`) carries them inside itself and installs its own reader with
 * {@link installPackagedFiles} before anything reads them.
 *
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageName = 'payment-contract-kit';

/** Where packaged files come from when they are not on disk (the single executable's assets). */
export interface PackagedFileSource {
  /** The file's bytes, or undefined when this source does not hold it. `relative` uses `/`, from the package root. */
  read(relative: string): Uint8Array | undefined;
  /** Where the files are, for messages and pages: "inside the payment-contract-kit executable". */
  readonly description: string;
}

let source: PackagedFileSource | undefined;

/**
 * Makes every packaged-file read go to `files` instead of the disk (undefined: back to the disk); the single
 * executable's entry calls it first.
 *
 * @example
 * installPackagedFiles({ read: (name) => assets.get(name), description: 'inside the executable' });
 */
export function installPackagedFiles(files: PackagedFileSource | undefined): void {
  source = files;
}

/** This module's file: `import.meta.url` in ESM, `__filename` in the CommonJS bundle. */
function thisFile(): string | undefined {
  const url = (import.meta as { url?: string }).url;
  if (typeof url === 'string' && url.startsWith('file:')) return fileURLToPath(url);
  return typeof __filename === 'string' ? __filename : undefined;
}

let root: string | null | undefined;

/**
 * The package's root folder (holding its package.json), or undefined when it cannot be found or the files are not on
 * disk (the single executable).
 */
export function packageRoot(): string | undefined {
  if (source !== undefined) return undefined;
  if (root !== undefined) return root ?? undefined;
  root = null;
  const start = thisFile();
  let dir = start === undefined ? undefined : dirname(start);
  for (let i = 0; dir !== undefined && i < 8; i++) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === packageName) {
          root = dir;
          break;
        }
      } catch {
        // An unreadable manifest on the way up is not ours; keep looking.
      }
    }
    const parent = dirname(dir);
    dir = parent === dir ? undefined : parent;
  }
  return root ?? undefined;
}

/** Absolute path of a shipped file on disk, or undefined when the package root or the file is missing. */
export function packageFile(relative: string): string | undefined {
  const base = packageRoot();
  if (base === undefined) return undefined;
  const path = join(base, relative);
  return existsSync(path) ? path : undefined;
}

/**
 * The bytes of a shipped file (`relative` from the package root, with `/`), from the installed source or from disk;
 * undefined when it is missing. Read on each call: callers that serve a file often keep what they read.
 *
 * @example
 * const sdl = readPackagedFile('schema.graphql')?.toString();
 */
export function readPackagedFile(relative: string): Buffer | undefined {
  if (source !== undefined) {
    const bytes = source.read(relative);
    return bytes === undefined ? undefined : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  const path = packageFile(relative);
  return path === undefined ? undefined : readFileSync(path);
}

/** Where the shipped files are read from, for messages: the package folder, or the installed source's description. */
export function packagedFilesLocation(): string {
  return source?.description ?? packageRoot() ?? `the ${packageName} package (not found)`;
}
