/**
 * Card rules of the mock: Luhn check, card type detection, the one card-number rule (used by GraphQL input
 * validation and by `registerCardAccount`), expiry against the mock clock, the documented test cards with their
 * outcomes, and the card accounts a client keeps (never the full number or the CVV; a uid derived by SHA-256 over
 * the instance seed, client id, card number and expiry, so the same card gives the same uid for the same client, also
 * after a reset). Pure functions over strings; the 7.3 messages are written by the GraphQL validator, which knows the
 * input paths. Any Luhn-valid number of a supported card type is accepted and settles as success; the test cards are
 * the exceptions, plus one success card per default card type (the README lists them; tests pin each number).
 *
 * @module
 */
import type { Assumptions } from '../../../assumptions.ts';
import { maskCardNumber } from '../../../contract/card-masking.ts';
import { kitMessage } from '../../../internal/messages.ts';
import { testCardNumbers } from '../../../test-values.ts';
import type { CardAccount, CardAccountInput, CardOutcome } from '../store/stored.ts';
import { uuidV4FromHex } from './random.ts';

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

/** The card part of a client's state (payments.ts keeps it together with the client's payments). */
export interface ClientCards {
  /** The client's card accounts by uid, in creation order: the oldest is evicted first. */
  readonly cards: Map<string, CardAccount>;
  /**
   * The client's last card and its uid: a client paying again with the same card skips the SHA-256 of
   * {@link deriveCardAccountUid}, which would otherwise run on every payment. `lastCard` is the hash's input less
   * the seed and client id (both fixed for this state), so the uid is the one the hash gives. Holds one card number
   * per client in memory (as the request being answered does), never written to a record, the journal or the log.
   */
  lastCard?: string;
  lastUid?: string;
}

/** The uid of a card for a client, through the client's last-card memo. */
export function cardUid(
  c: ClientCards,
  seed: string,
  clientId: string,
  card: CardAccountInput,
  sha256Hex: (text: string) => string,
): string {
  const key = cardKey(card);
  const uid = c.lastCard === key ? c.lastUid! : deriveCardAccountUid(sha256Hex, seed, clientId, card);
  c.lastCard = key;
  c.lastUid = uid;
  return uid;
}

/** The card account `uid` of a card for a client, as it is kept (never the card number). */
export function cardAccountOf(
  uid: string,
  o: {
    readonly clientId: string;
    readonly card: CardAccountInput;
    readonly assumptions: Pick<Assumptions, 'cardTypes'>;
  },
): CardAccount {
  const { card, clientId } = o;
  const cardType = detectCardType(card.card_number, o.assumptions.cardTypes);
  if (cardType === undefined)
    throw new Error(kitMessage('card type not detected; validate the card before storing it.'));
  return {
    card_account_uid: uid,
    clientId,
    card_type: cardType,
    masked_card_number: maskCardNumber(card.card_number),
    expiry_month: card.expiry_month,
    expiry_year: card.expiry_year,
    outcome: cardOutcome(card.card_number),
  };
}

/** A new card account `uid` of a card for a client, stored (evicting the oldest past `maxCards`). */
export function createCard(
  c: ClientCards,
  uid: string,
  o: {
    readonly clientId: string;
    readonly card: CardAccountInput;
    readonly maxCards: number;
    readonly assumptions: Pick<Assumptions, 'cardTypes'>;
  },
): CardAccount {
  const account = cardAccountOf(uid, o);
  if (c.cards.size >= o.maxCards) {
    const oldest = c.cards.keys().next().value;
    if (oldest !== undefined) c.cards.delete(oldest);
  }
  c.cards.set(uid, account);
  return account;
}

/**
 * Derives the `card_account_uid` of a card for a client: SHA-256 over the instance seed, client id, card number and
 * expiry, formatted as a version 4 uuid (so strict client-side uuid checks accept it; it is not random). The seed
 * acts as a key, so uids of one mock instance cannot be precomputed elsewhere; a one-shot hash instead of an HMAC
 * because this runs on every payment and the uid only has to be stable and unguessable in a test tool. `sha256Hex` is
 * the platform's.
 */
export function deriveCardAccountUid(
  sha256Hex: (text: string) => string,
  seed: string,
  clientId: string,
  card: CardAccountInput,
): string {
  return uuidV4FromHex(sha256Hex(`${seed}\0${clientId}\0${cardKey(card)}`), '-');
}

/** The card's part of the uid's hash input: number and expiry. The last-card memo compares it too, so one format. */
function cardKey(card: CardAccountInput): string {
  return `${card.card_number}\0${card.expiry_month}${card.expiry_year}`;
}
