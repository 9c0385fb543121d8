/**
 * The vocabulary of the 7.3 validation: the problems and the walk that collects them, the message catalogue (every
 * message names the path and the rule, never the card number or CVV) and the format predicates of more than one
 * comparison. Free of graphql-js, so the control handle words a card number's problem with it at no load cost.
 *
 * @module
 */
import type { Assumptions } from '../../../assumptions.ts';
import { requiredMessage } from '../../../contract/error-shapes.ts';
import { utf8ByteLength } from '../../../internal/text-bytes.ts';
import type { CardNumberProblem } from '../domain/cards.ts';
import type { FeeCalculator } from '../domain/fees.ts';
import type { CardAccount, Guide, MockState } from '../domain/payments.ts';

/** Dotted input path → messages (the `extensions.validation` object of spec 7.3). */
export type Problems = Record<string, string[]>;

/** The card-account lookup of the validation: the mock's state, or an account read ahead of it (a shared store). */
export type CardLookup = Pick<MockState, 'cardAccount'>;

/** What a validation reads besides its input. */
export interface ValidationDeps {
  readonly assumptions: Assumptions;
  /** Where a `card_account_uid` is looked up. */
  readonly state: CardLookup;
  readonly fees: FeeCalculator;
  /** Mock clock, for expiry checks. */
  now(): number;
}

/**
 * One validation of one request: who asks, in which guide, the problems so far and the facts the rules found.
 * Created per request; the rules write `account`, `cardType` and `expectedFee` so later rules and the validators
 * need not look them up again.
 */
export interface Walk {
  readonly deps: ValidationDeps;
  readonly guide: Guide;
  readonly clientId: string;
  /** Whether the operation refuses the test card the service rejects (payments, card validation; not pricing). */
  readonly rejectsTestCards: boolean;
  /** Undefined until the first problem, so a valid request allocates no problems object. */
  problems: Problems | undefined;
  /** Bit per table field that has reported: a field's later rules are skipped (one message per rule chain). */
  reported: number;
  /** The card account named by `card_account_uid`, once found. */
  account: CardAccount | undefined;
  /** The card type of a card number that passed the card-number rules. */
  cardType: string | undefined;
  /** The calculated fee, once a sent fee was found not to match it (for the message). */
  expectedFee: number;
  /** The field on which a well-formed expiry is in the past ('' when it is not), once compared with the clock. */
  expiredOn: 'expiry_month' | 'expiry_year' | '' | undefined;
}

/**
 * Starts the walk of one request.
 *
 * @example
 * const walk = startWalk(deps, 'current', 'test-client', true, undefined);
 */
export function startWalk(
  deps: ValidationDeps,
  guide: Guide,
  clientId: string,
  rejectsTestCards: boolean,
  problems: Problems | undefined,
): Walk {
  return {
    deps,
    guide,
    clientId,
    rejectsTestCards,
    problems,
    reported: 0,
    account: undefined,
    cardType: undefined,
    expectedFee: 0,
    expiredOn: undefined,
  };
}

/**
 * Adds one message at a path, creating the problems object on first use.
 *
 * @example
 * problems = addProblem(problems, 'input.amount', 'The input.amount must be a number.');
 */
export function addProblem(problems: Problems | undefined, path: string, message: string): Problems {
  const out = problems ?? {};
  const list = out[path];
  if (list) list.push(message);
  else out[path] = [message];
  return out;
}

/**
 * Whether a value counts as given: not undefined, null, or an empty (blank) string.
 *
 * @example
 * isPresent('  '); // false
 */
export function isPresent(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'string') return true;
  for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) > 32) return true;
  return false;
}

/**
 * Whether a value is a given string (not blank): the values the format rules of strings look at.
 *
 * @example
 * if (isGivenText(card.cvv)) checkDigits(card.cvv);
 */
export function isGivenText(value: unknown): value is string {
  return typeof value === 'string' && isPresent(value);
}

/**
 * Whether a string looks like an email address. Deliberately loose: one @, something on both sides, a dot in the
 * domain, no blanks. The service's rule is not published.
 *
 * @example
 * looksLikeEmail('ada@example.com'); // true
 */
export function looksLikeEmail(value: string): boolean {
  const at = value.indexOf('@');
  if (at <= 0 || at !== value.lastIndexOf('@')) return false;
  const dot = value.lastIndexOf('.');
  if (dot < at + 2 || dot === value.length - 1) return false;
  for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) <= 32) return false;
  return true;
}

/**
 * Whether `value` nests deeper than `maxDepth` (the value itself is level 1; each object or array inside adds one).
 * Walks with an explicit stack and stops at the first level past the limit, so no input can exhaust the call stack.
 *
 * @example
 * nestsDeeperThan({ a: { b: {} } }, 2); // true
 */
export function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 1 }];
  while (stack.length > 0) {
    const { value: v, depth } = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > maxDepth) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v))
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}

/**
 * The size of a value as JSON in UTF-8 bytes. Call it only on a value whose depth is bounded
 * ({@link nestsDeeperThan}), so serializing cannot recurse out of the stack.
 *
 * @example
 * jsonBytes({ a: 'é' }); // 10
 */
export function jsonBytes(value: unknown): number {
  return utf8ByteLength(JSON.stringify(value));
}

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
 * The validation message of a card number that breaks the card-number rule (domain/cards.ts), for the
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
