/**
 * A drift as one line of text, the same in `check`'s report, the proxy's summary and a checked fetch's error.
 *
 * @module
 */
import type { Drift } from './exchange.ts';

/**
 * One line: kind, side and path, what was there and what was expected, then the ledger key for assumptions.
 *
 * @example
 * driftLine(drift); // 'assumption response (http): HTTP 400 (expected HTTP 200 (ledger graphqlErrorHttpStatus)) [graphqlErrorHttpStatus]'
 */
export function driftLine(drift: Drift): string {
  const key = drift.ledgerKey ? ` [${drift.ledgerKey}]` : '';
  return `${drift.kind} ${drift.side} ${drift.path}: ${drift.actual} (expected ${drift.expected})${key}`;
}
