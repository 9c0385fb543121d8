/**
 * The documented test cards of the mock, as typed data. Any Luhn-valid number of a supported card type is accepted
 * and settles as success; the cards below are the exceptions, plus one success card per default card type.
 * The README lists this table; tests pin every number's Luhn check and card type.
 *
 * @module
 */
import { testCardNumbers } from '../../../test-values.ts';

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
