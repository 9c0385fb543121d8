// A comment in src states its reason, not where the work came from: "issue 23" tells a reader nothing once the
// issue is closed, and the reason it stands for is what they need. The files below still name one; each is being
// rewritten, and the list only shrinks (a file that no longer names one fails until it is taken off).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

/** An issue named by number, as a reference rather than a reason. */
const issueReference = /\bissues? #?\d+/gi;

/** Files that still name an issue, with how many times (a new one in the same file fails too). */
const allowed: Readonly<Record<string, number>> = {
  'src/mock/internal/store/records.ts': 2,
  'src/mock/internal/store/redis-store.ts': 1,
  'src/mock/internal/store/state-sync.ts': 1,
  'src/mock/internal/store/store-wiring.ts': 1,
};

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.(?:[cm]?ts|[cm]?js)$/.test(e.name) ? [relative(root, path)] : [];
  });

describe('comments in src', () => {
  it('name no issue by number, beyond the files still being rewritten', () => {
    const found: Record<string, number> = {};
    for (const file of sources(join(root, 'src'))) {
      const count = readFileSync(join(root, file), 'utf8').match(issueReference)?.length ?? 0;
      if (count > 0) found[file] = count;
    }
    expect(found).toEqual(allowed);
  });

  it('catches the shapes it is meant to', () => {
    expect('see issue 23, and issues 22'.match(issueReference)).toHaveLength(2);
    expect('issue #7'.match(issueReference)).toHaveLength(1);
    expect('issued 23 tokens; tissue 4'.match(issueReference)).toBeNull();
  });
});
