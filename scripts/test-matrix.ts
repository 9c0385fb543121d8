// The compatibility matrix (issue 26): each cell of scripts/compatibility/cells.ts is a fresh consumer project that
// installs the packed tarball with plain `npm install` (no --force, no --legacy-peer-deps) on the cell's Node, then
// runs the codegen recipe, type-checks the published declarations with the cell's TypeScript, and runs the
// consumer's checks (test/package/matrix/consumer/runtime.mjs). Every cell shares the npm cache; cells run
// PCK_MATRIX_JOBS at a time (default 2, for 2 cores). Prints a line per step and the wall time; exits non-zero
// when any step of any cell failed, and keeps that cell's folder for a look.
//
//   npm run test:matrix                                   # every cell
//   PCK_MATRIX_CELLS=node24 npm run test:matrix           # the cells whose name contains one of the words
import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { kitMessage } from '../src/internal/messages.ts';
import {
  installProblems,
  kitClosure,
  type MatrixCell,
  matrixCells,
  otherEngineWarnings,
} from './compatibility/cells.ts';

const root = join(import.meta.dirname, '..');
const consumerFiles = join(root, 'test/package/matrix/consumer');
const say = (text: string) => process.stdout.write(`${kitMessage(text)}\n`);

/** The npm CLI script, run by each cell's own Node so that npm checks `engines` against that Node. */
function npmCli(): string {
  const fromNpm = process.env.npm_execpath;
  if (fromNpm?.endsWith('npm-cli.js')) return fromNpm;
  const npmBin = spawnSync('which', ['npm'], { encoding: 'utf8' }).stdout.trim();
  return join(dirname(realpathSync(npmBin)), 'npm-cli.js');
}

/** The path of a Node binary of `major`: this process's, or the npm registry's `node` package (npx caches it). */
function nodeBinary(major: string): string {
  if (process.versions.node.split('.')[0] === major) return process.execPath;
  const found = spawnSync('npx', ['-y', '-p', `node@${major}`, 'node', '-p', 'process.execPath'], { encoding: 'utf8' });
  if (found.status !== 0) throw new Error(kitMessage(`Could not get Node ${major} through npx: ${found.stderr}`));
  return found.stdout.trim();
}

interface StepResult {
  readonly step: string;
  readonly ok: boolean;
  readonly seconds: number;
  readonly detail: string;
}

/** Runs a command to its end; answers its exit code and combined output. No time limit: npm's own apply. */
function exec(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) {
  return new Promise<{ code: number; output: string }>((resolve) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c) => {
      output += c;
    });
    child.stderr.on('data', (c) => {
      output += c;
    });
    child.on('error', (error) => resolve({ code: 1, output: `${output}\n${error.message}` }));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** Writes the consumer project of `cell` into `dir`: package.json, the checks, and the codegen recipe's inputs. */
function writeConsumer(cell: MatrixCell, dir: string, tarball: string): void {
  mkdirSync(dir, { recursive: true });
  const pkg = {
    name: `pck-matrix-${cell.name.replace(/[^a-z0-9-]/g, '-')}`,
    private: true,
    type: 'module',
    dependencies: { 'payment-contract-kit': `file:${tarball}`, ...cell.dependencies },
  };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  cpSync(consumerFiles, dir, { recursive: true });
  cpSync(join(root, 'recipes/codegen/codegen.ts'), join(dir, 'codegen.ts'));
  cpSync(join(root, 'recipes/codegen/operations'), join(dir, 'operations'), { recursive: true });
}

/** Runs every step of one cell in order, stopping at the first failure; answers the steps' results. */
async function runCell(cell: MatrixCell, dir: string, tarball: string, npm: string): Promise<StepResult[]> {
  const node = nodeBinary(cell.node);
  writeConsumer(cell, dir, tarball);
  const results: StepResult[] = [];
  const step = async (name: string, body: () => Promise<{ ok: boolean; detail: string }>) => {
    if (results.some((r) => !r.ok)) return;
    const started = performance.now();
    const { ok, detail } = await body();
    const seconds = Number(((performance.now() - started) / 1000).toFixed(1));
    results.push({ step: name, ok, seconds, detail });
    say(`${cell.name}: ${name} ${ok ? 'passed' : 'FAILED'} in ${seconds} s`);
  };
  const bin = (pkg: string, file: string) => join(dir, 'node_modules', pkg, file);

  await step('npm install (no peer or engine warning)', async () => {
    const args = [npm, 'install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=warn'];
    const { code, output } = await exec(node, args, dir);
    if (code !== 0) return { ok: false, detail: output };
    const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
    const closure = kitClosure(lock, ['graphql', '@pact-foundation/pact', 'msw']);
    const problems = installProblems(output, closure);
    const others = otherEngineWarnings(output, closure);
    // Tools the consumer added for itself may need a newer Node; that is said, not failed (docs/supported-versions.md).
    if (others.length > 0)
      say(`${cell.name}: engine warnings outside the kit's tree (the consumer's tools): ${others.join(', ')}`);
    return { ok: problems.length === 0, detail: problems.join('\n') };
  });
  await step('npm ls --all (every peer satisfied)', async () => {
    const { code, output } = await exec(node, [npm, 'ls', '--all'], dir);
    return { ok: code === 0, detail: code === 0 ? '' : installProblems(output).join('\n') || output.slice(-4000) };
  });
  await step('codegen recipe', async () => {
    const { code, output } = await exec(
      node,
      [join(dir, 'node_modules/.bin/graphql-codegen'), '--config', 'codegen.ts'],
      dir,
    );
    return { ok: code === 0 && existsSync(join(dir, 'generated/graphql.ts')), detail: output.slice(-4000) };
  });
  await step(`published types, strict, TypeScript ${cell.typescript}`, async () => {
    const { code, output } = await exec(node, [bin('typescript', 'bin/tsc'), '-p', 'tsconfig.kit.json'], dir);
    return { ok: code === 0, detail: output.slice(-4000) };
  });
  await step(`client and Pact typings (${cell.clientsTypescript})`, async () => {
    const { code, output } = await exec(
      node,
      [bin(cell.clientsTypescript, 'bin/tsc'), '-p', 'tsconfig.clients.json'],
      dir,
    );
    return { ok: code === 0, detail: output.slice(-4000) };
  });
  await step('vitest: the mock, the client and the msw handlers in a test file', async () => {
    // The first request loads the GraphQL engine; on a loaded 2-core runner that cold start alone can pass vitest's
    // 5 s default, which would fail a cell for the machine's load rather than for the kit.
    const args = [
      bin('vitest', 'vitest.mjs'),
      'run',
      'consumer.test.mjs',
      '--testTimeout=30000',
      '--hookTimeout=30000',
    ];
    const { code, output } = await exec(node, args, dir, { ...process.env, CI: '1' });
    return { ok: code === 0 && /3 passed/.test(output), detail: output.slice(-4000) };
  });
  await step('run-time checks', async () => {
    const env = { ...process.env, PCK_MATRIX_EXPECT: JSON.stringify(cell.expect) };
    const { code, output } = await exec(node, ['runtime.mjs'], dir, env);
    // The checks print one JSON line each; Pact's verifier writes its own report between them.
    const lines = output.split('\n').filter((l) => l.startsWith('{"check"'));
    const checks = lines.map((l) => JSON.parse(l) as { check: string; ok: boolean; detail: unknown });
    for (const c of checks) say(`${cell.name}:   ${c.ok ? 'ok  ' : 'FAIL'} ${c.check}`);
    const failed = checks.filter((c) => !c.ok);
    return {
      ok: code === 0 && checks.length > 0 && failed.length === 0,
      detail: failed.length > 0 ? JSON.stringify(failed, null, 2) : code === 0 ? '' : output.slice(-4000),
    };
  });
  return results;
}

const started = performance.now();
const wanted = (process.env.PCK_MATRIX_CELLS ?? '').split(',').filter(Boolean);
const cells = matrixCells.filter((c) => wanted.length === 0 || wanted.some((w) => c.name.includes(w)));
const jobs = Math.max(1, Number(process.env.PCK_MATRIX_JOBS ?? 2));
const work = mkdtempSync(join(tmpdir(), 'pck-matrix-'));

// The tarball as a consumer gets it: the one the whole run packed (`npm test` names it in PCK_PACKED_TARBALL,
// scripts/pack-kit.ts), copied here so a failed cell's folder keeps what it installed; else packed now (a run on its
// own builds when dist is missing).
const shared = process.env.PCK_PACKED_TARBALL;
let tarball: string;
if (shared !== undefined && shared !== '') {
  if (!existsSync(shared)) throw new Error(kitMessage(`PCK_PACKED_TARBALL names ${shared}, which does not exist.`));
  tarball = join(work, basename(shared));
  copyFileSync(shared, tarball);
} else {
  if (!existsSync(join(root, 'dist/cli/index.js')))
    spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  const packed = spawnSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: root, encoding: 'utf8' });
  if (packed.status !== 0) throw new Error(kitMessage(`npm pack failed: ${packed.stderr}`));
  tarball = join(work, (JSON.parse(packed.stdout) as [{ filename: string }])[0].filename);
}
const npm = npmCli();

const outcomes = new Map<string, StepResult[]>();
const queue = [...cells];
await Promise.all(
  Array.from({ length: Math.min(jobs, queue.length) }, async () => {
    for (let cell = queue.shift(); cell; cell = queue.shift()) {
      const dir = join(work, cell.name);
      const steps = await runCell(cell, dir, tarball, npm).catch((error: Error) => [
        { step: 'setup', ok: false, seconds: 0, detail: error.message },
      ]);
      outcomes.set(cell.name, steps);
    }
  }),
);

let failed = false;
for (const cell of cells) {
  const steps = outcomes.get(cell.name) ?? [];
  const bad = steps.find((s) => !s.ok);
  const seconds = steps.reduce((sum, s) => sum + s.seconds, 0).toFixed(1);
  if (bad) {
    failed = true;
    say(`${cell.name}: FAILED at "${bad.step}" (folder kept: ${join(work, cell.name)})\n${bad.detail}`);
  } else say(`${cell.name}: passed (${steps.length} steps, ${seconds} s)`);
}
const wall = ((performance.now() - started) / 1000).toFixed(1);
say(
  `compatibility matrix: ${cells.length} cells, ${failed ? 'FAILED' : 'passed'} in ${wall} s wall time (${jobs} at a time)`,
);
if (!failed) rmSync(work, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
