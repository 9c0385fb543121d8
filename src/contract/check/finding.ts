/**
 * One problem a contract walk found, before its caller gives it a side and a kind: the place, what was there, what
 * the contract wants. `verify` turns findings into its mismatches, the checker into drifts, so the walks are shared.
 *
 * @module
 */
import type { ValuePath } from './value-path.ts';

/** One problem at one place of a JSON document. */
export interface Finding {
  /** Where, from the document's root (`['data', 'paymentGatewayFeesCalc', 0, 'fees']`). */
  readonly path: ValuePath;
  /** What the document holds there, in a few words (secrets masked). */
  readonly message: string;
  /** What the contract expects there, with the document it comes from. */
  readonly expected: string;
}
