/**
 * How a drift shows what the exchange held (`Drift.actual`): short, JSON-like, and never a secret. Card numbers keep
 * their first 6 and last 4 digits; CVVs, API keys, tokens, refresh tokens and signing keys are never shown.
 *
 * @module
 */
import { maskCardNumber, maskCardNumbers } from '../card-masking.ts';
import { cardNumberFields } from '../guides.ts';

/** Field and header names whose values are secrets: shown as their kind only. */
const secretName = /(cvv|token|api[-_]?key|signing|secret|password|signature|authorization|cookie)/i;

/** Whether a field or header name holds a secret the reports must not show. */
export function isSecretName(name: string | number | undefined): boolean {
  return typeof name === 'string' && secretName.test(name);
}

/**
 * A value as a drift's `actual`: `"VISA"`, `400`, `null`, `an object`, `a list of 3`, `(none)`; strings cut at 60
 * characters and card numbers masked (a card field's value always, other digit runs when they can be card numbers,
 * see {@link maskCardNumbers}); a value under a secret name shows only its kind (`a string (hidden)`).
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
  // A card field is masked even when its number is mistyped (fails Luhn): it is still someone's card number.
  if (
    typeof name === 'string' &&
    cardNumberFields.has(name) &&
    (typeof value === 'string' || typeof value === 'number')
  )
    return typeof value === 'string' ? JSON.stringify(maskCardNumber(value)) : maskCardNumber(String(value));
  if (typeof value === 'string')
    return maskCardNumbers(JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value));
  return maskCardNumbers(String(value));
}

/**
 * Any text for a report: digit runs that can be card numbers masked (Luhn-valid ones and runs too long to tell), other
 * numbers, such as a timestamp the report is about, shown whole.
 *
 * @example
 * maskText('card 4111 1111 1111 1111'); // 'card 411111******1111'
 */
export function maskText(text: string): string {
  return maskCardNumbers(text);
}
