/**
 * How a drift shows what the exchange held (`Drift.actual`): short, JSON-like, and never a secret. Card numbers keep
 * their first 6 and last 4 digits; CVVs, API keys, tokens, refresh tokens and signing keys are never shown.
 *
 * @module
 */
import { maskDigits } from '../card-masking.ts';

/** Field and header names whose values are secrets: shown as their kind only. */
const secretName = /(cvv|token|api[-_]?key|signing|secret|password|signature|authorization|cookie)/i;

/** Whether a field or header name holds a secret the reports must not show. */
export function isSecretName(name: string | number | undefined): boolean {
  return typeof name === 'string' && secretName.test(name);
}

/**
 * A value as a drift's `actual`: `"VISA"`, `400`, `null`, `an object`, `a list of 3`, `(none)`; strings cut at 60
 * characters and card numbers masked; a value under a secret name shows only its kind (`a string (hidden)`).
 *
 * @example
 * showValue('4111111111111111'); // '"411111******1111"'
 * showValue('abc', 'cvv'); // 'a string (hidden)'
 */
export function showValue(value: unknown, name?: string | number): string {
  if (value === undefined) return '(none)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value === 'object') return 'an object';
  if (isSecretName(name)) return `a ${typeof value} (hidden)`;
  if (typeof value === 'string')
    return maskDigits(JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value));
  return maskDigits(String(value));
}

/**
 * Any text for a report: long digit runs masked as card numbers.
 *
 * @example
 * maskText('card 4111 1111 1111 1111'); // 'card 411111******1111'
 */
export function maskText(text: string): string {
  return maskDigits(text);
}
