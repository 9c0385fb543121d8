/**
 * Whether the matchers a pact puts on a value agree with what the schema says is there. A matcher widens an
 * example into a rule ("any number", "a list of at least one such object"), so it must not claim a kind of value
 * the schema never produces: `decimal` on an `Int`, `eachLike` on an object, `boolean` on a string.
 *
 * @module
 */
import { describeValue, type PositionType, type ValueKind } from '../../contract/check/value-kind.ts';
import type { Matcher } from './pact-model.ts';

export type { PositionType, ValueKind } from '../../contract/check/value-kind.ts';
export { describeValue, valueFits } from '../../contract/check/value-kind.ts';

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
    // Own keys only: a matcher named "constructor" or "toString" is not one of these.
    const scalar = Object.hasOwn(scalarMatchers, name) ? scalarMatchers[name] : undefined;
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
