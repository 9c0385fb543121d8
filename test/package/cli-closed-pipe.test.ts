// The built CLI (the package's bin) piped into a reader that has already gone, as in
// `payment-contract-kit mock --help | true`: it stops quietly with 141 (128 + SIGPIPE, as a Unix tool stopped by
// SIGPIPE), not an unhandled `Error: write EPIPE` stack trace. Child processes of the built dist/; the handler alone
// is tested in process in test/cli/closed-pipe.test.ts.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, root } from './support/packed-kit.ts';

const launcher = join(root, 'dist/cli/launcher.cjs');
let dir = '';
let gate = '';
beforeAll(async () => {
  await ensureBuilt(['dist/cli/launcher.cjs', 'dist/cli/mock.cjs', 'dist/cli/index.js']);
  dir = await mkdtemp(join(tmpdir(), 'pck-closed-pipe-'));
  // Preloaded in the child: waits until the test closes its stdin, which it does only once the reader of the
  // child's stdout is closed, so the CLI's first write always meets a closed pipe (no race with the reader).
  gate = join(dir, 'gate.cjs');
  await writeFile(gate, "const fs = require('node:fs'); const b = Buffer.alloc(1); while (fs.readSync(0, b) > 0);\n");
}, 600_000);
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Runs the built CLI with `args`, its stdout's reader closed before it writes; answers its exit code and stderr. */
async function intoClosedReader(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--require', gate, launcher, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = once(child, 'exit');
  child.stdout.destroy();
  await once(child.stdout, 'close');
  child.stdin.end();
  const [code] = (await exited) as [number | null];
  return { code, stderr };
}

describe('the CLI into a reader that has gone', () => {
  it.each([
    ['mock --help (the launcher and the code cache)', ['mock', '--help']],
    ['verify --help (the ES module CLI)', ['verify', '--help']],
    ['--help', ['--help']],
  ])('%s stops quietly with 141', async (_, args) => {
    const { code, stderr } = await intoClosedReader(args);
    expect(stderr).toBe('');
    expect(code).toBe(141);
  });
});
