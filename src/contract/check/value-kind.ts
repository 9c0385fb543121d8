/**
 * The kinds of JSON value a schema position holds (GraphQL and JSON Schema reduce to the same few), whether a value
 * is of a kind, and a masked description of a value for reports: the words every check of the kit uses for "what
 * was there".
 *
 * @module
 */
import { maskCardNumbers } from '../card-masking.ts';

/** The kind of JSON value a schema position holds, in the terms both GraphQL and JSON Schema reduce to. */
export type ValueKind = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'list' | 'any';

/** What the schema says about one position. */
export interface PositionType {
  readonly kind: ValueKind;
  readonly nullable: boolean;
  /** The schema's own name for it (`Float!`, `[PaymentGatewayFee!]!`, `string`), for the reports. */
  readonly label: string;
}

/**
 * Whether an example value is of the kind the schema holds; null is decided by the caller (nullability).
 *
 * @example
 * valueFits('integer', 1.5); // false
 */
export function valueFits(kind: ValueKind, value: unknown): boolean {
  switch (kind) {
    case 'any':
      return true;
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'list':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
  }
}

/**
 * A few words for the kind of a JSON value found in a pact or on the wire. Digit runs that can be card numbers are
 * masked (see `maskCardNumbers`), and a value at a `secret` position (a CVV) is never shown.
 */
export function describeValue(value: unknown, secret = false): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (secret) return `a ${typeof value}`;
  if (typeof value === 'string')
    return `the string ${maskCardNumbers(JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value))}`;
  return `the ${typeof value} ${maskCardNumbers(JSON.stringify(value))}`;
}
