/**
 * The message catalogue of the 7.3 validation: every message names the path and the rule, never the card number or
 * CVV. {@link ruleMessages} binds each message to the bound it quotes, under the key the rule table names.
 *
 * @module
 */
import type { Assumptions } from '../../../../assumptions.ts';
import { requiredMessage } from '../../../../contract/error-shapes.ts';
import type { CardNumberProblem } from '../../domain/card-number.ts';
import type { Walk } from './collector.ts';

/** The validation messages, in one place so tests can pin them. */
export const validationMessages = {
  required: requiredMessage,
  twoDigits: (path: string) => `The ${path} must be exactly 2 digits.`,
  monthRange: (path: string) => `The ${path} must be a month from 01 to 12.`,
  yearPast: (path: string) => `The ${path} is in the past: the card has expired.`,
  monthPast: (path: string) => `The ${path} is in the past for this year: the card has expired.`,
  digitsOnly: (path: string) => `The ${path} must contain only digits.`,
  digitCount: (path: string, min: number, max: number) =>
    min === max ? `The ${path} must have ${min} digits.` : `The ${path} must have between ${min} and ${max} digits.`,
  invalidCard: (path: string) => `The ${path} is not a valid card number (checksum failed); the card was rejected.`,
  rejectedCard: (path: string) => `The card in ${path} was rejected as invalid; the payment was not processed.`,
  unsupportedCard: (path: string, supported: readonly string[]) =>
    `The card type of ${path} is not supported; supported card types: ${supported.join(', ')}.`,
  unknownCardAccount: (path: string) =>
    `The ${path} is not a card account of this client; get one from paymentCreditCardFeeCalc first.`,
  cardAccountExpired: (path: string) => `The card of ${path} has expired; send new card details.`,
  amountPositive: (path: string) => `The ${path} must be greater than 0.`,
  amountMax: (path: string, max: number) => `The ${path} must not be greater than ${max}.`,
  notANumber: (path: string) => `The ${path} must be a number.`,
  feeMismatch: (path: string, expected: number) =>
    `The ${path} does not match the fee for this amount and card (expected ${expected}); take it from a fee calculation.`,
  email: (path: string) => `The ${path} must be a valid email address.`,
  ip: (path: string) => `The ${path} must be a valid IPv4 or IPv6 address.`,
  tooLong: (path: string, max: number) => `The ${path} must not be longer than ${max} characters.`,
  notAnObject: (path: string) => `The ${path} must be a JSON object.`,
  feesNegative: (path: string) => `The ${path} must not be negative.`,
  metadataDepth: (path: string, max: number) =>
    `The ${path} must not be nested more than ${max} levels deep (assumptions.bounds.maxMetadataDepth).`,
  metadataBytes: (path: string, max: number) =>
    `The ${path} must not be larger than ${max} bytes as JSON (assumptions.bounds.maxMetadataBytes).`,
} as const;

const m = validationMessages;

/** The card types the fee table prices, as the unsupported-card message lists them. */
function supportedCardTypes(assumptions: Assumptions): string[] {
  return assumptions.feeTable.map((r) => r.card_type);
}

/**
 * The message of each rule of the table, by the key its row names: the catalogue's text with the bound it quotes
 * (read from the ledger at the time of the request) or the fee the walk calculated.
 *
 * @example
 * ruleMessages.cvvDigitCount('input.credit_card.cvv', walk); // 'The input.credit_card.cvv must have between 3 and 4 digits.'
 */
export const ruleMessages = {
  tooLong: (path, w) => m.tooLong(path, w.deps.assumptions.bounds.maxTextLength),
  notANumber: (path) => m.notANumber(path),
  amountPositive: (path) => m.amountPositive(path),
  feesNegative: (path) => m.feesNegative(path),
  amountMax: (path, w) => m.amountMax(path, w.deps.assumptions.bounds.maxAmount),
  feeMismatch: (path, w) => m.feeMismatch(path, w.expectedFee),
  unknownCardAccount: (path) => m.unknownCardAccount(path),
  cardAccountExpired: (path) => m.cardAccountExpired(path),
  rejectedCard: (path) => m.rejectedCard(path),
  digitsOnly: (path) => m.digitsOnly(path),
  cardNumberDigitCount: (path, w) => {
    const { min, max } = w.deps.assumptions.bounds.cardNumberDigits;
    return m.digitCount(path, min, max);
  },
  invalidCard: (path) => m.invalidCard(path),
  unsupportedCard: (path, w) => m.unsupportedCard(path, supportedCardTypes(w.deps.assumptions)),
  twoDigits: (path) => m.twoDigits(path),
  monthRange: (path) => m.monthRange(path),
  yearPast: (path) => m.yearPast(path),
  monthPast: (path) => m.monthPast(path),
  cvvDigitCount: (path, w) => {
    const { min, max } = w.deps.assumptions.bounds.cvvDigits;
    return m.digitCount(path, min, max);
  },
  email: (path) => m.email(path),
  ip: (path) => m.ip(path),
  notAnObject: (path) => m.notAnObject(path),
  metadataDepth: (path, w) => m.metadataDepth(path, w.deps.assumptions.bounds.maxMetadataDepth),
  metadataBytes: (path, w) => m.metadataBytes(path, w.deps.assumptions.bounds.maxMetadataBytes),
} as const satisfies Record<string, (path: string, walk: Walk) => string>;

/** The key of a message in {@link ruleMessages}: the message column of the rule table. */
export type RuleMessageKey = keyof typeof ruleMessages;

/**
 * The validation message of a card number that breaks the card-number rule (domain/card-number.ts), for the
 * callers that check a card number outside the table (registering a card account from the control API).
 *
 * @example
 * cardNumberMessage('luhn', 'card.card_number', defaultAssumptions);
 */
export function cardNumberMessage(problem: CardNumberProblem, path: string, assumptions: Assumptions): string {
  const { min, max } = assumptions.bounds.cardNumberDigits;
  if (problem === 'digits') return m.digitsOnly(path);
  if (problem === 'length') return m.digitCount(path, min, max);
  if (problem === 'luhn') return m.invalidCard(path);
  return m.unsupportedCard(path, supportedCardTypes(assumptions));
}
