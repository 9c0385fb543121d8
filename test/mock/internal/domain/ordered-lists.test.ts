// The ordered lists under the bounded histories: a history's cursors are sequence numbers that stay valid across
// removals, and its holes are skipped and compacted.
import { describe, expect, it } from 'vitest';
import { SeqList } from '../../../support/mock-internals/foundations.ts';

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
