// A comment in src states its reason, not where the work came from: "issue 23" tells a reader nothing once the
// issue is closed, and the reason it stands for is what they need.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

/** An issue named by number, as a reference rather than a reason. */
const issueReference = /\bissues? #?\d+/gi;

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.(?:[cm]?ts|[cm]?js)$/.test(e.name) ? [relative(root, path)] : [];
  });

describe('comments in src', () => {
  it('name no issue by number', () => {
    const found: Record<string, number> = {};
    for (const file of sources(join(root, 'src'))) {
      const count = readFileSync(join(root, file), 'utf8').match(issueReference)?.length ?? 0;
      if (count > 0) found[file] = count;
    }
    expect(found).toEqual({});
  });

  it('catches the shapes it is meant to', () => {
    expect('see issue 23, and issues 22'.match(issueReference)).toHaveLength(2);
    expect('issue #7'.match(issueReference)).toHaveLength(1);
    expect('issued 23 tokens; tissue 4'.match(issueReference)).toBeNull();
  });
});
