/**
 * The built browser assets (dist/ui/, made by scripts/build-ui.ts at `npm run build`): found next to the package,
 * read on first use and kept in memory, so a mock that no browser visits never touches the disk for them. Asset URLs
 * carry their content hash (`?v=`), so a matching request is cached for a year and any other is revalidated.
 *
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readPackagedFile } from '../../../internal/package-files.ts';

/** Logical asset names, as scripts/build-ui.ts writes them into dist/ui/manifest.json. */
export const assetNames = [
  'graphiql.js',
  'graphiql.css',
  'dashboard.js',
  'dashboard.css',
  'reference.js',
  'reference.css',
  'swagger-ui-bundle.js',
  'swagger-ui.css',
] as const;

/** One logical asset name. */
export type AssetName = (typeof assetNames)[number];

/** One asset, ready to send. */
export interface Asset {
  readonly contents: Uint8Array;
  readonly contentType: string;
  /** The content hash the build gave it; a request with `?v=<hash>` may be cached for good. */
  readonly version: string;
}

/** The assets of one package, or why they are missing. */
export interface AssetStore {
  /** The asset, or a message saying why it is missing (not built). */
  get(name: AssetName): Asset | string;
  /** The URL of an asset under `base`, with its version: `/__pck/ui/assets/graphiql.js?v=3f2a9c1d0b`. */
  url(base: string, name: AssetName): string | undefined;
}

const contentTypes: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

/**
 * Creates the store for the package this module belongs to (or `root` when given, for tests).
 *
 * @example
 * const assets = createAssetStore();
 * const js = assets.get('graphiql.js'); // Asset, or a "run npm run build" message
 */
export function createAssetStore(root?: string): AssetStore {
  let manifest: Record<string, string> | undefined | null;
  const cache = new Map<string, Asset>();
  const missing =
    'The browser pages are not built: run `npm run build` in the kit (it writes dist/ui/), or install the published package.';

  // A test's own root is read from disk; otherwise the package's files, through their one reader.
  function read(relative: string): Uint8Array | undefined {
    if (root === undefined) return readPackagedFile(relative);
    const path = join(root, relative);
    return existsSync(path) ? readFileSync(path) : undefined;
  }

  function locate(): Record<string, string> | undefined {
    if (manifest === undefined) {
      const text = read('dist/ui/manifest.json');
      manifest = text === undefined ? null : (JSON.parse(Buffer.from(text).toString('utf8')) as Record<string, string>);
    }
    return manifest ?? undefined;
  }

  function get(name: AssetName): Asset | string {
    const known = cache.get(name);
    if (known) return known;
    const file = locate()?.[name];
    if (file === undefined) return missing;
    const contents = read(`dist/ui/${file}`);
    if (contents === undefined) return missing;
    const version = /\.([0-9a-f]{10})\.[a-z]+$/.exec(file)?.[1] ?? '';
    const asset = {
      contents,
      contentType: contentTypes[name.slice(name.lastIndexOf('.') + 1)]!,
      version,
    };
    cache.set(name, asset);
    return asset;
  }

  return {
    get,
    url(base, name) {
      const asset = get(name);
      return typeof asset === 'string' ? undefined : `${base}${name}?v=${asset.version}`;
    },
  };
}
