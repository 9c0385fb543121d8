/**
 * The compare step of the generated/ drift check, kept apart from scripts/generate.ts so tests can run it on
 * tampered copies without regenerating anything.
 *
 * @module
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

/** Lists every file under `dir` as a sorted path relative to `dir` (`/`-separated on POSIX). */
export async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

/**
 * Compares a fresh generation (`freshDir`) with the committed files (`committedDir`) and returns one message per
 * file that is missing, extra or different; an empty list means no drift. A missing `committedDir` counts as
 * every file missing.
 *
 * @example
 * const drift = await findDrift(tmp, 'generated');
 * if (drift.length > 0) process.exitCode = 1;
 */
export async function findDrift(freshDir: string, committedDir: string, label = 'generated'): Promise<string[]> {
  const fresh = await listFiles(freshDir);
  const committed = await listFiles(committedDir).catch(() => []);
  const drift: string[] = [];
  for (const f of [...new Set([...fresh, ...committed])].sort()) {
    const a = await readFile(join(freshDir, f), 'utf8').catch(() => null);
    const b = await readFile(join(committedDir, f), 'utf8').catch(() => null);
    if (a === null) drift.push(`${label}/${f} is committed but the sources no longer produce it`);
    else if (b === null) drift.push(`${label}/${f} is missing`);
    else if (a !== b) drift.push(`${label}/${f} differs from what its sources produce`);
  }
  return drift;
}
