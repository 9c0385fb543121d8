// A short run of the whole harness, as `npm run bench` runs it: child processes, pinning, the load generator, the
// paired report. It checks the instrument works, not how fast anything is (the figures of a 2-round run on a loaded
// CI machine mean nothing; the benchmark itself holds the targets).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

describe('npm run bench (smoke)', () => {
  it('runs the mock and reference (a) in paired rounds and reports CPU per request against (a)', () => {
    const result = spawnSync(
      process.execPath,
      [
        join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
        'bench/run.ts',
        '--quick',
        '--only',
        'generate-token',
        '--servers',
        'mock',
        '--rounds',
        '2',
        '--seconds',
        '0.3',
        '--connections',
        '2',
        '--no-cold-start',
        '--no-memory',
        '--no-latency-curve',
      ],
      { cwd: root, encoding: 'utf8', timeout: 120_000 },
    );
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('Against the limit: each server ÷ (a) bare node:http in the same round');
    expect(result.stdout).toMatch(
      /generate-token\s+mock \(payment-contract-kit\)\s+[\d.]+\s+[\d.]+× \([\d.]+–[\d.]+, [12] pairs/,
    );
    expect(result.stdout).toMatch(/\(a\) node:http, fixed token pair\s+[\d.]+\s+1 \(reference\)/);
    expect(result.stdout).toMatch(/generate-token: server CPU per request ≤ 1\.15 × \(a\)'s\s+[\d.]+×/);
    expect(result.stderr).toContain('summary files left as they were');
  }, 150_000);
});
