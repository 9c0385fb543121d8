// Builds the mock's browser pages into dist/ui/ (run by tsup's onSuccess in `npm run build`): GraphiQL and the dashboard are
// bundled with esbuild from src/ui/, Swagger UI's prebuilt bundle is copied from swagger-ui-dist. Every file gets a
// content hash in its name, so the mock serves it as immutable; dist/ui/manifest.json maps logical names to files.
// The kit's operations/ documents are compiled into the GraphiQL bundle as its examples. Nothing is fetched from a
// network, at build time or at run time.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { build } from 'esbuild';

const root = join(import.meta.dirname, '..');
const outDir = join(root, 'dist/ui');

/**
 * The order of the tabs: the order of the interface document's sections, which each current-guide operation names in
 * its first line (`(spec 4.4)`), so the first tab is the fee list, the first step of a payment. The legacy guide's
 * files have the same names and take the same order; a file that names no section goes last.
 */
async function tabOrder(): Promise<string[]> {
  const dir = join(root, 'operations', 'current');
  const files = (await readdir(dir)).filter((f) => f.endsWith('.graphql')).sort();
  const section = async (f: string) => /\(spec (\d+)\.(\d+)\)/.exec(await readFile(join(dir, f), 'utf8'));
  const keyed = await Promise.all(
    files.map(async (f) => {
      const m = await section(f);
      return { f, key: m ? Number(m[1]) * 1000 + Number(m[2]) : Number.MAX_SAFE_INTEGER };
    }),
  );
  return keyed.sort((x, y) => x.key - y.key).map(({ f }) => f);
}

/** The examples GraphiQL opens with: each guide's operation documents, read from operations/<guide>/. */
async function operationsOf(
  guide: 'current' | 'legacy',
  order: readonly string[],
): Promise<{ name: string; query: string }[]> {
  const dir = join(root, 'operations', guide);
  const files = (await readdir(dir)).filter((f) => f.endsWith('.graphql'));
  const rank = (f: string) => (order.includes(f) ? order.indexOf(f) : order.length);
  files.sort((x, y) => rank(x) - rank(y) || x.localeCompare(y));
  return Promise.all(
    files.map(async (f) => ({ name: basename(f, '.graphql'), query: await readFile(join(dir, f), 'utf8') })),
  );
}

/** Bundles one browser entry (with its CSS, if it imports any) and returns the output files by extension. */
async function bundle(entry: string, define: Record<string, string>): Promise<Map<string, Uint8Array>> {
  const result = await build({
    entryPoints: [join(root, entry)],
    bundle: true,
    write: false,
    outdir: 'out',
    format: 'iife',
    platform: 'browser',
    target: ['chrome115', 'firefox115', 'safari16'],
    minify: true,
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"', ...define },
    logLevel: 'warning',
  });
  return new Map(result.outputFiles.map((f) => [f.path.slice(f.path.lastIndexOf('.') + 1), f.contents]));
}

/** Name with a content hash: `graphiql.js` -> `graphiql.3f2a9c1d0b.js`. */
function hashed(name: string, contents: Uint8Array): string {
  const hash = createHash('sha256').update(contents).digest('hex').slice(0, 10);
  const dot = name.lastIndexOf('.');
  return `${name.slice(0, dot)}.${hash}${name.slice(dot)}`;
}

const files = new Map<string, Uint8Array>();
const order = await tabOrder();
const operations = { current: await operationsOf('current', order), legacy: await operationsOf('legacy', order) };
const graphiql = await bundle('src/ui/graphiql.ts', { __PCK_OPERATIONS__: JSON.stringify(operations) });
const dashboard = await bundle('src/ui/dashboard.ts', {});
const reference = await bundle('src/ui/reference.ts', {});
const swagger = join(root, 'node_modules/swagger-ui-dist');
const logical: [string, Uint8Array | undefined][] = [
  ['graphiql.js', graphiql.get('js')],
  ['graphiql.css', graphiql.get('css')],
  ['dashboard.js', dashboard.get('js')],
  ['dashboard.css', dashboard.get('css')],
  ['reference.js', reference.get('js')],
  ['reference.css', reference.get('css')],
  // Swagger UI's own bundle, as published (it is already minified; rebuilding it gains nothing).
  ['swagger-ui-bundle.js', await readFile(join(swagger, 'swagger-ui-bundle.js'))],
  ['swagger-ui.css', await readFile(join(swagger, 'swagger-ui.css'))],
];
const manifest: Record<string, string> = {};
for (const [name, contents] of logical) {
  if (contents === undefined) throw new Error(`build-ui: ${name} was not produced; check its entry's imports.`);
  // Source map comments point at files that are not shipped; drop them so browsers do not ask for them.
  const text = name.endsWith('.js') || name.endsWith('.css') ? stripSourceMap(contents) : contents;
  const file = hashed(name, text);
  manifest[name] = file;
  files.set(file, text);
}

function stripSourceMap(contents: Uint8Array): Uint8Array {
  const text = Buffer.from(contents).toString('utf8');
  return Buffer.from(text.replace(/\n?\/[/*]# sourceMappingURL=[^\n]*$/gm, ''), 'utf8');
}

await rm(outDir, { recursive: true, force: true });
await mkdir(outDir, { recursive: true });
for (const [file, contents] of files) await writeFile(join(outDir, file), contents);
await writeFile(join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
const total = [...files.values()].reduce((n, c) => n + c.byteLength, 0);
if (!process.argv.includes('--silent'))
  console.log(`build-ui: ${files.size} files, ${(total / 1e6).toFixed(2)} MB in dist/ui`);
