/**
 * The one place the library's message prefix is written: every message the mock answers or logs starts with it, so
 * a reader knows which tool spoke.
 *
 * @module
 */

/** The prefix of every message of the kit. */
export const kitPrefix = '[payment-contract-kit]';

/**
 * Prefixes `text` with {@link kitPrefix}.
 *
 * @example
 * kitMessage('No payment with uuid "x": list them with payments().');
 */
export function kitMessage(text: string): string {
  return `${kitPrefix} ${text}`;
}

/**
 * `text` without its closing full stop (an ellipsis is kept), for quoting a sentence someone else wrote (a service
 * message, a Node error) inside a message that goes on: `required.` + `. Fix` would read `required.. Fix`.
 *
 * @example
 * `${clause('The input.contact field is required.')}. Fix the values.` // '... is required. Fix the values.'
 */
export function clause(text: string): string {
  return text.endsWith('.') && !text.endsWith('..') ? text.slice(0, -1) : text;
}

/**
 * An error as one line (name and message, whitespace folded), for a log line or a delivery record.
 *
 * @example
 * errorLine(new TypeError('bad\nvalue')); // 'TypeError: bad value'
 */
export function errorLine(error: unknown): string {
  return (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).replace(/\s+/g, ' ');
}
