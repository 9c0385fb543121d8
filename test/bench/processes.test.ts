import { availableParallelism } from 'node:os';
import { expect, it } from 'vitest';
import { coreList, coresBusySeconds, procCpuSeconds, procRunSeconds } from '../../bench/processes.ts';

it('reads a process’s on-core time from schedstat, in seconds, finer than clock ticks', () => {
  const before = procRunSeconds(process.pid);
  if (before === null) return expect(procCpuSeconds(process.pid)).not.toBeNull(); // kernels without schedstat
  // Spin until this process has used 30 ms of CPU (3 clock ticks), however long a loaded host makes that take.
  const start = process.cpuUsage();
  let spin = 0;
  for (;;) {
    spin++;
    const used = process.cpuUsage(start);
    if (used.user + used.system >= 30_000) break;
  }
  const after = procRunSeconds(process.pid)!;
  expect(spin).toBeGreaterThan(0);
  expect(after - before).toBeGreaterThanOrEqual(0.027);
  expect(procCpuSeconds(process.pid)).toBeGreaterThanOrEqual(after);
});

it('is null for a process that does not exist', () => {
  expect(procRunSeconds(2 ** 22 + 1)).toBeNull();
  expect(procCpuSeconds(2 ** 22 + 1)).toBeNull();
});

it('reads taskset core lists', () => {
  expect(coreList('0')).toEqual([0]);
  expect(coreList('0-2')).toEqual([0, 1, 2]);
  expect(coreList('0,3')).toEqual([0, 3]);
  expect(coreList('x')).toEqual([]);
});

it('counts a core’s busy time, which grows while this process spins on it', () => {
  const all = coreList(`0-${availableParallelism() - 1}`).join(',');
  const before = coresBusySeconds(all);
  if (before === null) return; // no /proc/stat
  const start = process.cpuUsage();
  for (;;) {
    const used = process.cpuUsage(start);
    if (used.user + used.system >= 50_000) break;
  }
  // Every core together was busy at least as long as this process ran (less a tick of rounding per core).
  expect(coresBusySeconds(all)! - before).toBeGreaterThanOrEqual(0.05 - 0.02 * all.split(',').length);
  expect(coresBusySeconds('99')).toBeNull();
});
