import { expect, it } from 'vitest';
import { procCpuSeconds, procSchedTimes } from '../../bench/processes.ts';

it('reads a process’s on-core and waiting time from schedstat, in seconds, finer than clock ticks', () => {
  const before = procSchedTimes(process.pid);
  if (before === null) return expect(procCpuSeconds(process.pid)).not.toBeNull(); // kernels without schedstat
  // Spin until this process has used 30 ms of CPU (3 clock ticks), however long a loaded host makes that take.
  const start = process.cpuUsage();
  let spin = 0;
  for (;;) {
    spin++;
    const used = process.cpuUsage(start);
    if (used.user + used.system >= 30_000) break;
  }
  const after = procSchedTimes(process.pid)!;
  expect(spin).toBeGreaterThan(0);
  expect(after.run - before.run).toBeGreaterThanOrEqual(0.027);
  expect(after.wait).toBeGreaterThanOrEqual(before.wait);
  expect(procCpuSeconds(process.pid)).toBeGreaterThanOrEqual(after.run);
});

it('is null for a process that does not exist', () => {
  expect(procSchedTimes(2 ** 22 + 1)).toBeNull();
  expect(procCpuSeconds(2 ** 22 + 1)).toBeNull();
});
