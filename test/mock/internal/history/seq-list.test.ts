// The ordered history list under every paged control list: cursors are sequence numbers that stay valid across
// removals, holes are skipped and compacted, and pages merge several lists in sequence order.
import { describe, expect, it } from 'vitest';
import {
  checkPageQuery,
  collectPage,
  MockHttpError,
  parseListQuery,
  SeqList,
} from '../../../support/mock-internals/foundations.ts';

const list = (...seqs: number[]) => {
  const l = new SeqList<string>();
  for (const s of seqs) l.push(s, `v${s}`);
  return l;
};
const seqsOf = (it: Iterable<[number, string]>) => Array.from(it, ([s]) => s);

describe('SeqList', () => {
  it('walks newest first below a cursor and oldest first above one, skipping removed entries', () => {
    const l = list(1, 2, 3, 5, 8);
    expect(l.delete(3)).toBe(true);
    expect(l.delete(3)).toBe(false);
    expect(l.delete(4)).toBe(false);
    expect(seqsOf(l.newest())).toEqual([8, 5, 2, 1]);
    expect(seqsOf(l.newest(5))).toEqual([2, 1]);
    expect(seqsOf(l.newest(4))).toEqual([2, 1]);
    expect(seqsOf(l.oldestFirst(2))).toEqual([5, 8]);
    expect(seqsOf(l.oldestFirst(3))).toEqual([5, 8]);
    expect([l.size, l.oldest(), l.get(5), l.get(3)]).toEqual([4, 'v1', 'v5', undefined]);
  });

  it('refuses a sequence number that does not grow (a cursor must mean one place)', () => {
    expect(() => list(1, 2).push(2, 'again')).toThrow(RangeError);
  });

  it('keeps cursors valid through compaction after many removals', () => {
    const l = list(...Array.from({ length: 1000 }, (_, i) => i + 1));
    for (let s = 1; s <= 990; s++) l.delete(s);
    expect(l.size).toBe(10);
    expect(seqsOf(l.newest(996))).toEqual([995, 994, 993, 992, 991]);
    expect(l.oldest()).toBe('v991');
    l.push(2000, 'v2000');
    expect(seqsOf(l.oldestFirst(999))).toEqual([1000, 2000]);
  });

  it('finds the oldest entry as the front empties, through pushes, compactions and a clear', () => {
    const l = list(1, 2, 3);
    const oldest: (string | undefined)[] = [l.oldest()];
    l.delete(1);
    oldest.push(l.oldest());
    l.delete(2);
    l.delete(3);
    oldest.push(l.oldest());
    l.push(4, 'v4');
    oldest.push(l.oldest());
    // Evicting the oldest of a full list, as the payments do: compactions come and go under the walk.
    const full = list(...Array.from({ length: 200 }, (_, i) => i + 1));
    for (let s = 201; s <= 600; s++) {
      full.delete(s - 200);
      full.push(s, `v${s}`);
      if (full.oldest() !== `v${s - 199}`) throw new Error(`oldest after ${s}: ${full.oldest()}`);
    }
    full.clear();
    full.push(700, 'v700');
    expect([...oldest, full.oldest()]).toEqual(['v1', 'v2', undefined, 'v4', 'v700']);
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
