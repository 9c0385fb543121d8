import { describe, expect, it } from 'vitest';
import { designPeriod, roundOrder, williamsOrder } from '../../bench/round-order.ts';

/** Counts of each position per server and of each ordered pair "b runs right after a" over one period. */
function tally(n: number) {
  const position = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  const follows = new Map<string, number>();
  for (let round = 0; round < designPeriod(n); round++) {
    const order = williamsOrder(n, round);
    expect([...order].sort((x, y) => x - y)).toEqual([...Array(n).keys()]);
    order.forEach((server, i) => {
      position[server]![i]!++;
    });
    for (let i = 1; i < n; i++) {
      const pair = `${order[i - 1]}>${order[i]}`;
      follows.set(pair, (follows.get(pair) ?? 0) + 1);
    }
  }
  return { position, follows };
}

describe('williamsOrder', () => {
  it.each([2, 3, 4, 5, 6, 7])(
    'with %i servers: every position equally often, every server after every other equally often',
    (n) => {
      const { position, follows } = tally(n);
      const perPosition = designPeriod(n) / n;
      for (const row of position) expect(row).toEqual(new Array(n).fill(perPosition));
      // n(n-1) ordered pairs, each the same number of times.
      expect(follows.size).toBe(n * (n - 1));
      expect(new Set(follows.values()).size).toBe(1);
    },
  );

  it('does not keep one rotation (the server after the first is not always the same)', () => {
    const seconds = new Set(
      [0, 1, 2, 3].map((round) => williamsOrder(4, round)[williamsOrder(4, round).indexOf(0) + 1]),
    );
    expect(seconds.size).toBeGreaterThan(1);
  });
});

describe('roundOrder', () => {
  it('orders the items by the design', () => {
    expect(roundOrder(['a', 'b', 'c', 'd'], 0)).toEqual(['a', 'b', 'd', 'c']);
    expect(roundOrder([], 3)).toEqual([]);
  });
});
