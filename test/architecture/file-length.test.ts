import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/** A file in src/ past this many lines holds more than one concern: it is split before it grows further. */
const MAX_FILE_LINES = 400;
const ROOT = join(import.meta.dirname, '..', '..');
const SRC_DIR = join(ROOT, 'src');

/**
 * The files still over the bound, each with the most lines it may have. A listed file may shrink but not grow; once
 * it is under the bound it leaves the list (the last test fails until it does), so the list only gets shorter.
 */
const OVER_THE_BOUND: Readonly<Record<string, number>> = {};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts|cts)$/.test(entry.name) ? [path] : [];
  });
}

const lineCount = (text: string): number => (text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0));

const lengths = new Map(
  sourceFiles(SRC_DIR).map((file) => [relative(ROOT, file), lineCount(readFileSync(file, 'utf8'))]),
);

describe(`file length in src/ (at most ${MAX_FILE_LINES} lines)`, () => {
  it('counts lines as an editor numbers them (a last newline starts no line)', () => {
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount('a\nb')).toBe(2);
    expect(lineCount('')).toBe(0);
  });

  it('has no new file over the bound', () => {
    const over = [...lengths].filter(([file, lines]) => lines > MAX_FILE_LINES && !(file in OVER_THE_BOUND));
    expect(over, 'split these files into modules of one concern each').toEqual([]);
  });

  it('lets no listed file grow', () => {
    const grown = Object.entries(OVER_THE_BOUND).filter(([file, most]) => (lengths.get(file) ?? 0) > most);
    expect(grown.map(([file, most]) => `${file}: ${lengths.get(file)} lines, at most ${most}`)).toEqual([]);
  });

  it('drops a listed file from the list once it is under the bound (or gone)', () => {
    const done = Object.keys(OVER_THE_BOUND).filter((file) => (lengths.get(file) ?? 0) <= MAX_FILE_LINES);
    expect(done, 'remove these from OVER_THE_BOUND').toEqual([]);
  });
});
