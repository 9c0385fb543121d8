import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../../../src/assumptions.ts';
import type { GuideName } from '../../../../src/contract/guides.ts';
import {
  type CardAccountInput,
  checkCardNumber,
  luhnValid,
  testCards,
} from '../../../support/mock-internals/domain.ts';
import {
  cardFeeCalcRules,
  cardNumberMessage,
  cardValidationRules,
  compileRules,
  feesCalcRules,
  type InputRule,
  validationMessages as m,
  type Problems,
  paymentRules,
  ruleMessages,
  rules,
  type ValidationRequest,
  validateCardFeeCalcArgs,
  validateCardForValidation,
  validateFeesCalcAmount,
  validatePaymentInput,
  type Walk,
} from '../../../support/mock-internals/graphql.ts';
import { requirements, validationSetup, validCard } from '../../../support/validation-setup.ts';

// The rule tables of the mock's validation, held to the ledger (every input rule of ASSUMPTIONS.md has its rows)
// and to the validators (every row is enforced, at its path, with its message, in table order).

const { state, deps } = validationSetup();
const request = (guide: GuideName): ValidationRequest => ({
  guide,
  clientId: 'c1',
  requirements: requirements[guide],
  deps,
});
const bounds = defaultAssumptions.bounds;

const card = validCard;
const cardIn = (guide: GuideName): Record<string, unknown> =>
  guide === 'current' ? { ...card } : { ...card, card_number: undefined, number: card.card_number };
const contactIn = (guide: GuideName): Record<string, unknown> => ({
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  ...(guide === 'legacy' ? { description: 'Order 1', reference_no: 'R-1' } : {}),
});
const accountUid = (c: CardAccountInput) => state.upsertCardAccount('c1', c).card_account_uid;

/** A valid input of each operation, in a guide: the starting point each row's example breaks. */
const operations = {
  payment: {
    table: paymentRules,
    prefix: 'input.',
    valid: (guide: GuideName) => ({
      amount: 100,
      fees: 1.8,
      credit_card: cardIn(guide),
      contact: contactIn(guide),
      ...(guide === 'current' ? { payment_reference: { description: 'Order 1', reference_no: 'R-1' } } : {}),
    }),
    problems: (input: Record<string, unknown>, guide: GuideName) =>
      problemsOf(validatePaymentInput(input, request(guide))),
    cardPath: ['credit_card'],
  },
  cardFeeCalc: {
    table: cardFeeCalcRules,
    prefix: '',
    valid: (guide: GuideName) => ({ amount: 100, credit_card: cardIn(guide), contact: contactIn(guide) }),
    problems: (input: Record<string, unknown>, guide: GuideName) =>
      problemsOf(validateCardFeeCalcArgs(input, request(guide))),
    cardPath: ['credit_card'],
  },
  feesCalc: {
    table: feesCalcRules,
    prefix: '',
    valid: () => ({ amount: 100 }),
    problems: (input: Record<string, unknown>) => validateFeesCalcAmount(input.amount as number, deps),
    cardPath: [],
  },
  cardValidation: {
    table: cardValidationRules,
    prefix: 'input.credit_card.',
    valid: (guide: GuideName) => cardIn(guide),
    problems: (input: Record<string, unknown>, guide: GuideName) =>
      problemsOf(validateCardForValidation(input, request(guide))),
    cardPath: [],
  },
} as const;
type OperationName = keyof typeof operations;

function problemsOf(r: { ok: true } | { ok: false; problems: Problems }): Problems | undefined {
  return r.ok ? undefined : r.problems;
}

const fieldOf = (row: InputRule, guide: GuideName) => (typeof row.field === 'string' ? row.field : row.field[guide]);
const rowsOf = (table: readonly InputRule[], guide: GuideName) =>
  table.filter((r) => r.guide === undefined || r.guide === guide);

/** `body` with the digit appended that makes it pass the Luhn check. */
function withLuhnDigit(body: string): string {
  for (let d = 0; d <= 9; d++) if (luhnValid(body + d)) return body + d;
  throw new Error('unreachable: one of ten check digits passes');
}
const unsupportedNumber = withLuhnDigit('999999999999999');
const deeper = (depth: number): Record<string, unknown> => (depth <= 1 ? {} : { a: deeper(depth - 1) });

/**
 * For each rule, the value that breaks it and what else the example needs on the field's parent (the card, the
 * input). A rule added to the table without an example here fails the coverage test below.
 */
const breaking: Record<keyof typeof rules, { value: unknown; parent?: Record<string, unknown> }> = {
  text: { value: 'x'.repeat(bounds.maxTextLength + 1) },
  number: { value: Number.NaN },
  positive: { value: 0 },
  notNegative: { value: -0.01 },
  atMostMaxAmount: { value: bounds.maxAmount + 1 },
  matchesCalculatedFee: { value: 9.99 },
  knownCardAccount: { value: '00000000-0000-4000-8000-000000000000' },
  cardAccountNotExpired: { value: accountUid({ ...card, expiry_month: '05', expiry_year: '30' }) },
  cardAccountNotRejected: { value: accountUid({ ...card, card_number: testCards.visaRejectedAsInvalid.number }) },
  digits: { value: '4a' },
  cardNumberLength: { value: '42' },
  luhn: { value: '4111111111111112' },
  supportedCardType: { value: unsupportedNumber },
  notRejectedTestCard: { value: testCards.visaRejectedAsInvalid.number },
  twoDigits: { value: '1' },
  monthOfYear: { value: '13' },
  yearNotPast: { value: '29' },
  monthNotPast: { value: '05', parent: { expiry_year: '30' } },
  cvvLength: { value: '12' },
  email: { value: 'not-an-email' },
  ipAddress: { value: '300.1.1.1' },
  jsonObject: { value: [] },
  metadataDepth: { value: deeper(bounds.maxMetadataDepth + 1) },
  metadataSize: { value: { k: 'x'.repeat(bounds.maxMetadataBytes) } },
};

/** A field of each `parent.*` row to break in the examples. */
const wildcardField: Record<string, string> = { contact: 'first_name', payment_reference: 'description' };

/** The valid input of `operation` with the field of `row` broken (and, for a card account rule, the card named). */
function breakRow(operation: OperationName, row: InputRule, guide: GuideName) {
  const op = operations[operation];
  const input = structuredClone(op.valid(guide)) as Record<string, unknown>;
  const names = fieldOf(row, guide).split('.');
  let key = names.pop()!;
  let parent = input;
  for (const name of names) parent = parent[name] as Record<string, unknown>;
  if (key === '*') key = wildcardField[names.at(-1)!]!;
  if (key === 'card_account_uid') for (const k of Object.keys(parent)) delete parent[k];
  const example = breaking[row.rule];
  Object.assign(parent, example.parent, { [key]: example.value });
  return { input, path: op.prefix + [...names, key].join('.') };
}

const everyRow = (Object.keys(operations) as OperationName[]).flatMap((operation) =>
  (['current', 'legacy'] as const).flatMap((guide) =>
    rowsOf(operations[operation].table, guide).map((row) => [operation, guide, row] as const),
  ),
);

describe('the rule tables', () => {
  it.each(Object.keys(operations) as OperationName[])('%s: a valid input passes', (operation) => {
    for (const guide of ['current', 'legacy'] as const)
      expect(operations[operation].problems(operations[operation].valid(guide), guide)).toBeUndefined();
  });

  it.each(everyRow.map(([o, g, r]) => [`${o} (${g}): ${fieldOf(r, g)} ${r.rule}`, o, g, r] as const))(
    '%s is enforced at its path with its message',
    (_name, operation, guide, row) => {
      const { input, path } = breakRow(operation, row, guide);
      const problems = operations[operation].problems(input, guide);
      // The card fee calculation prices the rejected test card: its rejection rows never apply there.
      if (operation === 'cardFeeCalc' && row.when?.includes('rejectsTestCards')) {
        expect(problems).toBeUndefined();
        return;
      }
      // The messages read the bounds and the fee the walk calculated (1.8 for 100 on a visa card).
      const walk = { deps, expectedFee: 1.8 } as unknown as Walk;
      expect(problems).toEqual({ [path]: [ruleMessages[row.message](path, walk)] });
    },
  );

  it('refuses at load a table with more fields than the walk has bits for', () => {
    const row = (i: number): InputRule => ({ field: `f${i}`, rule: 'text', message: 'tooLong' });
    expect(() =>
      compileRules(
        Array.from({ length: 31 }, (_, i) => row(i)),
        '',
      ),
    ).not.toThrow();
    expect(() =>
      compileRules(
        Array.from({ length: 32 }, (_, i) => row(i)),
        '',
      ),
    ).toThrow(/more than 31 fields/);
  });

  it('has an example for every rule, so a new rule cannot go untested', () => {
    expect(Object.keys(breaking).sort()).toEqual(Object.keys(rules).sort());
  });

  it('reports in the order of the table: one request breaking a rule of each field', () => {
    const input = {
      amount: -1,
      fees: -1,
      credit_card: {
        full_name: breaking.text.value,
        card_number: '42',
        expiry_month: '13',
        expiry_year: 'x',
        cvv: 'x',
      },
      contact: { email: 'bad', first_name: breaking.text.value, last_name: 'Lovelace' },
      payment_reference: { reference_no: breaking.text.value, description: 'Order 1' },
      metadata: 'text',
      vendor_device_id: breaking.text.value,
      ip_address: 'bad',
    };
    const problems = operations.payment.problems(input, 'current');
    expect(Object.entries(problems ?? {})).toEqual([
      ['input.amount', [m.amountPositive('input.amount')]],
      ['input.fees', [m.feesNegative('input.fees')]],
      ['input.credit_card.full_name', [m.tooLong('input.credit_card.full_name', bounds.maxTextLength)]],
      ['input.credit_card.card_number', [m.digitCount('input.credit_card.card_number', 12, 19)]],
      ['input.credit_card.expiry_month', [m.monthRange('input.credit_card.expiry_month')]],
      ['input.credit_card.expiry_year', [m.twoDigits('input.credit_card.expiry_year')]],
      ['input.credit_card.cvv', [m.digitsOnly('input.credit_card.cvv')]],
      // Every text of the contact first (in the order sent), then the email's format.
      ['input.contact.first_name', [m.tooLong('input.contact.first_name', bounds.maxTextLength)]],
      ['input.contact.email', [m.email('input.contact.email')]],
      [
        'input.payment_reference.reference_no',
        [m.tooLong('input.payment_reference.reference_no', bounds.maxTextLength)],
      ],
      ['input.metadata', [m.notAnObject('input.metadata')]],
      ['input.vendor_device_id', [m.tooLong('input.vendor_device_id', bounds.maxTextLength)]],
      ['input.ip_address', [m.ip('input.ip_address')]],
    ]);
  });

  it.each([testCards.visaSuccess.number, '4111x', '42', '4'.repeat(20), '4111111111111112', unsupportedNumber])(
    'the card-number rows agree with the domain rule the control API uses (%s)',
    (number) => {
      const path = 'input.credit_card.card_number';
      const check = checkCardNumber(number, defaultAssumptions);
      const problems = operations.cardValidation.problems({ ...card, card_number: number }, 'current');
      expect(problems).toEqual(
        check.ok ? undefined : { [path]: [cardNumberMessage(check.problem, path, defaultAssumptions)] },
      );
    },
  );
});

describe('the ledger and the tables', () => {
  const ledger = readFileSync(new URL('../../../../ASSUMPTIONS.md', import.meta.url), 'utf8');
  const ledgerRows = ledger.split('\n').filter((line) => line.startsWith('| '));

  /** Ledger row (its first cell starts so) → the rows of the tables that carry it out: [operation, field, rule]. */
  const carriedOut: [string, [OperationName, string, keyof typeof rules][]][] = [
    [
      'Minimum and maximum amount',
      [
        ['payment', 'amount', 'positive'],
        ['payment', 'amount', 'atMostMaxAmount'],
        ['cardFeeCalc', 'amount', 'positive'],
        ['cardFeeCalc', 'amount', 'atMostMaxAmount'],
        ['feesCalc', 'amount', 'positive'],
        ['feesCalc', 'amount', 'atMostMaxAmount'],
      ],
    ],
    ['A `fees` value that differs from the calculated fee', [['payment', 'fees', 'matchesCalculatedFee']]],
    [
      'Number ranges',
      [
        ['payment', 'amount', 'number'],
        ['payment', 'fees', 'number'],
        ['payment', 'fees', 'notNegative'],
        ['payment', 'fees', 'atMostMaxAmount'],
        ['cardFeeCalc', 'amount', 'number'],
        ['feesCalc', 'amount', 'number'],
      ],
    ],
    [
      'Length and format of `card_number`',
      [
        ['payment', 'credit_card.card_number', 'digits'],
        ['payment', 'credit_card.card_number', 'cardNumberLength'],
        ['payment', 'credit_card.card_number', 'luhn'],
        ['cardFeeCalc', 'credit_card.card_number', 'luhn'],
        ['cardValidation', 'card_number', 'digits'],
        ['cardValidation', 'card_number', 'cardNumberLength'],
        ['cardValidation', 'card_number', 'luhn'],
      ],
    ],
    [
      '`card_type` values',
      [
        ['payment', 'credit_card.card_number', 'supportedCardType'],
        ['cardFeeCalc', 'credit_card.card_number', 'supportedCardType'],
        ['cardValidation', 'card_number', 'supportedCardType'],
      ],
    ],
    [
      'Length of `cvv`',
      [
        ['payment', 'credit_card.cvv', 'digits'],
        ['payment', 'credit_card.cvv', 'cvvLength'],
        ['cardFeeCalc', 'credit_card.cvv', 'cvvLength'],
        ['cardValidation', 'cvv', 'cvvLength'],
      ],
    ],
    [
      'Length of other strings',
      [
        ['payment', 'contact.email', 'email'],
        ['cardFeeCalc', 'contact.email', 'email'],
      ],
    ],
    [
      '`metadata`',
      [
        ['payment', 'metadata', 'jsonObject'],
        ['payment', 'metadata', 'metadataDepth'],
        ['payment', 'metadata', 'metadataSize'],
      ],
    ],
    [
      'Strings with a length rule of their own',
      [
        ['payment', 'credit_card.card_account_uid', 'text'],
        ['payment', 'ip_address', 'text'],
        ['payment', 'vendor_device_id', 'text'],
        ['payment', 'contact.*', 'text'],
        ['payment', 'payment_reference.*', 'text'],
        ['payment', 'credit_card.full_name', 'text'],
        ['cardFeeCalc', 'credit_card.card_account_uid', 'text'],
        ['cardFeeCalc', 'credit_card.full_name', 'text'],
        ['cardFeeCalc', 'contact.*', 'text'],
        ['cardValidation', 'card_account_uid', 'text'],
        ['cardValidation', 'full_name', 'text'],
      ],
    ],
    [
      'Expiry in the past',
      [
        ['payment', 'credit_card.expiry_year', 'yearNotPast'],
        ['payment', 'credit_card.expiry_month', 'monthNotPast'],
        ['cardFeeCalc', 'credit_card.expiry_year', 'yearNotPast'],
        ['cardValidation', 'expiry_year', 'yearNotPast'],
        ['cardValidation', 'expiry_month', 'monthNotPast'],
      ],
    ],
    ['`ip_address`', [['payment', 'ip_address', 'ipAddress']]],
    [
      'The test card the service rejects',
      [
        ['payment', 'credit_card.card_number', 'notRejectedTestCard'],
        ['payment', 'credit_card.card_account_uid', 'cardAccountNotRejected'],
        ['cardValidation', 'card_number', 'notRejectedTestCard'],
        ['cardValidation', 'card_account_uid', 'cardAccountNotRejected'],
      ],
    ],
    [
      'A card account whose card has since expired',
      [
        ['payment', 'credit_card.card_account_uid', 'cardAccountNotExpired'],
        ['cardFeeCalc', 'credit_card.card_account_uid', 'cardAccountNotExpired'],
        ['cardValidation', 'card_account_uid', 'cardAccountNotExpired'],
      ],
    ],
  ];

  it.each(carriedOut)('ASSUMPTIONS.md "%s…" has its rows in the tables', (label, rows) => {
    expect(ledgerRows.some((line) => line.startsWith(`| ${label}`))).toBe(true);
    for (const [operation, field, rule] of rows) {
      const table = operations[operation].table;
      expect(
        table.some((row) => fieldOf(row, 'current') === field && row.rule === rule),
        `${operation}: ${field} ${rule}`,
      ).toBe(true);
    }
  });

  it('reads the bounds from the ledger at the time of the request', () => {
    const tight = { ...deps, assumptions: { ...defaultAssumptions, bounds: { ...bounds, maxTextLength: 3 } } };
    const r = validateCardForValidation({ ...card, full_name: 'Adam' }, { ...request('current'), deps: tight });
    expect(problemsOf(r)).toEqual({ 'input.credit_card.full_name': [m.tooLong('input.credit_card.full_name', 3)] });
  });
});
