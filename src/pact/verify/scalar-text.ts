/**
 * A value a pact file should hold as text (a header, a state's name, a comment, message metadata), as text.
 *
 * `String()` on a list joins its items, and on a list nested thousands deep it overflows the stack, so a list or an
 * object, which a pact never writes in these places, reads as a word that says what it was; the checks then report
 * the mismatch.
 *
 * @module
 */

/**
 * Text for a scalar; `[a list]` or `[an object]` for anything else; '' for null and undefined.
 *
 * @example
 * scalarText(200); // '200'
 * scalarText([['application/json']]); // '[a list]'
 */
export function scalarText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return Array.isArray(value) ? '[a list]' : '[an object]';
  return String(value);
}
