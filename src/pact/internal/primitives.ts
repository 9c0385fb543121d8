/**
 * Matchers for the value types the spec names without fixing a value. Each choice is explained once here; the
 * shape matchers build on these.
 *
 * @module
 */
import { MatchersV3 } from '@pact-foundation/pact';

/**
 * Money (spec: float / number). `number`, not `decimal`: JSON writers print a whole amount such as 100 without a
 * fractional part, which Pact's decimal matcher rejects, so `decimal` would fail a correct provider by accident.
 */
export function money(example: number) {
  return MatchersV3.number(example);
}

/** ISO 8601 date-time with optional fraction and any offset; the spec fixes the form, not the precision or zone. */
export const iso8601Pattern = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?(?:Z|[+-]\\d{2}:?\\d{2})$';

/**
 * A timestamp "in ISO 8601 form" (spec 2.7). A regex rather than `datetime(format)`: a datetime format pins one
 * precision and one zone designator, while the spec allows any ISO 8601 date-time.
 */
export function isoTimestamp(example: string) {
  return MatchersV3.regex(iso8601Pattern, example);
}

/** Any string: the spec gives the type (names, messages, tokens, identifiers) and no format. */
export function text(example: string) {
  return MatchersV3.string(example);
}

/** An `<ERROR_CODE string>` (spec 7.2): the catalogue is not published, the upper-snake form is. */
export const errorCodePattern = '^[A-Z][A-Z0-9_]*$';

/** A reason code of spec 7.2, matched by its form; the example is the kit's code from ASSUMPTIONS.md. */
export function errorCode(example: string) {
  return MatchersV3.regex(errorCodePattern, example);
}
