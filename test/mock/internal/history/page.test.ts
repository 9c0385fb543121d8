// Pages of a history: several ordered lists merged in sequence order, the page query's checks (a mistake is a 400
// in the 7.1 shape), and reading a whole history page by page from the last cursor.
import { describe, expect, it } from 'vitest';
import {
  checkPageQuery,
  collectPage,
  MockHttpError,
  parseListQuery,
  readAllPages,
  SeqList,
} from '../../../support/mock-internals/foundations.ts';

const list = (...seqs: number[]) => {
  const l = new SeqList<string>();
  for (const s of seqs) l.push(s, `v${s}`);
  return l;
};

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

describe('collectPage', () => {
  it('merges sources by sequence number, filters, and gives the next cursor only when a match follows', () => {
    const a = list(1, 4, 6);
    const b = list(2, 3, 7);
    const all = (v: string) => v !== 'v3';
    const first = collectPage([a, b], { limit: 3 }, all, (v) => v);
    expect(first).toEqual({ items: ['v7', 'v6', 'v4'], order: 'newest-first', next: 4 });
    const second = collectPage([a, b], { limit: 3, before: 4 }, all, (v) => v);
    expect(second).toEqual({ items: ['v2', 'v1'], order: 'newest-first', next: null });
    const forward = collectPage([a, b], { limit: 2, after: 2 }, all, (v, s) => `${v}@${s}`);
    expect(forward).toEqual({ items: ['v4@4', 'v6@6'], order: 'oldest-first', next: 6 });
    expect(collectPage([a, b], { limit: 5, after: 7 }, all, (v) => v)).toEqual({
      items: [],
      order: 'oldest-first',
      next: null,
    });
  });
});

describe('page queries: a mistake is a 400 in the 7.1 shape naming the fix', () => {
  const status = (call: () => unknown) => {
    try {
      call();
    } catch (e) {
      return e instanceof MockHttpError ? [e.status, e.message] : e;
    }
    return 'no error';
  };

  it.each([
    ['limit 0', { limit: 0 }, /"limit" must be a whole number from 1 to 500/],
    ['limit 501', { limit: 501 }, /from 1 to 500/],
    ['limit 1.5', { limit: 1.5 }, /"limit"/],
    ['a negative cursor', { before: -1 }, /"before" must be a sequence number/],
    ['both cursors', { before: 5, after: 2 }, /not both/],
  ])('%s', (_name, query, message) => {
    expect(status(() => checkPageQuery(query, 'deliveryPage'))).toEqual([400, expect.stringMatching(message)]);
  });

  it('defaults the limit to a page a person reads', () => {
    expect(checkPageQuery(undefined, 'x')).toEqual({ limit: 20 });
  });

  it.each([
    [
      'an unknown parameter',
      'limit=5&colour=red',
      /unknown query parameter "colour"; it takes limit, before, after, state/,
    ],
    ['a repeated parameter', 'state=failed&state=gone', /give "state" once/],
    ['an empty parameter', 'limit=', /give "limit" once, with a value/],
    ['a limit that is not a number', 'limit=ten', /"limit" must be a whole number; got "ten"/],
    ['a cursor with a sign', 'before=-3', /"before" must be a whole number/],
    ['a limit too large', 'limit=100000', /from 1 to 500/],
  ])('rejects %s', (_name, raw, message) => {
    expect(status(() => parseListQuery(raw, ['state'], 'GET /__pck/deliveries'))).toEqual([
      400,
      expect.stringMatching(message),
    ]);
  });

  it('reads the page and the filters', () => {
    expect(parseListQuery('limit=50&before=9&state=failed', ['state'], 'r')).toEqual({
      page: { limit: 50, before: 9 },
      filters: { state: 'failed' },
    });
  });
});
