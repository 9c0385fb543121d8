/**
 * The servers of the benchmark: the mock under test and the references, each with the command that starts it as a
 * child process. Reference scripts are TypeScript, compiled once per run with esbuild into `.tmp/bench/` (so their
 * start-up and memory carry no TypeScript loader, as the mock's built CLI carries none).
 *
 * @module
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { freePort, type ServerCommand } from './processes.ts';

/** Root of the repository. */
export const root = resolve(import.meta.dirname, '..');

/** Every server the benchmark can start. */
export type ServerId =
  | 'mock'
  | 'baseline'
  | 'proxy'
  | 'proxy-floor'
  | 'rest-token'
  | 'rest-token-signed'
  | 'payment-floor'
  | 'graphql-execute'
  | 'prism'
  | 'yoga'
  | 'apollo';

/**
 * Whether a server speaks the service as the kit's mock does: the build under test, the `--baseline` build it is
 * compared with, or a proxy in front of the mock (the validating one, or the bare passthrough that is its floor).
 */
export const isMockServer = (id: ServerId): id is 'mock' | 'baseline' | 'proxy' | 'proxy-floor' =>
  id === 'mock' || id === 'baseline' || id === 'proxy' || id === 'proxy-floor';

/** Whether a server is a proxy in front of the mock (its own process's CPU is read apart from the mock's). */
export const isProxyServer = (id: ServerId): id is 'proxy' | 'proxy-floor' => id === 'proxy' || id === 'proxy-floor';

/** How each server is named in tables. */
export const serverLabels: Readonly<Record<ServerId, string>> = {
  mock: 'mock (payment-contract-kit)',
  baseline: 'mock, baseline build (--baseline)',
  proxy: 'proxy (checks on) in front of the mock',
  'proxy-floor': '(f) bare passthrough (node:http + undici Pool, no checks) in front of the mock',
  'rest-token': '(a) node:http, fixed token pair',
  'rest-token-signed': '(a′) node:http + HS256 sign (the generate-token floor)',
  'payment-floor': '(a″) node:http + JSON.parse of the payment, answer of its shape (the payment floor)',
  'graphql-execute': '(b) node:http + graphql-js execute',
  prism: '(c) Prism 5 mock of openapi.yaml',
  yoga: '(d) graphql-yoga + addMocksToSchema',
  apollo: '(e) Apollo Server 5 + addMocksToSchema',
};

const referenceScripts = {
  proxy: 'proxy-in-front',
  'rest-token': 'rest-token',
  'rest-token-signed': 'rest-token-signed',
  'payment-floor': 'payment-floor',
  'graphql-execute': 'graphql-execute',
  yoga: 'yoga-mocks',
  apollo: 'apollo-mocks',
} as const satisfies Partial<Record<ServerId, string>>;

const outDir = join(root, '.tmp', 'bench');
const schemaPath = join(root, 'schema.graphql');
/** The built CLI, wherever package.json's `bin` points (dist/cli.js at first, now dist/cli/index.js). */
const cliOf = (dir: string) =>
  join(
    dir,
    (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { bin?: Record<string, string> }).bin?.[
      'payment-contract-kit'
    ] ?? 'dist/cli.js',
  );
const cliPath = cliOf(root);

let baselineCli: string | undefined;

/**
 * Names the checkout whose built CLI runs as server `baseline` (`--baseline <dir>`): another commit of the kit,
 * built, so a change's cost on the hot path is measured against the code before it in the same run, on the same
 * machine. Throws when `dir` holds no built CLI.
 */
export function setBaseline(dir: string): void {
  const cli = existsSync(join(dir, 'package.json')) ? cliOf(resolve(dir)) : undefined;
  if (cli === undefined || !existsSync(cli))
    throw new Error(
      `[payment-contract-kit] bench: --baseline ${dir} holds no built CLI; check out the commit there and run \`npm run build\` in it.`,
    );
  baselineCli = cli;
}

/** The fee list query file, shared by reference (b) and the workloads. */
export const feesQueryPath = join(root, 'operations', 'current', 'payment-gateway-fees-calc.graphql');

const launcherSource = join(root, 'bench', 'mock-launcher.ts');
const gcProbeOut = join(outDir, 'gc-probe.mjs');
const launcherOut = join(outDir, 'mock-launcher.mjs');

/**
 * Compiles the reference scripts to `.tmp/bench/*.mjs` (dependencies stay external, resolved from node_modules),
 * and the library launcher of the mock when the CLI is not built but the mock's source exists.
 */
export async function buildReferences(): Promise<void> {
  const entryPoints = Object.values(referenceScripts).map((name) => join(root, 'bench', 'references', `${name}.ts`));
  entryPoints.push(join(root, 'bench', 'gc-probe.ts'), join(root, 'bench', 'references', 'bare-passthrough.ts'));
  // The launcher is built whenever the mock's source exists: it starts the mock when the CLI is not built, and for
  // --profile, because the CLI bundle is minified and its profiles name functions `aa` and `_`.
  if (existsSync(join(root, 'src', 'mock', 'index.ts'))) entryPoints.push(launcherSource);
  await build({
    entryPoints,
    outdir: outDir,
    outbase: join(root, 'bench'),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
  });
}

/** How the mock is started: its built CLI, else its library through bench/mock-launcher.ts, else not at all. */
export function mockEntry(): 'cli' | 'library' | undefined {
  if (existsSync(cliPath)) return 'cli';
  if (existsSync(launcherOut)) return 'library';
  return undefined;
}

/** Flags of `payment-contract-kit mock` the benchmark passes: an ephemeral port and no request log. */
export const mockCliArgs = ['mock', '--port', '0', '--quiet'] as const;

/** Directory of CPU profiles written with `--profile`. */
export const profileDir = join(outDir, 'profiles');

/**
 * Node flags of every server whose CPU per request is measured under load (`steady`): V8's memory reducer off. A
 * server the reducer tidies after about a minute of idle (two memory-reducing full collections: cold code flushed,
 * heap shrunk) pays 3–9× its settled CPU per request for the next few seconds, and whether it fires within a pass
 * varies; that is V8 reclaiming memory, not the cost of a request, and it blurred every per-request figure measured
 * in passes (decision 0038). Set on the command line, where V8 reads it; the shipped mock's code cache stays accepted.
 */
export const steadyNodeFlags = ['--no-memory-reducer'] as const;

/**
 * The command that starts one server. Prism cannot print a port it chose, so it gets a free port picked here.
 * `steady` starts every Node server (Prism too, whose cluster worker inherits the flags) with
 * {@link steadyNodeFlags}; cold starts and the memory run leave it off, as they measure what the mock does as shipped.
 * `profile` starts a Node server (all but Prism) with `--cpu-prof`; the profile is written when it exits on SIGTERM.
 * `gcProbe` preloads bench/gc-probe.ts (with `--expose-gc`): SIGUSR2 then prints the heap after a full collection.
 */
export async function serverCommand(
  id: ServerId,
  options: { steady?: boolean; profile?: boolean; gcProbe?: boolean } = {},
): Promise<ServerCommand> {
  const node = [
    ...(options.steady ? steadyNodeFlags : []),
    ...(options.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
    ...(options.gcProbe ? ['--expose-gc', `--import=${pathToFileURL(gcProbeOut).href}`] : []),
  ];
  switch (id) {
    case 'mock': {
      return mockEntry() === 'cli' && !options.profile
        ? { command: process.execPath, args: [...node, cliPath, ...mockCliArgs], address: 'stdout' }
        : { command: process.execPath, args: [...node, launcherOut], address: 'stdout' };
    }
    case 'baseline': {
      if (baselineCli === undefined) throw new Error('[payment-contract-kit] bench: no --baseline given.');
      return { command: process.execPath, args: [...node, baselineCli, ...mockCliArgs], address: 'stdout' };
    }
    case 'proxy':
    case 'proxy-floor':
      return {
        command: process.execPath,
        args: [
          ...node,
          join(outDir, 'references', `${referenceScripts.proxy}.mjs`),
          cliPath,
          ...(id === 'proxy-floor' ? ['--floor'] : []),
        ],
        address: 'stdout',
      };
    case 'prism': {
      const port = await freePort();
      // Request logging off (errors only), as the mock runs with --quiet: Prism's best case.
      const args = ['mock', join(root, 'openapi.yaml'), '-p', String(port), '-h', '127.0.0.1', '-v', 'error'];
      // Its bin is a Node script: run by this Node when flags must reach it (its cluster worker inherits them).
      const bin = join(root, 'node_modules', '.bin', 'prism');
      return options.steady
        ? { command: process.execPath, args: [...steadyNodeFlags, realpathSync(bin), ...args], address: port }
        : { command: bin, args, address: port };
    }
    case 'graphql-execute':
      return {
        command: process.execPath,
        args: [...node, join(outDir, 'references', `${referenceScripts[id]}.mjs`), schemaPath, feesQueryPath],
        address: 'stdout',
      };
    default:
      return {
        command: process.execPath,
        args: [...node, join(outDir, 'references', `${referenceScripts[id]}.mjs`), schemaPath],
        address: 'stdout',
      };
  }
}
