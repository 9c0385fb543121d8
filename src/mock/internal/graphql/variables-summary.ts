/**
 * The journal's summary of a GraphQL request's variables, made on every GraphQL request with variables. It lives
 * apart from redact.ts, which needs graphql-js to walk documents: the request path imports this module eagerly, and
 * graphql-js must stay out of the mock's import graph until the first GraphQL answer needs it (the cold start).
 *
 * @module
 */
import { maskCardNumber, maskDigits } from '../../../contract/card-masking.ts';
import { cardNumberFields } from '../../../contract/guides.ts';

/**
 * A copy of GraphQL variables safe to keep and show: card numbers (`card_number`, legacy `number`) masked to first 6 /
 * last 4, `cvv` removed at any depth. Depth and size are bounded, as the summary is for eyes, not for replay.
 *
 * Runs on every GraphQL request with variables, so it walks objects with `for…in` and compares keys directly
 * instead of `Object.entries` and Set lookups, which allocate an array per object walked.
 */
export function summarizeVariables(value: unknown, depth = 0): unknown {
  // A card number can arrive in any field, even as a JSON number (fuzzing sent one as an amount): mask every
  // card-like digit run. Shorter strings and smaller numbers cannot hold one, so they skip the regular expression.
  if (typeof value === 'string') return value.length >= 12 ? maskDigits(value) : value;
  if (typeof value === 'number') return value >= 1e11 || value <= -1e11 ? maskDigits(String(value)) : value;
  if (value === null || typeof value !== 'object') return value;
  if (depth > 6) return '[…]';
  if (Array.isArray(value)) {
    const n = Math.min(value.length, 20);
    const list: unknown[] = new Array(n);
    for (let i = 0; i < n; i++) list[i] = summarizeVariables(value[i], depth + 1);
    return list;
  }
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key in source) {
    if (!Object.hasOwn(source, key) || key === 'cvv') continue;
    const v = source[key];
    out[key] =
      cardNumberFields.has(key) && typeof v === 'string' ? maskCardNumber(v) : summarizeVariables(v, depth + 1);
  }
  return out;
}
