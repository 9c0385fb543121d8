import { describe, expect, it } from 'vitest';
import { agreeWithinSpread, formatPaired, pairedRatio } from '../../bench/paired.ts';

describe('pairedRatio', () => {
  it.each<[string, { values: (number | undefined)[]; reference: (number | undefined)[]; want: object }]>([
    [
      'a slow round hitting both servers leaves the ratio alone',
      { values: [10, 13, 10], reference: [5, 6.5, 5], want: { median: 2, min: 2, max: 2, pairs: 3, flagged: [] } },
    ],
    [
      'pairs with a missing side are dropped',
      { values: [10, undefined, 12], reference: [5, 5, Number.NaN], want: { median: 2, pairs: 1 } },
    ],
    [
      'a round whose reference ran far from its own median is flagged and left out',
      {
        values: [10, 10, 10, 10, 30],
        reference: [5, 5, 5, 5, 20],
        want: { median: 2, min: 2, max: 2, pairs: 4, flagged: [4] },
      },
    ],
    [
      'when every pair would be flagged, all are kept',
      { values: [1, 1], reference: [1, 10], want: { pairs: 2, flagged: [] } },
    ],
  ])('%s', (_name, { values, reference, want }) => {
    expect(pairedRatio(values, reference)).toMatchObject(want);
  });

  it('flags a pair marked contended (a round in which another process took the core) and leaves it out', () => {
    const r = pairedRatio([10, 10, 40, 10], [5, 5, 5, 5], undefined, [false, false, true, false]);
    expect(r).toMatchObject({ median: 2, min: 2, max: 2, pairs: 3, flagged: [2] });
  });

  it('is NaN with no pairs', () => {
    expect(pairedRatio([], []).median).toBeNaN();
    expect(formatPaired(pairedRatio([], []))).toBe('-');
  });

  it('formats median, spread, pairs and flagged rounds', () => {
    expect(formatPaired(pairedRatio([10, 10, 10, 10, 30], [5, 5, 5, 5, 20]))).toBe(
      '2.00× (2.00–2.00, 4 pairs, 1 flagged)',
    );
  });
});

describe('agreeWithinSpread', () => {
  const r = (median: number, min: number, max: number) => ({ median, min, max, pairs: 5, flagged: [] });
  it('holds when each median lies in the other spread', () => {
    expect(agreeWithinSpread(r(1.2, 1.1, 1.3), r(1.25, 1.15, 1.4))).toBe(true);
  });
  it('fails when one median lies outside the other spread', () => {
    expect(agreeWithinSpread(r(1.2, 1.1, 1.3), r(1.5, 1.4, 1.6))).toBe(false);
  });
});
