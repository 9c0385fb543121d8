/**
 * What machine a run was made on: CPU model from /proc/cpuinfo, core count, Node version.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';

/** The CPU model name, from /proc/cpuinfo when readable, else from os.cpus(). */
export function cpuModel(): string {
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (match) return match[1]!.trim();
  } catch {
    // not Linux: fall through
  }
  return cpus()[0]?.model.trim() ?? 'unknown CPU';
}

/** Cores this process may run on. */
export function coreCount(): number {
  return availableParallelism();
}

/** The one-minute load average: a run's figures are meant to be read from a quiet host (decision 0002). */
export function hostLoad(): number {
  return loadavg()[0] ?? 0;
}
