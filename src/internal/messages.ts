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
