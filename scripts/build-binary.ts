// Builds the single executable, dist/bin/payment-contract-kit (payment-contract-kit.exe on Windows), for the platform
// this runs on, with Node's single executable applications: the CLI (src/cli/binary.ts, which runs src/cli/main.ts
// and so every command it lists) bundled into one CommonJS script, the files it reads at run time embedded as
// assets, and both injected into a copy of the Node binary running this script. Run by `npm run build:binary` after
// `npm run build`, which writes the pages (dist/ui/) embedded here. Nothing is fetched from a network.
//
//   tsx scripts/build-binary.ts [--out <file>]
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { publishedSchemaFiles } from '../src/contract/guides.ts';
import { injectQuietly, prepareSeaBlobQuietly } from './quiet-inject.ts';

const root = join(import.meta.dirname, '..');
// The fuse Node's binary carries to say a blob may be injected (documented with single executable applications).
const fuse = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/** The shipped files the CLI reads at run time through src/internal/package-files.ts, by package-relative path. */
function assetFiles(): string[] {
  const manifestPath = join(root, 'dist/ui/manifest.json');
  if (!existsSync(manifestPath))
    throw new Error(
      '[payment-contract-kit] dist/ui/manifest.json is missing: run "npm run build" first ("npm run build:binary" does).',
    );
  const pages = Object.values(JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, string>);
  return [
    'package.json',
    'openapi.yaml',
    ...Object.values(publishedSchemaFiles),
    'dist/ui/manifest.json',
    ...pages.map((file) => `dist/ui/${file}`),
  ];
}

/** The CLI and everything it imports, as one CommonJS script (a single executable runs CommonJS only). */
async function bundle(outFile: string): Promise<void> {
  await build({
    entryPoints: [join(root, 'src/cli/binary.ts')],
    outfile: outFile,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minify: true,
    legalComments: 'none',
    // graphql-jit deep-requires graphql's CommonJS files, so every import of graphql must resolve to them too, or the
    // bundle holds two graphql realms. (The npm CLI, an ESM bundle, resolves all of them to graphql's ESM files.)
    mainFields: ['main', 'module'],
    // import.meta.url only serves the disk lookups of the npm package, which the executable's assets replace.
    logOverride: { 'empty-import-meta': 'silent' },
    logLevel: 'warning',
  });
}

/** The executable's name for this platform. */
function defaultOutput(): string {
  return join(root, 'dist/bin', process.platform === 'win32' ? 'payment-contract-kit.exe' : 'payment-contract-kit');
}

/** Runs a platform tool (codesign), printing nothing unless it fails. */
function tool(command: string, args: string[]): void {
  execFileSync(command, args, { stdio: ['ignore', 'ignore', 'inherit'] });
}

/** Embedded assets (`node:sea`'s getAsset) came with Node 20.12; the executable runs the Node that builds it. */
function checkNode(): void {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 12))
    throw new Error(
      `[payment-contract-kit] build:binary needs Node 20.12 or newer (single executable assets); this is ${process.version}: build with a newer Node.`,
    );
}

async function main(): Promise<void> {
  checkNode();
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  const output = resolve(values.out ?? defaultOutput());
  const work = mkdtempSync(join(tmpdir(), 'pck-binary-'));
  try {
    const script = join(work, 'cli.cjs');
    await bundle(script);
    const blob = join(work, 'sea-prep.blob');
    const config = {
      main: script,
      output: blob,
      disableExperimentalSEAWarning: true,
      // V8's compiled code for the script travels in the blob: the executable skips compiling it at start.
      useCodeCache: true,
      assets: Object.fromEntries(assetFiles().map((file) => [file, join(root, file)])),
    };
    await writeFile(join(work, 'sea-config.json'), JSON.stringify(config));
    prepareSeaBlobQuietly(join(work, 'sea-config.json'));

    mkdirSync(dirname(output), { recursive: true });
    rmSync(output, { force: true });
    copyFileSync(process.execPath, output);
    chmodSync(output, 0o755);
    // macOS refuses a signed binary changed after signing: the signature goes before the injection, comes back after.
    if (process.platform === 'darwin') tool('codesign', ['--remove-signature', output]);
    await injectQuietly(output, 'NODE_SEA_BLOB', readFileSync(blob), {
      sentinelFuse: fuse,
      ...(process.platform === 'darwin' ? { machoSegmentName: 'NODE_SEA' } : {}),
    });
    if (process.platform === 'darwin') tool('codesign', ['--sign', '-', output]);
    const mb = (statSync(output).size / 1024 / 1024).toFixed(1);
    process.stdout.write(`Wrote ${output} (${mb} MiB, Node ${process.version}, ${process.platform}-${process.arch})\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
