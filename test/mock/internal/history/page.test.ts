// Reading a whole paged history: every page in turn from the last one's cursor, oldest first, at the largest limit.
import { describe, expect, it } from 'vitest';
import { readAllPages } from '../../../support/mock-internals/foundations.ts';

describe('readAllPages', () => {
  it('reads every page from the previous cursor until there is none, at the largest limit', async () => {
    const entries = Array.from({ length: 1_234 }, (_, i) => i + 1);
    const asked: { limit: number; after: number }[] = [];
    const all = await readAllPages(async (query) => {
      asked.push({ ...query });
      const items = entries.filter((n) => n > query.after).slice(0, query.limit);
      const last = items.at(-1);
      return { items, order: 'oldest-first' as const, next: last !== undefined && last < 1_234 ? last : null };
    });
    expect(all).toEqual(entries);
    expect(asked).toEqual([
      { limit: 500, after: 0 },
      { limit: 500, after: 500 },
      { limit: 500, after: 1_000 },
    ]);
  });

  it('answers an empty history with one read', async () => {
    let reads = 0;
    const all = await readAllPages(async () => {
      reads += 1;
      return { items: [] as number[], order: 'oldest-first' as const, next: null };
    });
    expect([all, reads]).toEqual([[], 1]);
  });
});
