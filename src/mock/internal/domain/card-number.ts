/**
 * The one card-number rule of the mock, used by GraphQL input validation and by `registerCardAccount`: digits only,
 * a digit count within `Assumptions.bounds.cardNumberDigits`, the Luhn check, and a card type that has a fee row.
 *
 * @module
 */
import type { Assumptions } from '../../../assumptions.ts';
import { detectCardType, isDigits, luhnValid } from './cards.ts';

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
