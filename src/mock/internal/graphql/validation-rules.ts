/**
 * The format rules of every input the mock validates, as data: one row per field and rule, read top to bottom, with
 * the rules and conditions the rows name and the card a walk lets through. Requiredness is not here: it comes from
 * the schema's `@serverRequired` and is checked first.
 *
 * How a table is read (validation.ts): a row applies when the request is in the row's guide, its `when` conditions
 * hold and its field is given (not undefined or null; a `parent.*` field is each field of that object). A field's
 * rows form a chain: the first rule it breaks gives its message, and its later rows are skipped. Messages keep the
 * table's order, so the answer lists them as the rows do. The ledger rows these carry out are in ASSUMPTIONS.md
 * ("Validation"), and `test/mock/internal/graphql/validation-rules.test.ts` holds one to each.
 *
 * A rule is a predicate on a given value (never undefined or null: requiredness covers those) that holds when the
 * value passes; a condition says whether a row applies to this request at all. Rules of strings pass any other type
 * and blank text, as the schema's types and the required check cover those.
 *
 * @module
 */
import { cardNumberField, type GuideName } from '../../../contract/guides.ts';
import { ipVersion } from '../../../internal/ip-address.ts';
import { isPlainObject } from '../../../internal/plain-object.ts';
import { cardOutcome, detectCardType, expiryProblems, isDigits, luhnValid } from '../domain/cards.ts';
import type { CardAccount, CardAccountInput } from '../domain/payments.ts';
import type { CardOutcome } from '../store/stored.ts';
import {
  isGivenText,
  isPresent,
  jsonBytes,
  looksLikeEmail,
  nestsDeeperThan,
  type RuleMessageKey,
  type Walk,
} from './validation-messages.ts';

/** A card that passed validation: from a known card account, or from raw details. */
export interface ValidatedCard {
  readonly card_type: string;
  readonly outcome: CardOutcome;
  /** The card account, when the request named one by `card_account_uid`. */
  readonly account: CardAccount | undefined;
  /** The raw details (no CVV), when the request sent them. */
  readonly details: CardAccountInput | undefined;
}

/**
 * The card type of the card input `card` once its rules passed, or undefined when the card is not usable (not an
 * object, or a detail missing; those are reported as required). Valid only while the walk has no problems.
 *
 * @example
 * const cardType = passedCardType(input.credit_card, walk);
 */
function passedCardType(card: unknown, walk: Walk): string | undefined {
  if (!isPlainObject(card)) return undefined;
  if (isPresent(card.card_account_uid)) return walk.account?.card_type;
  const detailsGiven =
    isGivenText(card[cardNumberField[walk.guide]]) &&
    isGivenText(card.expiry_month) &&
    isGivenText(card.expiry_year) &&
    isGivenText(card.cvv);
  return detailsGiven ? walk.cardType : undefined;
}

/**
 * The card input `card` as a {@link ValidatedCard}, or undefined when it is not usable. Valid only while the walk has
 * no problems.
 *
 * @example
 * const card = walk.problems ? undefined : passedCard(input.credit_card, walk);
 */
export function passedCard(card: unknown, walk: Walk): ValidatedCard | undefined {
  const cardType = passedCardType(card, walk);
  if (cardType === undefined || !isPlainObject(card)) return undefined;
  const account = walk.account;
  if (isPresent(card.card_account_uid) && account)
    return { card_type: cardType, outcome: account.outcome, account, details: undefined };
  const number = card[cardNumberField[walk.guide]] as string;
  return {
    card_type: cardType,
    outcome: cardOutcome(number),
    account: undefined,
    details: {
      card_number: number,
      expiry_month: card.expiry_month as string,
      expiry_year: card.expiry_year as string,
    },
  };
}

/** The object that holds a rule's field (the input, the card, the contact). */
type Parent = Readonly<Record<string, unknown>>;

/** A rule: true when `value`, a field of `parent`, passes. */
export type Rule = (value: unknown, parent: Parent, walk: Walk) => boolean;

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isTwoDigits = (v: string): boolean => v.length === 2 && isDigits(v);

function knownCardAccount(uid: unknown, _card: Parent, walk: Walk): boolean {
  walk.account = typeof uid === 'string' ? walk.deps.state.cardAccount(walk.clientId, uid) : undefined;
  return walk.account !== undefined;
}

function supportedCardType(number: unknown, _card: Parent, walk: Walk): boolean {
  if (!isGivenText(number)) return true;
  const cardType = detectCardType(number, walk.deps.assumptions.cardTypes);
  if (cardType === undefined || !walk.deps.assumptions.feeTable.some((r) => r.card_type === cardType)) return false;
  walk.cardType = cardType;
  return true;
}

/** The field on which the card's well-formed expiry is in the past, or '', compared with the clock once per walk. */
function expiredOn(card: Parent, walk: Walk): 'expiry_month' | 'expiry_year' | '' {
  if (walk.expiredOn === undefined) {
    const past = expiryProblems(card.expiry_month as string, card.expiry_year as string, walk.deps.now());
    walk.expiredOn = past[0]?.field ?? '';
  }
  return walk.expiredOn;
}

function matchesCalculatedFee(fees: unknown, input: Parent, walk: Walk): boolean {
  const amount = input.amount;
  const cardType = passedCardType(input.credit_card, walk);
  if (typeof fees !== 'number' || typeof amount !== 'number' || cardType === undefined) return true;
  const expected = walk.deps.fees.forCardType(amount, cardType)?.fees;
  if (expected === undefined || Math.abs(fees - expected) <= walk.deps.assumptions.bounds.feeTolerance + 1e-9)
    return true;
  walk.expectedFee = expected;
  return false;
}

/**
 * Every rule of the table, by the name its rows use.
 *
 * @example
 * rules.number(Number.NaN, input, walk); // false
 */
export const rules = {
  /** Any string no longer than `bounds.maxTextLength` (blank ones too). */
  text: (v, _p, w) => typeof v !== 'string' || v.length <= w.deps.assumptions.bounds.maxTextLength,
  /** A finite number (a GraphQL literal too large for a double arrives as Infinity). */
  number: (v) => isNumber(v),
  positive: (v) => !isNumber(v) || v > 0,
  notNegative: (v) => !isNumber(v) || v >= 0,
  atMostMaxAmount: (v, _p, w) => !isNumber(v) || v <= w.deps.assumptions.bounds.maxAmount,
  /** The `fees` sent equal the calculated fee within `bounds.feeTolerance` (needs the amount and a passed card). */
  matchesCalculatedFee,
  /** Names a card account of the asking client (remembered on the walk). */
  knownCardAccount,
  /** The card behind the card account has not expired on the mock's clock (valid through the end of its month). */
  cardAccountNotExpired: (_v, _p, { account, deps }) =>
    account === undefined || expiryProblems(account.expiry_month, account.expiry_year, deps.now()).length === 0,
  /** The card account's card is not the test card the service rejects as invalid. */
  cardAccountNotRejected: (_v, _p, w) => w.account?.outcome !== 'rejected',
  digits: (v) => !isGivenText(v) || isDigits(v),
  cardNumberLength: (v, _p, w) => {
    const { min, max } = w.deps.assumptions.bounds.cardNumberDigits;
    return !isGivenText(v) || (v.length >= min && v.length <= max);
  },
  luhn: (v) => !isGivenText(v) || luhnValid(v),
  /** A card type the fee table prices (remembered on the walk). */
  supportedCardType,
  /** Not the test card the service rejects as invalid. */
  notRejectedTestCard: (v) => !isGivenText(v) || cardOutcome(v) !== 'rejected',
  twoDigits: (v) => !isGivenText(v) || isTwoDigits(v),
  monthOfYear: (v) => !isGivenText(v) || (Number(v) >= 1 && Number(v) <= 12),
  /** The expiry year is not before this year on the mock's clock. */
  yearNotPast: (_v, card, w) => expiredOn(card, w) !== 'expiry_year',
  /** In this year, the expiry month is not before this month on the mock's clock. */
  monthNotPast: (_v, card, w) => expiredOn(card, w) !== 'expiry_month',
  cvvLength: (v, _p, w) => {
    const { min, max } = w.deps.assumptions.bounds.cvvDigits;
    return !isGivenText(v) || (v.length >= min && v.length <= max);
  },
  email: (v) => !isGivenText(v) || looksLikeEmail(v),
  ipAddress: (v) => !isGivenText(v) || ipVersion(v) !== 0,
  jsonObject: (v) => isPlainObject(v),
  metadataDepth: (v, _p, w) => !nestsDeeperThan(v, w.deps.assumptions.bounds.maxMetadataDepth),
  metadataSize: (v, _p, w) => jsonBytes(v) <= w.deps.assumptions.bounds.maxMetadataBytes,
} as const satisfies Record<string, Rule>;

/** The name of a rule: the rule column of the table. */
type RuleName = keyof typeof rules;

/** A condition: true when a row applies to this request. `parent` holds the row's field. */
export type Condition = (parent: Parent, walk: Walk) => boolean;

/**
 * Every condition of the table, by the name its rows use in their `when` column.
 *
 * @example
 * conditions.cardDetails({ card_account_uid: 'a1' }, walk); // false
 */
export const conditions = {
  /** The card is named by `card_account_uid`: its details are not read. */
  cardAccount: (card) => isPresent(card.card_account_uid),
  /** The card is sent as details (no `card_account_uid`). */
  cardDetails: (card) => !isPresent(card.card_account_uid),
  /** Both expiry fields are given, so the month can be read as a month. */
  expiryGiven: (card) => isGivenText(card.expiry_month) && isGivenText(card.expiry_year),
  /** Both expiry fields are two digits and the month is 01 to 12, so the date can be compared with the clock. */
  expiryWellFormed: (card) => {
    const { expiry_month: month, expiry_year: year } = card;
    if (!isGivenText(month) || !isGivenText(year) || !isTwoDigits(month) || !isTwoDigits(year)) return false;
    return rules.monthOfYear(month);
  },
  /** The operation refuses the test card the service rejects (payments and card validation; pricing accepts it). */
  rejectsTestCards: (_p, walk) => walk.rejectsTestCards,
  /** Nothing else was reported, so a rule across fields reads only valid values and a mistake gives one message. */
  nothingElseFailed: (_p, walk) => walk.problems === undefined,
} as const satisfies Record<string, Condition>;

/** The name of a condition: an entry of the table's `when` column. */
type ConditionName = keyof typeof conditions;

/** One row of a rule table. */
export interface InputRule {
  /**
   * Dotted path of the field under the operation's input (`credit_card.cvv`), the name in each guide when the guides
   * differ (the card number), or `parent.*` for every field of that object.
   */
  readonly field: string | Readonly<Record<GuideName, string>>;
  /** The guide the row applies in; both when absent. */
  readonly guide?: GuideName;
  /** The rule the value must pass ({@link rules}). */
  readonly rule: RuleName;
  /** The message when it does not ({@link ruleMessages}). */
  readonly message: RuleMessageKey;
  /** Conditions that must all hold for the row to apply ({@link conditions}). */
  readonly when?: readonly ConditionName[];
}

const details = ['cardDetails'] as const;

/** The rules of a card input (`CreditCardInput`), relative to the card. */
const cardRules: readonly InputRule[] = [
  { field: 'card_account_uid', rule: 'text', message: 'tooLong', when: ['cardAccount'] },
  { field: 'card_account_uid', rule: 'knownCardAccount', message: 'unknownCardAccount', when: ['cardAccount'] },
  { field: 'card_account_uid', rule: 'cardAccountNotExpired', message: 'cardAccountExpired', when: ['cardAccount'] },
  {
    field: 'card_account_uid',
    rule: 'cardAccountNotRejected',
    message: 'rejectedCard',
    when: ['cardAccount', 'rejectsTestCards'],
  },
  { field: 'full_name', rule: 'text', message: 'tooLong', when: details },
  { field: cardNumberField, rule: 'digits', message: 'digitsOnly', when: details },
  { field: cardNumberField, rule: 'cardNumberLength', message: 'cardNumberDigitCount', when: details },
  { field: cardNumberField, rule: 'luhn', message: 'invalidCard', when: details },
  { field: cardNumberField, rule: 'supportedCardType', message: 'unsupportedCard', when: details },
  {
    field: cardNumberField,
    rule: 'notRejectedTestCard',
    message: 'rejectedCard',
    when: ['cardDetails', 'rejectsTestCards'],
  },
  { field: 'expiry_month', rule: 'twoDigits', message: 'twoDigits', when: details },
  { field: 'expiry_month', rule: 'monthOfYear', message: 'monthRange', when: ['cardDetails', 'expiryGiven'] },
  { field: 'expiry_year', rule: 'twoDigits', message: 'twoDigits', when: details },
  { field: 'expiry_year', rule: 'yearNotPast', message: 'yearPast', when: ['cardDetails', 'expiryWellFormed'] },
  { field: 'expiry_month', rule: 'monthNotPast', message: 'monthPast', when: ['cardDetails', 'expiryWellFormed'] },
  { field: 'cvv', rule: 'digits', message: 'digitsOnly', when: details },
  { field: 'cvv', rule: 'cvvLength', message: 'cvvDigitCount', when: details },
];

/** The rules of an `amount` (payment, card fee, fee list). */
const amountRules: readonly InputRule[] = [
  { field: 'amount', rule: 'number', message: 'notANumber' },
  { field: 'amount', rule: 'positive', message: 'amountPositive' },
  { field: 'amount', rule: 'atMostMaxAmount', message: 'amountMax' },
];

/** The rules of a contact (`ContactInput`; the legacy one also holds the payment reference). */
const contactRules: readonly InputRule[] = [
  { field: '*', rule: 'text', message: 'tooLong' },
  { field: 'email', rule: 'email', message: 'email' },
];

/**
 * The rows of `rows` moved under the object field `parent` (`credit_card`), so one input type's rules serve every
 * operation that takes it.
 *
 * @example
 * under('credit_card', cardRules); // rows on credit_card.cvv, ...
 */
export function under(parent: string, rows: readonly InputRule[]): InputRule[] {
  const move = (field: string) => `${parent}.${field}`;
  return rows.map((row) => ({
    ...row,
    field:
      typeof row.field === 'string'
        ? move(row.field)
        : { current: move(row.field.current), legacy: move(row.field.legacy) },
  }));
}

/** The rules of `processPaymentRequest`'s `input`, after requiredness. */
export const paymentRules: readonly InputRule[] = [
  ...amountRules,
  { field: 'fees', rule: 'number', message: 'notANumber' },
  { field: 'fees', rule: 'notNegative', message: 'feesNegative' },
  { field: 'fees', rule: 'atMostMaxAmount', message: 'amountMax' },
  ...under('credit_card', cardRules),
  ...under('contact', contactRules),
  { field: 'payment_reference.*', guide: 'current', rule: 'text', message: 'tooLong' },
  { field: 'metadata', rule: 'jsonObject', message: 'notAnObject' },
  { field: 'metadata', rule: 'metadataDepth', message: 'metadataDepth' },
  { field: 'metadata', rule: 'metadataSize', message: 'metadataBytes' },
  { field: 'vendor_device_id', rule: 'text', message: 'tooLong' },
  { field: 'ip_address', rule: 'text', message: 'tooLong' },
  { field: 'ip_address', rule: 'ipAddress', message: 'ip' },
  // Last, and only on an otherwise valid input: the comparison needs a valid amount and card.
  { field: 'fees', rule: 'matchesCalculatedFee', message: 'feeMismatch', when: ['nothingElseFailed'] },
];

/** The rules of `paymentCreditCardFeeCalc`'s arguments, after requiredness (walked without `rejectsTestCards`: it prices that card). */
export const cardFeeCalcRules: readonly InputRule[] = [
  ...amountRules,
  ...under('credit_card', cardRules),
  ...under('contact', contactRules),
];

/** The rules of `paymentGatewayFeesCalc`'s `amount`. */
export const feesCalcRules: readonly InputRule[] = amountRules;

/** The rules of the work-in-progress `creditCardValidation`'s card: the payment's card rules. */
export const cardValidationRules: readonly InputRule[] = cardRules;
