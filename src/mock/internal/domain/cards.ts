/**
 * Card rules of the mock: Luhn check, card type detection, expiry against the mock clock, and masking.
 * Pure functions over strings; the 7.3 messages are written by the GraphQL validator, which knows the input paths.
 *
 * @module
 */
import type { Assumptions } from '../../../assumptions.ts';

/** True when `digits` (only ASCII digits, at least two) passes the Luhn checksum. */
export function luhnValid(digits: string): boolean {
  if (digits.length < 2) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** True when `value` is non-empty and holds only ASCII digits. */
export function isDigits(value: string): boolean {
  if (value.length === 0) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/**
 * The card type of a card number from `Assumptions.cardTypes` (first match wins), or undefined when none matches.
 *
 * @example
 * detectCardType('4111111111111111', defaultAssumptions.cardTypes) // 'visa'
 */
export function detectCardType(cardNumber: string, cardTypes: Assumptions['cardTypes']): string | undefined {
  for (const rule of cardTypes) if (rule.pattern.test(cardNumber)) return rule.card_type;
  return undefined;
}

/** One problem with a card's expiry, on the field a client has to fix. */
export interface ExpiryProblem {
  /** The input field the problem is reported on. */
  readonly field: 'expiry_month' | 'expiry_year';
  /** What is wrong: not two digits, month outside 01-12, or the date has passed. */
  readonly reason: 'format' | 'range' | 'past';
}

/**
 * Checks a two-digit expiry month and year against `nowMs` (the mock clock, UTC). A card is valid through the end
 * of its expiry month. A year before this one is reported on `expiry_year` (spec 7.3); this year with a month
 * already gone on `expiry_month`. Returns every problem found, empty when the expiry is fine.
 */
export function expiryProblems(month: string, year: string, nowMs: number): ExpiryProblem[] {
  const problems: ExpiryProblem[] = [];
  const monthOk = month.length === 2 && isDigits(month);
  const yearOk = year.length === 2 && isDigits(year);
  if (!monthOk) problems.push({ field: 'expiry_month', reason: 'format' });
  const m = monthOk ? Number(month) : 0;
  if (monthOk && (m < 1 || m > 12)) problems.push({ field: 'expiry_month', reason: 'range' });
  if (!yearOk) problems.push({ field: 'expiry_year', reason: 'format' });
  if (problems.length > 0) return problems;
  const now = new Date(nowMs);
  const thisYear = now.getUTCFullYear() % 100;
  const y = Number(year);
  if (y < thisYear) problems.push({ field: 'expiry_year', reason: 'past' });
  else if (y === thisYear && m < now.getUTCMonth() + 1) problems.push({ field: 'expiry_month', reason: 'past' });
  return problems;
}
