/**
 * Input validation of the mock in the service's 7.3 shape: dotted input path → messages. Every problem of one
 * request is collected, not only the first. Messages name the path and the rule, never the card number or CVV.
 *
 * Requiredness comes from the wire schema's `@serverRequired` metadata (one source, both guides); the other rules
 * (formats, bounds, Luhn, card type, expiry, fee match) are written here. Plain loops, no allocation while valid:
 * this runs on every payment request.
 *
 * @module
 */
import type { Assumptions } from '../../../assumptions.ts';
import { requiredMessage } from '../../../contract/error-shapes.ts';
import { cardNumberField } from '../../../contract/guides.ts';
import { ipVersion } from '../../../internal/ip-address.ts';
import { isPlainObject } from '../../../internal/plain-object.ts';
import { utf8ByteLength } from '../../../internal/text-bytes.ts';
import { type CardNumberProblem, checkCardNumber } from '../domain/card-number.ts';
import { expiryProblems, isDigits } from '../domain/cards.ts';
import type { FeeCalculator } from '../domain/fees.ts';
import { type CardOutcome, cardOutcome } from '../domain/test-cards.ts';
import type { CardAccount, CardAccountInput, Guide, MockState } from '../payments/state.ts';
import type { InputRequirements, WireRequirements } from './wire-schema.ts';
import type { WireCardFeeCalcArgs, WireCreditCardInput, WirePaymentInput } from './wire-types.ts';

/** Dotted input path → messages (the `extensions.validation` object of spec 7.3). */
export type Problems = Record<string, string[]>;

/** What the validator reads besides the request. */
export interface ValidationDeps {
  readonly assumptions: Assumptions;
  readonly state: MockState;
  readonly fees: FeeCalculator;
  /** Mock clock, for expiry checks. */
  now(): number;
}

/** A card that passed validation: from a known card account, or from raw details. */
export interface ValidatedCard {
  readonly card_type: string;
  readonly outcome: CardOutcome;
  /** The card account, when the request named one by `card_account_uid`. */
  readonly account: CardAccount | undefined;
  /** The raw details (no CVV), when the request sent them. */
  readonly details: CardAccountInput | undefined;
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

/** The validation message of a card number that breaks the card-number rule (domain/card-number.ts). */
export function cardNumberMessage(problem: CardNumberProblem, path: string, assumptions: Assumptions): string {
  const { min, max } = assumptions.bounds.cardNumberDigits;
  if (problem === 'digits') return m.digitsOnly(path);
  if (problem === 'length') return m.digitCount(path, min, max);
  if (problem === 'luhn') return m.invalidCard(path);
  return m.unsupportedCard(
    path,
    assumptions.feeTable.map((r) => r.card_type),
  );
}

/** Adds one message at a path, creating the problems object on first use. */
export function addProblem(problems: Problems | undefined, path: string, message: string): Problems {
  const out = problems ?? {};
  const list = out[path];
  if (list) list.push(message);
  else out[path] = [message];
  return out;
}

/** Whether a value counts as given: not undefined, null, or an empty (blank) string. */
export function isPresent(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'string') return true;
  for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) > 32) return true;
  return false;
}

/**
 * Checks every `@serverRequired` position under `value` (fields of `requirements`, descending into nested input
 * objects), honouring `unlessPresent`. `prefix` is the dotted path of `value` with a trailing dot, or '' for
 * arguments.
 */
export function checkRequired(
  all: WireRequirements,
  requirements: InputRequirements | undefined,
  value: Readonly<Record<string, unknown>>,
  prefix: string,
  problems: Problems | undefined,
): Problems | undefined {
  if (!requirements) return problems;
  let out = problems;
  for (const r of requirements.required) {
    if (r.unlessPresent !== undefined && isPresent(value[r.unlessPresent])) continue;
    if (!isPresent(value[r.name])) out = addProblem(out, prefix + r.name, m.required(prefix + r.name));
  }
  for (const n of requirements.nested) {
    const child = value[n.name];
    if (isPlainObject(child)) out = checkRequired(all, all.inputTypes.get(n.type), child, `${prefix}${n.name}.`, out);
  }
  return out;
}

function checkText(value: unknown, path: string, max: number, problems: Problems | undefined): Problems | undefined {
  return typeof value === 'string' && value.length > max ? addProblem(problems, path, m.tooLong(path, max)) : problems;
}

/** Checks every string field of an input object against the text length bound. */
function checkTexts(
  obj: Readonly<Record<string, unknown>>,
  prefix: string,
  max: number,
  problems: Problems | undefined,
): Problems | undefined {
  let out = problems;
  for (const key in obj) {
    const v = obj[key];
    if (typeof v === 'string' && v.length > max) out = addProblem(out, prefix + key, m.tooLong(prefix + key, max));
  }
  return out;
}

/**
 * Whether `value` nests deeper than `maxDepth` (the value itself is level 1; each object or array inside adds one).
 * Walks with an explicit stack and stops at the first level past the limit, so no input can exhaust the call stack.
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
 * Checks `metadata`: a JSON object, nested at most `bounds.maxMetadataDepth` levels, at most
 * `bounds.maxMetadataBytes` bytes as JSON. Refused here, when it arrives: the payment status webhook echoes it.
 */
export function checkMetadata(
  metadata: unknown,
  path: string,
  assumptions: Assumptions,
  problems: Problems | undefined,
): Problems | undefined {
  if (metadata === undefined || metadata === null) return problems;
  if (!isPlainObject(metadata)) return addProblem(problems, path, m.notAnObject(path));
  const { maxMetadataDepth, maxMetadataBytes } = assumptions.bounds;
  if (nestsDeeperThan(metadata, maxMetadataDepth))
    return addProblem(problems, path, m.metadataDepth(path, maxMetadataDepth));
  // The depth is bounded now, so serializing cannot recurse out of the stack.
  if (utf8ByteLength(JSON.stringify(metadata)) > maxMetadataBytes)
    return addProblem(problems, path, m.metadataBytes(path, maxMetadataBytes));
  return problems;
}

/** Checks fees: a finite number, not negative, at most `bounds.maxAmount`. */
export function checkFees(
  fees: unknown,
  path: string,
  assumptions: Assumptions,
  problems: Problems | undefined,
): Problems | undefined {
  if (fees === undefined || fees === null) return problems;
  if (typeof fees !== 'number' || !Number.isFinite(fees)) return addProblem(problems, path, m.notANumber(path));
  if (fees < 0) return addProblem(problems, path, m.feesNegative(path));
  if (fees > assumptions.bounds.maxAmount)
    return addProblem(problems, path, m.amountMax(path, assumptions.bounds.maxAmount));
  return problems;
}

/** Checks an amount: a finite number, greater than zero, at most `bounds.maxAmount`. */
export function checkAmount(
  amount: unknown,
  path: string,
  assumptions: Assumptions,
  problems: Problems | undefined,
): Problems | undefined {
  if (amount === undefined || amount === null) return problems;
  if (typeof amount !== 'number' || !Number.isFinite(amount)) return addProblem(problems, path, m.notANumber(path));
  if (amount <= 0) return addProblem(problems, path, m.amountPositive(path));
  if (amount > assumptions.bounds.maxAmount)
    return addProblem(problems, path, m.amountMax(path, assumptions.bounds.maxAmount));
  return problems;
}

/** Result of {@link checkCard}: the card when it passed, plus the problems so far. */
export interface CardCheck {
  readonly card: ValidatedCard | undefined;
  readonly problems: Problems | undefined;
}

/**
 * Validates a card input: either a `card_account_uid` of this client, or raw details (digits, length, Luhn,
 * supported type, expiry against the clock, CVV). With `rejectTestCards`, the test card the service rejects as
 * invalid is refused (payments and card validation; fee calculation only prices and accepts it).
 * Requiredness is checked by {@link checkRequired}; a missing field here is skipped, not reported twice.
 */
export function checkCard(
  card: WireCreditCardInput,
  path: string,
  guide: Guide,
  clientId: string,
  deps: ValidationDeps,
  rejectTestCards: boolean,
  problems: Problems | undefined,
): CardCheck {
  const { assumptions } = deps;
  const max = assumptions.bounds.maxTextLength;
  let out = problems;
  const uid = card.card_account_uid;
  if (isPresent(uid)) {
    const uidPath = `${path}.card_account_uid`;
    if (typeof uid === 'string' && uid.length > max)
      return { card: undefined, problems: addProblem(out, uidPath, m.tooLong(uidPath, max)) };
    const account = typeof uid === 'string' ? deps.state.cardAccount(clientId, uid) : undefined;
    if (!account) return { card: undefined, problems: addProblem(out, uidPath, m.unknownCardAccount(uidPath)) };
    if (expiryProblems(account.expiry_month, account.expiry_year, deps.now()).length > 0)
      return { card: undefined, problems: addProblem(out, uidPath, m.cardAccountExpired(uidPath)) };
    if (rejectTestCards && account.outcome === 'rejected')
      return { card: undefined, problems: addProblem(out, uidPath, m.rejectedCard(uidPath)) };
    return {
      card: { card_type: account.card_type, outcome: account.outcome, account, details: undefined },
      problems: out,
    };
  }

  const numberField = cardNumberField[guide];
  const numberPath = `${path}.${numberField}`;
  const number = card[numberField];
  let ok = true;
  let cardType: string | undefined;

  out = checkText(card.full_name, `${path}.full_name`, max, out);
  if (typeof number === 'string' && isPresent(number)) {
    const check = checkCardNumber(number, assumptions);
    if (!check.ok) {
      out = addProblem(out, numberPath, cardNumberMessage(check.problem, numberPath, assumptions));
      ok = false;
    } else if (rejectTestCards && cardOutcome(number) === 'rejected') {
      out = addProblem(out, numberPath, m.rejectedCard(numberPath));
      ok = false;
    } else cardType = check.cardType;
  } else ok = false;

  const month = card.expiry_month;
  const year = card.expiry_year;
  if (typeof month === 'string' && isPresent(month) && typeof year === 'string' && isPresent(year)) {
    for (const p of expiryProblems(month, year, deps.now())) {
      const fieldPath = `${path}.${p.field}`;
      const message =
        p.reason === 'format' ? m.twoDigits(fieldPath) : p.reason === 'range' ? m.monthRange(fieldPath) : undefined;
      out = addProblem(
        out,
        fieldPath,
        message ?? (p.field === 'expiry_year' ? m.yearPast(fieldPath) : m.monthPast(fieldPath)),
      );
      ok = false;
    }
  } else {
    // One of the two is missing (reported as required); still check the format of the one given.
    for (const [field, value] of [
      ['expiry_month', month],
      ['expiry_year', year],
    ] as const) {
      if (typeof value === 'string' && isPresent(value) && !(value.length === 2 && isDigits(value)))
        out = addProblem(out, `${path}.${field}`, m.twoDigits(`${path}.${field}`));
    }
    ok = false;
  }

  const cvv = card.cvv;
  if (typeof cvv === 'string' && isPresent(cvv)) {
    const { min: minCvv, max: maxCvv } = assumptions.bounds.cvvDigits;
    const cvvPath = `${path}.cvv`;
    if (!isDigits(cvv)) {
      out = addProblem(out, cvvPath, m.digitsOnly(cvvPath));
      ok = false;
    } else if (cvv.length < minCvv || cvv.length > maxCvv) {
      out = addProblem(out, cvvPath, m.digitCount(cvvPath, minCvv, maxCvv));
      ok = false;
    }
  } else ok = false;

  if (!ok || cardType === undefined || typeof number !== 'string') return { card: undefined, problems: out };
  return {
    card: {
      card_type: cardType,
      outcome: cardOutcome(number),
      account: undefined,
      details: { card_number: number, expiry_month: month as string, expiry_year: year as string },
    },
    problems: out,
  };
}

// Deliberately loose: one @, something on both sides, a dot in the domain. The service's rule is not published.
function looksLikeEmail(value: string): boolean {
  const at = value.indexOf('@');
  if (at <= 0 || at !== value.lastIndexOf('@')) return false;
  const dot = value.lastIndexOf('.');
  if (dot < at + 2 || dot === value.length - 1) return false;
  for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) <= 32) return false;
  return true;
}

/** Checks a contact's formats (email, text lengths); requiredness is checked separately. */
export function checkContact(
  contact: Readonly<Record<string, unknown>>,
  path: string,
  assumptions: Assumptions,
  problems: Problems | undefined,
): Problems | undefined {
  let out = checkTexts(contact, `${path}.`, assumptions.bounds.maxTextLength, problems);
  const email = contact.email;
  if (typeof email === 'string' && isPresent(email) && !looksLikeEmail(email))
    out = addProblem(out, `${path}.email`, m.email(`${path}.email`));
  return out;
}

/** A payment input that passed validation, ready for the domain. */
export interface ValidPayment {
  readonly amount: number;
  readonly fees: number;
  readonly card: ValidatedCard;
  readonly payment_reference: { readonly description: string; readonly reference_no: string };
  readonly metadata: Readonly<Record<string, unknown>> | undefined;
  readonly vendor_device_id: string | undefined;
  readonly ip_address: string | undefined;
}

/** Outcome of validating a request: the valid value, or the problems to answer with. */
export type Validated<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly problems: Problems };

/**
 * Validates the `input` of `processPaymentRequest` (both guides), collecting every problem under `input.`.
 *
 * @example
 * const r = validatePaymentInput(args.input, 'current', 'test-client', requirements, deps);
 * if (!r.ok) throw validationError('processPaymentRequest', r.problems);
 */
export function validatePaymentInput(
  input: WirePaymentInput | null | undefined,
  guide: Guide,
  clientId: string,
  requirements: WireRequirements,
  deps: ValidationDeps,
): Validated<ValidPayment> {
  if (!isPlainObject(input)) return { ok: false, problems: { input: [m.required('input')] } };
  const { assumptions } = deps;
  const max = assumptions.bounds.maxTextLength;
  const typeName = guide === 'legacy' ? 'ProcessPaymentInput' : 'ProcessPaymentRequestInput';
  let problems = checkRequired(requirements, requirements.inputTypes.get(typeName), input, 'input.', undefined);

  problems = checkAmount(input.amount, 'input.amount', assumptions, problems);
  const fees = input.fees;
  problems = checkFees(fees, 'input.fees', assumptions, problems);

  let card: ValidatedCard | undefined;
  if (isPlainObject(input.credit_card)) {
    const r = checkCard(input.credit_card, 'input.credit_card', guide, clientId, deps, true, problems);
    card = r.card;
    problems = r.problems;
  }
  const contact = input.contact;
  if (isPlainObject(contact)) problems = checkContact(contact, 'input.contact', assumptions, problems);
  const reference = guide === 'legacy' ? contact : input.payment_reference;
  if (guide === 'current' && isPlainObject(reference))
    problems = checkTexts(reference, 'input.payment_reference.', max, problems);

  const metadata = input.metadata;
  problems = checkMetadata(metadata, 'input.metadata', assumptions, problems);
  problems = checkText(input.vendor_device_id, 'input.vendor_device_id', max, problems);
  const ip = input.ip_address;
  if (typeof ip === 'string' && ip.length > max)
    problems = addProblem(problems, 'input.ip_address', m.tooLong('input.ip_address', max));
  else if (typeof ip === 'string' && isPresent(ip) && ipVersion(ip) === 0)
    problems = addProblem(problems, 'input.ip_address', m.ip('input.ip_address'));

  // The fee check needs a valid amount and card; compare only then, so one mistake gives one message.
  if (!problems && card && typeof input.amount === 'number' && typeof fees === 'number') {
    const expected = deps.fees.forCardType(input.amount, card.card_type)?.fees;
    if (expected !== undefined && Math.abs(fees - expected) > assumptions.bounds.feeTolerance + 1e-9)
      problems = addProblem(problems, 'input.fees', m.feeMismatch('input.fees', expected));
  }

  if (problems || !card || !isPlainObject(reference)) return { ok: false, problems: problems ?? {} };
  return {
    ok: true,
    value: {
      amount: input.amount as number,
      fees: fees as number,
      card,
      payment_reference: {
        description: reference.description as string,
        reference_no: reference.reference_no as string,
      },
      metadata: isPlainObject(metadata) ? metadata : undefined,
      vendor_device_id: typeof input.vendor_device_id === 'string' ? input.vendor_device_id : undefined,
      ip_address: typeof ip === 'string' && isPresent(ip) ? ip : undefined,
    },
  };
}

/** A card fee calculation request that passed validation. */
export interface ValidCardFeeCalc {
  readonly amount: number;
  readonly card: ValidatedCard;
}

/** Validates the arguments of `paymentCreditCardFeeCalc` (paths without prefix: `contact`, `credit_card.cvv`, …). */
export function validateCardFeeCalcArgs(
  args: WireCardFeeCalcArgs,
  guide: Guide,
  clientId: string,
  requirements: WireRequirements,
  deps: ValidationDeps,
): Validated<ValidCardFeeCalc> {
  const { assumptions } = deps;
  let problems = checkRequired(
    requirements,
    requirements.fieldArguments.get('Query.paymentCreditCardFeeCalc'),
    args as Record<string, unknown>,
    '',
    undefined,
  );
  problems = checkAmount(args.amount, 'amount', assumptions, problems);
  let card: ValidatedCard | undefined;
  if (isPlainObject(args.credit_card)) {
    const r = checkCard(args.credit_card, 'credit_card', guide, clientId, deps, false, problems);
    card = r.card;
    problems = r.problems;
  }
  if (isPlainObject(args.contact)) problems = checkContact(args.contact, 'contact', assumptions, problems);
  if (problems || !card || typeof args.amount !== 'number') return { ok: false, problems: problems ?? {} };
  return { ok: true, value: { amount: args.amount, card } };
}

/** Validates the amount of `paymentGatewayFeesCalc` (path `amount`). */
export function validateFeesCalcAmount(amount: number, assumptions: Assumptions): Problems | undefined {
  return checkAmount(amount, 'amount', assumptions, undefined);
}

/**
 * Validates the card of the work-in-progress `creditCardValidation` with the payment rules (raw details or a card
 * account), under `input.credit_card.`.
 */
export function validateCardForValidation(
  card: WireCreditCardInput | null | undefined,
  guide: Guide,
  clientId: string,
  requirements: WireRequirements,
  deps: ValidationDeps,
): Validated<ValidatedCard> {
  if (!isPlainObject(card)) return { ok: false, problems: { 'input.credit_card': [m.required('input.credit_card')] } };
  let problems = checkRequired(
    requirements,
    requirements.inputTypes.get('CreditCardInput'),
    card,
    'input.credit_card.',
    undefined,
  );
  const r = checkCard(card, 'input.credit_card', guide, clientId, deps, true, problems);
  problems = r.problems;
  if (problems || !r.card) return { ok: false, problems: problems ?? {} };
  return { ok: true, value: r.card };
}
