/**
 * Finds the files the package ships beside its code (`schema.graphql`, `openapi.yaml`, the legacy SDL, README.md),
 * so the mock serves the published sources themselves rather than copies compiled into `dist`. Works from the
 * sources (`src/mock/internal/`), from the ESM and CommonJS bundles (`dist/`) and from the CLI's (`dist/cli/`).
 *
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageName = 'payment-contract-kit';

/** This module's file: `import.meta.url` in ESM, `__filename` in the CommonJS bundle. */
function thisFile(): string | undefined {
  const url = (import.meta as { url?: string }).url;
  if (typeof url === 'string' && url.startsWith('file:')) return fileURLToPath(url);
  return typeof __filename === 'string' ? __filename : undefined;
}

let root: string | null | undefined;

/** The package's root folder (holding its package.json), or undefined when it cannot be found. */
export function packageRoot(): string | undefined {
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

/** Absolute path of a shipped file, or undefined when the package root or the file is missing. */
export function packageFile(relative: string): string | undefined {
  const base = packageRoot();
  if (base === undefined) return undefined;
  const path = join(base, relative);
  return existsSync(path) ? path : undefined;
}
