/**
 * The rules and conditions the rule table names. A rule is a predicate on a given value (never undefined or null:
 * requiredness is the required check's business) that holds when the value passes; a condition says whether a row
 * applies to this request at all. Rules of strings pass any other type and blank text, as the schema's types and
 * the required check cover those.
 *
 * @module
 */
import { ipVersion } from '../../../../internal/ip-address.ts';
import { isPlainObject } from '../../../../internal/plain-object.ts';
import { detectCardType, expiryProblems, isDigits, luhnValid } from '../../domain/cards.ts';
import { cardOutcome } from '../../domain/test-cards.ts';
import { cardAccountExpired, findCardAccount } from './card-account.ts';
import { isGivenText, isPresent, type Walk } from './collector.ts';
import { jsonBytes, looksLikeEmail, nestsDeeperThan } from './formats.ts';
import { passedCardType } from './passed-card.ts';

/** The object that holds a rule's field (the input, the card, the contact). */
type Parent = Readonly<Record<string, unknown>>;

/** A rule: true when `value`, a field of `parent`, passes. */
export type Rule = (value: unknown, parent: Parent, walk: Walk) => boolean;

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isTwoDigits = (v: string): boolean => v.length === 2 && isDigits(v);

function knownCardAccount(uid: unknown, _card: Parent, walk: Walk): boolean {
  walk.account = findCardAccount(uid, walk);
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
  cardAccountNotExpired: (_v, _p, w) => w.account === undefined || !cardAccountExpired(w.account, w),
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
export type RuleName = keyof typeof rules;

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
export type ConditionName = keyof typeof conditions;
