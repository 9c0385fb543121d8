// A short run of the whole harness, as `npm run bench` runs it: child processes, pinning, the load generator, the
// paired report. It checks the instrument works, not how fast anything is (the figures of a 2-round run on a loaded
// CI machine mean nothing; the benchmark itself holds the targets).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const builtCli = join(root, 'dist', 'cli', 'index.js');

/**
 * `npm run bench` cut down to a smoke run: 2 rounds of 0.3 s on 2 connections, nothing beyond `only` and `servers`
 * unless `extra` asks; `needsBuild` for setups that start the built CLI.
 */
function smokeBench(only: string, servers: string, extra: readonly string[], needsBuild: boolean, timeout: number) {
  if (needsBuild && !existsSync(builtCli))
    throw new Error(`${builtCli} is missing: run "npm run build" before this test.`);
  const args = [
    '--quick',
    '--only',
    only,
    '--servers',
    servers,
    '--rounds',
    '2',
    '--seconds',
    '0.3',
    '--connections',
    '2',
  ];
  return spawnSync(
    process.execPath,
    [
      join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
      'bench/run.ts',
      ...args,
      '--no-cold-start',
      '--no-memory',
      '--no-latency-curve',
      ...extra,
    ],
    { cwd: root, encoding: 'utf8', timeout },
  );
}

describe('npm run bench (smoke)', () => {
  it('runs the mock and reference (a) in paired rounds and reports CPU per request against (a)', () => {
    const result = smokeBench('generate-token', 'mock,rest-token-signed', ['--no-shared-store'], false, 120_000);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('Against the limit: each server ÷ (a) bare node:http in the same round');
    expect(result.stdout).toMatch(
      /generate-token\s+mock \(payment-contract-kit\)\s+[\d.]+\s+[\d.]+× \([\d.]+–[\d.]+, [12] pairs/,
    );
    expect(result.stdout).toMatch(/\(a\) node:http, fixed token pair\s+[\d.]+\s+1 \(reference\)/);
    expect(result.stdout).toMatch(/generate-token: server CPU per request ≤ 1\.05 × \(a′\)'s\s+[\d.]+×/);
    expect(result.stderr).toContain('summary files left as they were');
  }, 150_000);

  it('runs the proxy in front of the mock beside the mock alone and prints its ratios and the p50 it adds', () => {
    const result = smokeBench(
      'fees-list',
      'mock,proxy,proxy-floor',
      ['--no-in-process', '--no-shared-store'],
      true,
      120_000,
    );
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('The validating proxy in front of the mock');
    const ratio = String.raw`[\d.]+× \([\d.]+–[\d.]+, [12] pairs[^)]*\)`;
    expect(result.stdout).toMatch(new RegExp(String.raw`fees-list\s+${ratio}\s+${ratio}\s+${ratio}\s+[\d.]+`));
    expect(result.stdout).toMatch(
      /Added p50 on a fee list \(one connection, sequential, paired slices proxy − mock\): -?[\d.]+ ms/,
    );
    expect(result.stdout).toMatch(/proxy's own CPU per request, fees-list ≤ 1\.5 × the bare passthrough's\s+[\d.]+×/);
    expect(result.stderr).toMatch(/proxy: adds -?[\d.]+ ms to a fee list's p50/);
  }, 150_000);

  it('runs the mock on Redis, one replica and two, beside the mock on memory and counts store round trips', () => {
    const result = smokeBench('generate-token,fees-list,process-payment', 'mock', ['--no-in-process'], true, 200_000);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('A shared store: the mock on Redis, one replica and two');
    const ratio = String.raw`[\d.]+× \([\d.]+–[\d.]+, [12] pairs[^)]*\)`;
    for (const workload of ['generate-token', 'fees-list', 'process-payment']) {
      expect(result.stdout).toMatch(
        new RegExp(String.raw`${workload}\s+mock, memory: \(one process\)\s+\d+\s+1 \(reference\)`),
      );
      for (const setup of [String.raw`mock on redis:// \(one replica\)`, 'two replicas on one redis://']) {
        // req/s, CPU of the mock(s), CPU with Redis as ratios; round trips per request; no failed answers.
        expect(result.stdout).toMatch(
          new RegExp(String.raw`${workload}\s+${setup}[^\n]*?\s+\d+\s+${ratio}\s+${ratio}\s+${ratio}\s+[\d.]+\s+0\n`),
        );
      }
      expect(result.stdout).toMatch(
        new RegExp(
          String.raw`- ${workload}, mock on redis:// \(one replica\): [\d.]+ per request over \d+ requests = scripts [\d.]+ \+ transactions`,
        ),
      );
    }
    expect(result.stderr).toMatch(/shared store: redis-server \d+ on redis:\/\/127\.0\.0\.1:\d+/);
  }, 240_000);
});
