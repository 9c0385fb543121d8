// `check` as a real process: one smoke test of the built CLI. Every flag, message and exit code is pinned in process
// by test/cli/commands/check.test.ts.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckHars, writeCheckHars } from '../support/check-hars.ts';

const root = resolve(import.meta.dirname, '../../..');
const built = join(root, 'dist/cli/index.js');
const dir = mkdtempSync(join(tmpdir(), 'pck-check-process-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files: CheckHars;
beforeAll(async () => {
  files = await writeCheckHars(dir);
});

const cli = (args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
    if (!existsSync(built)) throw new Error(`${built} is missing: run "npm run build" before this test.`);
    execFile(process.execPath, [built, 'check', ...args], { cwd: root, timeout: 60_000 }, (error, stdout, stderr) =>
      done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });

describe('check (built CLI)', () => {
  // Needs a process: the exit status a CI job sees, set by the built entry from what the command answers.
  it('exits 0 clean, 1 with drifts, 2 on a usage error, and prints its help', async () => {
    expect((await cli([files.clean])).code).toBe(0);
    expect((await cli([files.drifting])).code).toBe(1);
    const usage = await cli([join(dir, 'missing.har')]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('no such file');
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: payment-contract-kit check <file.har>\.\.\. \[options\]/);
  });
});
