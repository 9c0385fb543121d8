/**
 * The format rules of every input the mock validates, as data: one row per field and rule, read top to bottom.
 * Requiredness is not here: it comes from the schema's `@serverRequired` (required.ts) and is checked first.
 *
 * How a table is read (walk.ts): a row applies when the request is in the row's guide, its `when` conditions hold
 * and its field is given (not undefined or null; a `parent.*` field is each field of that object). A field's rows
 * form a chain: the first rule it breaks gives its message, and its later rows are skipped. Messages keep the
 * table's order, so the answer lists them as the rows do. The ledger rows these carry out are in ASSUMPTIONS.md
 * ("Validation"), and `test/mock/internal/graphql/validation-rules.test.ts` holds one to each.
 *
 * @module
 */
import { cardNumberField, type GuideName } from '../../../../contract/guides.ts';
import type { RuleMessageKey } from './messages.ts';
import type { ConditionName, RuleName } from './rules.ts';

/** One row of a rule table. */
export interface InputRule {
  /**
   * Dotted path of the field under the operation's input (`credit_card.cvv`), the name in each guide when the guides
   * differ (the card number), or `parent.*` for every field of that object.
   */
  readonly field: string | Readonly<Record<GuideName, string>>;
  /** The guide the row applies in. */
  readonly guide: GuideName | 'both';
  /** The rule the value must pass ({@link rules}). */
  readonly rule: RuleName;
  /** The message when it does not ({@link ruleMessages}). */
  readonly message: RuleMessageKey;
  /** Conditions that must all hold for the row to apply ({@link conditions}). */
  readonly when?: readonly ConditionName[];
}

const details = ['cardDetails'] as const;

/** The rules of a card input (`CreditCardInput`), relative to the card. */
export const cardRules: readonly InputRule[] = [
  { field: 'card_account_uid', guide: 'both', rule: 'text', message: 'tooLong', when: ['cardAccount'] },
  {
    field: 'card_account_uid',
    guide: 'both',
    rule: 'knownCardAccount',
    message: 'unknownCardAccount',
    when: ['cardAccount'],
  },
  {
    field: 'card_account_uid',
    guide: 'both',
    rule: 'cardAccountNotExpired',
    message: 'cardAccountExpired',
    when: ['cardAccount'],
  },
  {
    field: 'card_account_uid',
    guide: 'both',
    rule: 'cardAccountNotRejected',
    message: 'rejectedCard',
    when: ['cardAccount', 'rejectsTestCards'],
  },
  { field: 'full_name', guide: 'both', rule: 'text', message: 'tooLong', when: details },
  { field: cardNumberField, guide: 'both', rule: 'digits', message: 'digitsOnly', when: details },
  { field: cardNumberField, guide: 'both', rule: 'cardNumberLength', message: 'cardNumberDigitCount', when: details },
  { field: cardNumberField, guide: 'both', rule: 'luhn', message: 'invalidCard', when: details },
  { field: cardNumberField, guide: 'both', rule: 'supportedCardType', message: 'unsupportedCard', when: details },
  {
    field: cardNumberField,
    guide: 'both',
    rule: 'notRejectedTestCard',
    message: 'rejectedCard',
    when: ['cardDetails', 'rejectsTestCards'],
  },
  { field: 'expiry_month', guide: 'both', rule: 'twoDigits', message: 'twoDigits', when: details },
  {
    field: 'expiry_month',
    guide: 'both',
    rule: 'monthOfYear',
    message: 'monthRange',
    when: ['cardDetails', 'expiryGiven'],
  },
  { field: 'expiry_year', guide: 'both', rule: 'twoDigits', message: 'twoDigits', when: details },
  {
    field: 'expiry_year',
    guide: 'both',
    rule: 'yearNotPast',
    message: 'yearPast',
    when: ['cardDetails', 'expiryWellFormed'],
  },
  {
    field: 'expiry_month',
    guide: 'both',
    rule: 'monthNotPast',
    message: 'monthPast',
    when: ['cardDetails', 'expiryWellFormed'],
  },
  { field: 'cvv', guide: 'both', rule: 'digits', message: 'digitsOnly', when: details },
  { field: 'cvv', guide: 'both', rule: 'cvvLength', message: 'cvvDigitCount', when: details },
];

/** The rules of an `amount` (payment, card fee, fee list). */
export const amountRules: readonly InputRule[] = [
  { field: 'amount', guide: 'both', rule: 'number', message: 'notANumber' },
  { field: 'amount', guide: 'both', rule: 'positive', message: 'amountPositive' },
  { field: 'amount', guide: 'both', rule: 'atMostMaxAmount', message: 'amountMax' },
];

/** The rules of a contact (`ContactInput`; the legacy one also holds the payment reference). */
const contactRules: readonly InputRule[] = [
  { field: '*', guide: 'both', rule: 'text', message: 'tooLong' },
  { field: 'email', guide: 'both', rule: 'email', message: 'email' },
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
  { field: 'fees', guide: 'both', rule: 'number', message: 'notANumber' },
  { field: 'fees', guide: 'both', rule: 'notNegative', message: 'feesNegative' },
  { field: 'fees', guide: 'both', rule: 'atMostMaxAmount', message: 'amountMax' },
  ...under('credit_card', cardRules),
  ...under('contact', contactRules),
  { field: 'payment_reference.*', guide: 'current', rule: 'text', message: 'tooLong' },
  { field: 'metadata', guide: 'both', rule: 'jsonObject', message: 'notAnObject' },
  { field: 'metadata', guide: 'both', rule: 'metadataDepth', message: 'metadataDepth' },
  { field: 'metadata', guide: 'both', rule: 'metadataSize', message: 'metadataBytes' },
  { field: 'vendor_device_id', guide: 'both', rule: 'text', message: 'tooLong' },
  { field: 'ip_address', guide: 'both', rule: 'text', message: 'tooLong' },
  { field: 'ip_address', guide: 'both', rule: 'ipAddress', message: 'ip' },
  // Last, and only on an otherwise valid input: the comparison needs a valid amount and card.
  { field: 'fees', guide: 'both', rule: 'matchesCalculatedFee', message: 'feeMismatch', when: ['nothingElseFailed'] },
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
