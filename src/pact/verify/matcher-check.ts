/**
 * Whether the matchers a pact puts on a value agree with what the schema says is there. A matcher widens an
 * example into a rule ("any number", "a list of at least one such object"), so it must not claim a kind of value
 * the schema never produces: `decimal` on an `Int`, `eachLike` on an object, `boolean` on a string.
 *
 * @module
 */
import type { Matcher } from './pact-model.ts';

/** The kind of JSON value a schema position holds, in the terms both GraphQL and JSON Schema reduce to. */
export type ValueKind = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'list' | 'any';

/** What the schema says about one position. */
export interface PositionType {
  readonly kind: ValueKind;
  readonly nullable: boolean;
  /** The schema's own name for it (`Float!`, `[PaymentGatewayFee!]!`, `string`), for the reports. */
  readonly label: string;
}

const isNumberKind = (kind: ValueKind) => kind === 'number' || kind === 'integer' || kind === 'any';
const isStringKind = (kind: ValueKind) => kind === 'string' || kind === 'any';

/** Matchers that only make sense for one kind of value, and the words for that kind. */
const scalarMatchers: Readonly<Record<string, { fits: (kind: ValueKind) => boolean; wants: string }>> = {
  integer: { fits: isNumberKind, wants: 'an integer' },
  number: { fits: isNumberKind, wants: 'a number' },
  decimal: { fits: (k) => k === 'number' || k === 'any', wants: 'a decimal number' },
  boolean: { fits: (k) => k === 'boolean' || k === 'any', wants: 'a boolean' },
  date: { fits: isStringKind, wants: 'a date string' },
  time: { fits: isStringKind, wants: 'a time string' },
  timestamp: { fits: isStringKind, wants: 'a timestamp string' },
  datetime: { fits: isStringKind, wants: 'a date-time string' },
  include: { fits: isStringKind, wants: 'a string' },
  semver: { fits: isStringKind, wants: 'a version string' },
  contentType: { fits: () => true, wants: 'content' },
  equality: { fits: () => true, wants: 'a value' },
  notEmpty: { fits: () => true, wants: 'a value' },
  regex: { fits: (k) => k !== 'object' && k !== 'list', wants: 'a value written as text' },
};

/** Matchers that describe a collection. */
const listMatchers = new Set(['arrayContains']);
const mapMatchers = new Set(['values', 'eachKey', 'eachValue']);

/**
 * The problems of the matchers on one value against its schema position; empty when they agree.
 *
 * @example
 * matcherProblems([{ match: 'decimal' }], { kind: 'integer', nullable: false, label: 'Int!' }, 3);
 * // ['matcher "decimal" wants a decimal number, the schema has Int!']
 */
export function matcherProblems(matchers: readonly Matcher[], position: PositionType, example: unknown): string[] {
  const problems: string[] = [];
  for (const matcher of matchers) {
    const name = matcher.match;
    const bounded = matcher.min !== undefined || matcher.max !== undefined || name === 'min' || name === 'max';
    if ((name === 'type' || name === 'min' || name === 'max') && bounded) {
      if (position.kind !== 'list' && position.kind !== 'any')
        problems.push(`matcher "${name}" with min/max (eachLike) wants a list, the schema has ${position.label}`);
      continue;
    }
    if (name === 'type') continue;
    if (name === 'null') {
      if (!position.nullable) problems.push(`matcher "null" wants null, the schema has non-null ${position.label}`);
      continue;
    }
    if (listMatchers.has(name)) {
      if (position.kind !== 'list' && position.kind !== 'any')
        problems.push(`matcher "${name}" wants a list, the schema has ${position.label}`);
      continue;
    }
    if (mapMatchers.has(name)) {
      if (position.kind !== 'object' && position.kind !== 'any')
        problems.push(`matcher "${name}" wants an object, the schema has ${position.label}`);
      continue;
    }
    const scalar = scalarMatchers[name];
    if (!scalar) {
      problems.push(`matcher "${name}" is not a Pact matcher the kit knows`);
      continue;
    }
    if (!scalar.fits(position.kind))
      problems.push(`matcher "${name}" wants ${scalar.wants}, the schema has ${position.label}`);
    if (name === 'regex' && typeof matcher.regex === 'string' && example !== null && typeof example !== 'object') {
      let pattern: RegExp | undefined;
      try {
        pattern = new RegExp(matcher.regex);
      } catch {
        problems.push(`matcher "regex" holds /${matcher.regex}/, which is not a valid regular expression`);
      }
      if (pattern && !pattern.test(String(example)))
        problems.push(`the example, ${describeValue(example)}, does not match its own regex /${matcher.regex}/`);
    }
  }
  return problems;
}

/** Whether a matcher on this value frees an object's keys (`values`, `eachKey`, `eachValue`). */
export function freesKeys(matchers: readonly Matcher[]): boolean {
  return matchers.some((m) => mapMatchers.has(m.match));
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

/** A run of 12 to 19 digits, with the spaces or dashes card numbers are written with. */
const longDigits = /\d(?:[ -]?\d){11,18}/g;

/** Masks anything that may be a card number as the kit's request log does: first 6 and last 4 digits. */
export function maskDigits(text: string): string {
  return text.replace(longDigits, (run) => {
    const digits = run.replace(/[ -]/g, '');
    return `${digits.slice(0, 6)}${'*'.repeat(digits.length - 10)}${digits.slice(-4)}`;
  });
}

/**
 * A few words for the kind of a JSON value found in a pact. Long digit runs are masked, and a value at a
 * `secret` position (a CVV) is never shown.
 */
export function describeValue(value: unknown, secret = false): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (secret) return `a ${typeof value}`;
  if (typeof value === 'string')
    return `the string ${maskDigits(JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value))}`;
  return `the ${typeof value} ${maskDigits(JSON.stringify(value))}`;
}
