/**
 * The order servers run in, round by round. Rotating one fixed order keeps every server's neighbours the same in every
 * round (the server after the mock is always the same one), so whatever one server leaves behind on the shared core
 * (a collector still sweeping, sockets closing, a colder cache) always lands on the same next server and biases its
 * figures. A Williams design (a balanced Latin square) fixes that: over one period every server runs once in every
 * position and follows every other server equally often. Pure functions.
 *
 * @module
 */

/** Rounds after which the design repeats: n for an even number of servers, 2n for an odd number. */
export const designPeriod = (n: number): number => (n % 2 === 0 ? n : 2 * n);

/**
 * The order (indexes 0..n-1) of round `round` for `n` servers. Row 0 is 0, 1, n-1, 2, n-2, …; row r adds r (mod n);
 * for odd n the second half of the period runs the rows reversed, which balances who follows whom.
 */
export function williamsOrder(n: number, round: number): number[] {
  if (n <= 0) return [];
  const base: number[] = [];
  for (let i = 0; i < n; i++) base.push(i % 2 === 1 ? (i + 1) / 2 : (n - i / 2) % n);
  const r = round % designPeriod(n);
  const row = base.map((v) => (v + (r % n)) % n);
  return r >= n ? row.reverse() : row;
}

/** `items` in the order of round `round` of the design. */
export function roundOrder<T>(items: readonly T[], round: number): T[] {
  return williamsOrder(items.length, round).map((i) => items[i]!);
}
