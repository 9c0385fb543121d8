/**
 * The one check for "a JSON object" (not null, not an array), shared by every entry that reads JSON.
 *
 * @module
 */

/**
 * Whether `value` is a non-null, non-array object.
 *
 * @example
 * if (isPlainObject(body)) body.refresh_token;
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
