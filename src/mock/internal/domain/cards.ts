/**
 * Card rules of the mock: Luhn check, card type detection, the one card-number rule (used by GraphQL input
 * validation and by `registerCardAccount`), expiry against the mock clock, and the documented test cards with their
 * outcomes. Pure functions over strings; the 7.3 messages are written by the GraphQL validator, which knows the
 * input paths. Any Luhn-valid number of a supported card type is accepted and settles as success; the test cards are
 * the exceptions, plus one success card per default card type (the README lists them; tests pin each number).
 *
 * @module
 */
import type { Assumptions } from '../../../assumptions.ts';
import { testCardNumbers } from '../../../test-values.ts';

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

/** Which part of the rule a card number breaks. */
export type CardNumberProblem = 'digits' | 'length' | 'luhn' | 'unsupported';

/** The outcome of {@link checkCardNumber}. */
export type CardNumberCheck =
  | { readonly ok: true; readonly cardType: string }
  | { readonly ok: false; readonly problem: CardNumberProblem };

/**
 * Checks `number` against the rule, in order, and names the first part it breaks.
 *
 * @example
 * checkCardNumber('4111111111111111', defaultAssumptions); // { ok: true, cardType: 'visa' }
 */
export function checkCardNumber(number: string, assumptions: Assumptions): CardNumberCheck {
  const { min, max } = assumptions.bounds.cardNumberDigits;
  if (!isDigits(number)) return { ok: false, problem: 'digits' };
  if (number.length < min || number.length > max) return { ok: false, problem: 'length' };
  if (!luhnValid(number)) return { ok: false, problem: 'luhn' };
  const cardType = detectCardType(number, assumptions.cardTypes);
  if (cardType === undefined || !assumptions.feeTable.some((r) => r.card_type === cardType))
    return { ok: false, problem: 'unsupported' };
  return { ok: true, cardType };
}

/**
 * What happens to a payment made with a card:
 * - `success`: accepted (`processing`), settles as the success status after `settleDelayMs`;
 * - `failure`: accepted (`processing`), settles as the failure status;
 * - `processing`: accepted and stays `processing` until settled through the control API (never on its own);
 * - `rejected`: refused before processing with a 7.3 validation error on the card number (fee calculation still
 *   prices it, as pricing processes nothing).
 */
export type CardOutcome = 'success' | 'failure' | 'processing' | 'rejected';

/** One documented test card. */
export interface TestCard {
  /** The card number (Luhn-valid). Test data, never a real card. */
  readonly number: string;
  /** Card type the default `Assumptions.cardTypes` detect for it. */
  readonly card_type: string;
  /** What a payment with this card does. */
  readonly outcome: CardOutcome;
  /** One line for the README table. */
  readonly description: string;
}

/**
 * The documented test cards, keyed by a name for use in tests.
 *
 * @example
 * const card = { card_number: testCards.visaSuccess.number, expiry_month: '12', expiry_year: '39', cvv: '123', full_name: 'Ada' };
 */
export const testCards = {
  visaSuccess: {
    number: testCardNumbers.visaSuccess,
    card_type: 'visa',
    outcome: 'success',
    description: 'Visa; payment settles as success.',
  },
  mastercardSuccess: {
    number: testCardNumbers.mastercardSuccess,
    card_type: 'mastercard',
    outcome: 'success',
    description: 'Mastercard; payment settles as success.',
  },
  amexSuccess: {
    number: testCardNumbers.amexSuccess,
    card_type: 'amex',
    outcome: 'success',
    description: 'American Express; payment settles as success.',
  },
  dinersSuccess: {
    number: testCardNumbers.dinersSuccess,
    card_type: 'diners',
    outcome: 'success',
    description: 'Diners Club; payment settles as success.',
  },
  visaSettlesAsFailure: {
    number: testCardNumbers.visaSettlesAsFailure,
    card_type: 'visa',
    outcome: 'failure',
    description: 'Accepted (processing), then settles as failure: the webhook reports the failure status.',
  },
  visaRejectedAsInvalid: {
    number: testCardNumbers.visaRejectedAsInvalid,
    card_type: 'visa',
    outcome: 'rejected',
    description:
      'Luhn-valid, but the service rejects it as invalid before processing: a validation error on the card number.',
  },
  visaStaysProcessing: {
    number: testCardNumbers.visaStaysProcessing,
    card_type: 'visa',
    outcome: 'processing',
    description: 'Accepted and stays processing until settled through the control API; never settles on its own.',
  },
} as const satisfies Record<string, TestCard>;

/** Name of a documented test card. */
export type TestCardName = keyof typeof testCards;

const outcomeByNumber: ReadonlyMap<string, CardOutcome> = new Map(
  Object.values(testCards).map((card): [string, CardOutcome] => [card.number, card.outcome]),
);

/** The outcome of a card number: the test card's, or `success` for any other accepted card. */
export function cardOutcome(cardNumber: string): CardOutcome {
  return outcomeByNumber.get(cardNumber) ?? 'success';
}
