import { describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../../../src/assumptions.ts';
import { testCards } from '../../../support/mock-internals/domain.ts';
import {
  validationMessages as m,
  type Problems,
  validateCardFeeCalcArgs,
  validateCardForValidation,
  validateFeesCalcAmount,
  validatePaymentInput,
  type WirePaymentInput,
} from '../../../support/mock-internals/graphql.ts';
import { requirements, validationSetup, validCard } from '../../../support/validation-setup.ts';

const { current, legacy } = requirements;
const { state, deps } = validationSetup();

const card = validCard;
const contact = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
const valid: WirePaymentInput = {
  amount: 100,
  fees: 1.8,
  credit_card: card,
  contact,
  payment_reference: { description: 'Order 1', reference_no: 'R-1' },
};

function problemsOf(input: WirePaymentInput | null): Problems | undefined {
  const r = validatePaymentInput(input, { guide: 'current', clientId: 'c1', requirements: current, deps });
  return r.ok ? undefined : r.problems;
}

const long = 'x'.repeat(defaultAssumptions.bounds.maxTextLength + 1);

describe('validatePaymentInput (current guide)', () => {
  it('accepts a valid payment and hands back what the domain needs', () => {
    const r = validatePaymentInput(
      { ...valid, metadata: { order: 1 }, ip_address: '10.0.0.1' },
      { guide: 'current', clientId: 'c1', requirements: current, deps },
    );
    expect(r).toEqual({
      ok: true,
      value: {
        amount: 100,
        fees: 1.8,
        card: {
          card_type: 'visa',
          outcome: 'success',
          account: undefined,
          details: { card_number: card.card_number, expiry_month: '12', expiry_year: '31' },
        },
        payment_reference: { description: 'Order 1', reference_no: 'R-1' },
        metadata: { order: 1 },
        vendor_device_id: undefined,
        ip_address: '10.0.0.1',
      },
    });
  });

  it.each<[string, { given: WirePaymentInput | null; want: Problems }]>([
    ['missing input', { given: null, want: { input: [m.required('input')] } }],
    [
      'missing contact (spec 7.3)',
      { given: { ...valid, contact: undefined }, want: { 'input.contact': [m.required('input.contact')] } },
    ],
    ['null contact', { given: { ...valid, contact: null }, want: { 'input.contact': [m.required('input.contact')] } }],
    [
      'empty-string description',
      {
        given: { ...valid, payment_reference: { description: '  ', reference_no: 'R' } },
        want: { 'input.payment_reference.description': [m.required('input.payment_reference.description')] },
      },
    ],
    ['missing amount', { given: { ...valid, amount: null }, want: { 'input.amount': [m.required('input.amount')] } }],
    [
      'missing contact email',
      {
        given: { ...valid, contact: { ...contact, email: undefined } },
        want: { 'input.contact.email': [m.required('input.contact.email')] },
      },
    ],
    [
      'year in the past (spec 7.3)',
      {
        given: { ...valid, credit_card: { ...card, expiry_year: '29' } },
        want: { 'input.credit_card.expiry_year': [m.yearPast('input.credit_card.expiry_year')] },
      },
    ],
    [
      'month past this year',
      {
        given: { ...valid, credit_card: { ...card, expiry_month: '05', expiry_year: '30' } },
        want: { 'input.credit_card.expiry_month': [m.monthPast('input.credit_card.expiry_month')] },
      },
    ],
    [
      'one-digit month',
      {
        given: { ...valid, credit_card: { ...card, expiry_month: '1' } },
        want: { 'input.credit_card.expiry_month': [m.twoDigits('input.credit_card.expiry_month')] },
      },
    ],
    [
      'four-digit year',
      {
        given: { ...valid, credit_card: { ...card, expiry_year: '2031' } },
        want: { 'input.credit_card.expiry_year': [m.twoDigits('input.credit_card.expiry_year')] },
      },
    ],
    [
      'month 13',
      {
        given: { ...valid, credit_card: { ...card, expiry_month: '13' } },
        want: { 'input.credit_card.expiry_month': [m.monthRange('input.credit_card.expiry_month')] },
      },
    ],
    [
      'card number with spaces',
      {
        given: { ...valid, credit_card: { ...card, card_number: '4111 1111 1111 1111' } },
        want: { 'input.credit_card.card_number': [m.digitsOnly('input.credit_card.card_number')] },
      },
    ],
    [
      'card number too short',
      {
        given: { ...valid, credit_card: { ...card, card_number: '42424242424' } },
        want: { 'input.credit_card.card_number': [m.digitCount('input.credit_card.card_number', 12, 19)] },
      },
    ],
    [
      'Luhn failure: invalid card, rejected before processing',
      {
        given: { ...valid, credit_card: { ...card, card_number: '4111111111111112' } },
        want: { 'input.credit_card.card_number': [m.invalidCard('input.credit_card.card_number')] },
      },
    ],
    [
      'the test card rejected as invalid',
      {
        given: { ...valid, credit_card: { ...card, card_number: testCards.visaRejectedAsInvalid.number } },
        want: { 'input.credit_card.card_number': [m.rejectedCard('input.credit_card.card_number')] },
      },
    ],
    [
      'unsupported card type',
      {
        given: { ...valid, credit_card: { ...card, card_number: '6011111111111117' } },
        want: {
          'input.credit_card.card_number': [
            m.unsupportedCard('input.credit_card.card_number', ['visa', 'mastercard', 'amex', 'diners']),
          ],
        },
      },
    ],
    [
      'unknown card_account_uid',
      {
        given: { ...valid, credit_card: { card_account_uid: '00000000-0000-4000-8000-000000000000' } },
        want: { 'input.credit_card.card_account_uid': [m.unknownCardAccount('input.credit_card.card_account_uid')] },
      },
    ],
    [
      'cvv with letters',
      {
        given: { ...valid, credit_card: { ...card, cvv: '12a' } },
        want: { 'input.credit_card.cvv': [m.digitsOnly('input.credit_card.cvv')] },
      },
    ],
    [
      'cvv too long',
      {
        given: { ...valid, credit_card: { ...card, cvv: '12345' } },
        want: { 'input.credit_card.cvv': [m.digitCount('input.credit_card.cvv', 3, 4)] },
      },
    ],
    ['amount zero', { given: { ...valid, amount: 0 }, want: { 'input.amount': [m.amountPositive('input.amount')] } }],
    [
      'negative amount',
      { given: { ...valid, amount: -5 }, want: { 'input.amount': [m.amountPositive('input.amount')] } },
    ],
    [
      'amount above the bound',
      {
        given: { ...valid, amount: defaultAssumptions.bounds.maxAmount + 1 },
        want: { 'input.amount': [m.amountMax('input.amount', defaultAssumptions.bounds.maxAmount)] },
      },
    ],
    [
      'fees that do not match the calculated fee',
      { given: { ...valid, fees: 1.5 }, want: { 'input.fees': [m.feeMismatch('input.fees', 1.8)] } },
    ],
    [
      'fees of another card type (amex fee on a visa)',
      { given: { ...valid, fees: 3.2 }, want: { 'input.fees': [m.feeMismatch('input.fees', 1.8)] } },
    ],
    [
      'email without @',
      {
        given: { ...valid, contact: { ...contact, email: 'ada.example.com' } },
        want: { 'input.contact.email': [m.email('input.contact.email')] },
      },
    ],
    [
      'text too long',
      {
        given: { ...valid, contact: { ...contact, city: long } },
        want: { 'input.contact.city': [m.tooLong('input.contact.city', 255)] },
      },
    ],
    [
      'reference too long',
      {
        given: { ...valid, payment_reference: { description: long, reference_no: 'R' } },
        want: { 'input.payment_reference.description': [m.tooLong('input.payment_reference.description', 255)] },
      },
    ],
    [
      'metadata not an object',
      {
        given: { ...valid, metadata: [1, 2] },
        want: { 'input.metadata': [m.notAnObject('input.metadata')] },
      },
    ],
    [
      'ip_address not an IP',
      { given: { ...valid, ip_address: 'localhost' }, want: { 'input.ip_address': [m.ip('input.ip_address')] } },
    ],
  ])('%s', (_name, { given, want }) => {
    expect(problemsOf(given)).toEqual(want);
  });

  it('accepts fees within the tolerance', () => {
    expect(problemsOf({ ...valid, fees: 1.805 })).toBeUndefined();
  });

  it('collects every problem of one request, not only the first', () => {
    expect(
      problemsOf({
        amount: 0,
        fees: 1,
        credit_card: { full_name: 'A', card_number: '4111111111111112', expiry_month: '1', expiry_year: '20' },
        contact: { first_name: 'A', email: 'nope' },
      }),
    ).toEqual({
      'input.payment_reference': [m.required('input.payment_reference')],
      'input.credit_card.cvv': [m.required('input.credit_card.cvv')],
      'input.contact.last_name': [m.required('input.contact.last_name')],
      'input.amount': [m.amountPositive('input.amount')],
      'input.credit_card.card_number': [m.invalidCard('input.credit_card.card_number')],
      'input.credit_card.expiry_month': [m.twoDigits('input.credit_card.expiry_month')],
      'input.contact.email': [m.email('input.contact.email')],
    });
  });

  it('lets card_account_uid stand in for the raw card fields', () => {
    const { card_account_uid } = state.upsertCardAccount('c1', card);
    expect(problemsOf({ ...valid, credit_card: { card_account_uid } })).toBeUndefined();
    // Another client's uid is unknown here.
    const r = validatePaymentInput(
      { ...valid, credit_card: { card_account_uid } },
      { guide: 'current', clientId: 'c2', requirements: current, deps },
    );
    expect(r.ok).toBe(false);
  });

  it('rejects a card account whose card has expired meanwhile', () => {
    const { card_account_uid } = state.upsertCardAccount('c1', { ...card, expiry_year: '30', expiry_month: '06' });
    const later = { ...deps, now: () => Date.UTC(2030, 6, 1) };
    const r = validatePaymentInput(
      { ...valid, credit_card: { card_account_uid } },
      { guide: 'current', clientId: 'c1', requirements: current, deps: later },
    );
    expect(r).toEqual({
      ok: false,
      problems: { 'input.credit_card.card_account_uid': [m.cardAccountExpired('input.credit_card.card_account_uid')] },
    });
  });

  it('never puts the card number or CVV in a message', () => {
    const secretCvv = '9876';
    const bad = { ...card, card_number: '4111111111111112', cvv: secretCvv, expiry_year: '10' };
    const text = JSON.stringify(problemsOf({ ...valid, credit_card: bad }));
    expect(text).not.toContain('4111111111111112');
    expect(text).not.toContain(secretCvv);
  });
});

describe('validatePaymentInput (legacy guide)', () => {
  const legacyInput: WirePaymentInput = {
    amount: 100,
    fees: 1.8,
    credit_card: {
      full_name: card.full_name,
      number: card.card_number,
      expiry_month: '12',
      expiry_year: '31',
      cvv: '123',
    },
    contact: { ...contact, description: 'Order 1', reference_no: 'R-1' },
  };

  it('reads the card number from number and the reference from the contact', () => {
    const r = validatePaymentInput(legacyInput, { guide: 'legacy', clientId: 'c1', requirements: legacy, deps });
    expect(r.ok && r.value.payment_reference).toEqual({ description: 'Order 1', reference_no: 'R-1' });
  });

  it('requires contact.description and reports the card number on input.credit_card.number', () => {
    const r = validatePaymentInput(
      {
        ...legacyInput,
        contact: contact,
        credit_card: { ...legacyInput.credit_card, number: '4111111111111112' },
      },
      { guide: 'legacy', clientId: 'c1', requirements: legacy, deps },
    );
    expect(r).toEqual({
      ok: false,
      problems: {
        'input.contact.description': [m.required('input.contact.description')],
        'input.contact.reference_no': [m.required('input.contact.reference_no')],
        'input.credit_card.number': [m.invalidCard('input.credit_card.number')],
      },
    });
  });
});

describe('validateCardFeeCalcArgs', () => {
  it('uses argument paths without the input prefix', () => {
    const r = validateCardFeeCalcArgs(
      { amount: 0, credit_card: { ...card, expiry_year: '29', card_number: undefined } },
      { guide: 'current', clientId: 'c1', requirements: current, deps },
    );
    expect(r).toEqual({
      ok: false,
      problems: {
        contact: [m.required('contact')],
        'credit_card.card_number': [m.required('credit_card.card_number')],
        amount: [m.amountPositive('amount')],
        'credit_card.expiry_year': [m.yearPast('credit_card.expiry_year')],
      },
    });
  });

  it('prices the card rejected at payment (pricing processes nothing)', () => {
    const r = validateCardFeeCalcArgs(
      { amount: 10, credit_card: { ...card, card_number: testCards.visaRejectedAsInvalid.number }, contact },
      { guide: 'current', clientId: 'c1', requirements: current, deps },
    );
    expect(r.ok && r.value.card.outcome).toBe('rejected');
  });
});

describe('validateFeesCalcAmount', () => {
  it.each([
    ['positive', { given: 10, want: undefined }],
    ['zero', { given: 0, want: { amount: [m.amountPositive('amount')] } }],
    ['too large', { given: 2_000_000, want: { amount: [m.amountMax('amount', 1_000_000)] } }],
  ] as const)('%s', (_name, { given, want }) => {
    expect(validateFeesCalcAmount(given, deps)).toEqual(want);
  });
});

describe('validateCardForValidation', () => {
  it('applies the payment rules under input.credit_card', () => {
    expect(
      validateCardForValidation(
        { ...card, cvv: undefined },
        { guide: 'current', clientId: 'c1', requirements: current, deps },
      ),
    ).toEqual({
      ok: false,
      problems: { 'input.credit_card.cvv': [m.required('input.credit_card.cvv')] },
    });
    expect(validateCardForValidation(card, { guide: 'current', clientId: 'c1', requirements: current, deps }).ok).toBe(
      true,
    );
  });
});

describe('input bounds: each at the limit and one past it, both guides', () => {
  const { maxTextLength: maxText, maxMetadataBytes, maxMetadataDepth, maxAmount } = defaultAssumptions.bounds;
  /** An object nested `depth` levels deep (the object itself is level 1). */
  const nested = (depth: number): Record<string, unknown> => {
    let v: Record<string, unknown> = {};
    for (let i = 1; i < depth; i++) v = { a: v };
    return v;
  };
  /** An object whose JSON is exactly `bytes` bytes long in UTF-8 (`{"k":"…"}` is 8 bytes around the text). */
  const sized = (bytes: number, char = 'x'): Record<string, unknown> => {
    const width = Buffer.byteLength(char);
    const n = Math.floor((bytes - 8) / width);
    return { k: char.repeat(n) + 'x'.repeat(bytes - 8 - n * width) };
  };
  const text = (n: number) => 'x'.repeat(n);
  const legacyValid: WirePaymentInput = {
    amount: 100,
    fees: 1.8,
    credit_card: { ...card, card_number: undefined, number: card.card_number },
    contact: { ...contact, description: 'Order 1', reference_no: 'R-1' },
  };
  const inputs = { current: valid, legacy: legacyValid } as const;
  const requirements = { current, legacy } as const;
  const metadataPath = 'input.metadata';

  type Case = [string, { given: Partial<WirePaymentInput>; want: Problems | undefined }];
  const cases: Case[] = [
    ['metadata at the depth limit', { given: { metadata: nested(maxMetadataDepth) }, want: undefined }],
    [
      'metadata one level past the depth limit',
      {
        given: { metadata: nested(maxMetadataDepth + 1) },
        want: { [metadataPath]: [m.metadataDepth(metadataPath, maxMetadataDepth)] },
      },
    ],
    [
      'metadata nested 100,000 levels (refused, no stack overflow)',
      {
        given: { metadata: nested(100_000) },
        want: { [metadataPath]: [m.metadataDepth(metadataPath, maxMetadataDepth)] },
      },
    ],
    [
      'metadata with an array one level past the depth limit',
      {
        given: { metadata: { list: [nested(maxMetadataDepth - 1)] } },
        want: { [metadataPath]: [m.metadataDepth(metadataPath, maxMetadataDepth)] },
      },
    ],
    ['metadata at the size limit', { given: { metadata: sized(maxMetadataBytes) }, want: undefined }],
    [
      'metadata one byte past the size limit',
      {
        given: { metadata: sized(maxMetadataBytes + 1) },
        want: { [metadataPath]: [m.metadataBytes(metadataPath, maxMetadataBytes)] },
      },
    ],
    [
      'metadata of two-byte characters at the size limit',
      { given: { metadata: sized(maxMetadataBytes, 'é') }, want: undefined },
    ],
    [
      'metadata of two-byte characters one byte past the size limit',
      {
        given: { metadata: sized(maxMetadataBytes + 1, 'é') },
        want: { [metadataPath]: [m.metadataBytes(metadataPath, maxMetadataBytes)] },
      },
    ],
    [
      'metadata that is an array',
      { given: { metadata: [1] }, want: { [metadataPath]: [m.notAnObject(metadataPath)] } },
    ],
    [
      'metadata that is a string',
      { given: { metadata: 'x' }, want: { [metadataPath]: [m.notAnObject(metadataPath)] } },
    ],
    ['vendor_device_id at the length limit', { given: { vendor_device_id: text(maxText) }, want: undefined }],
    [
      'vendor_device_id one past the length limit',
      {
        given: { vendor_device_id: text(maxText + 1) },
        want: { 'input.vendor_device_id': [m.tooLong('input.vendor_device_id', maxText)] },
      },
    ],
    [
      'ip_address one past the length limit',
      {
        given: { ip_address: `1.1.1.1${' '.repeat(maxText - 6)}` },
        want: { 'input.ip_address': [m.tooLong('input.ip_address', maxText)] },
      },
    ],
    [
      'ip_address at the length limit (checked as an address)',
      {
        given: { ip_address: `1.1.1.1${' '.repeat(maxText - 7)}` },
        want: { 'input.ip_address': [m.ip('input.ip_address')] },
      },
    ],
    [
      'card_account_uid at the length limit (looked up)',
      {
        given: { credit_card: { card_account_uid: text(maxText) } },
        want: { 'input.credit_card.card_account_uid': [m.unknownCardAccount('input.credit_card.card_account_uid')] },
      },
    ],
    [
      'card_account_uid one past the length limit',
      {
        given: { credit_card: { card_account_uid: text(maxText + 1) } },
        want: { 'input.credit_card.card_account_uid': [m.tooLong('input.credit_card.card_account_uid', maxText)] },
      },
    ],
    ['amount at the maximum', { given: { amount: maxAmount, fees: 15_000.3 }, want: undefined }],
    [
      'amount one cent past the maximum',
      { given: { amount: maxAmount + 0.01 }, want: { 'input.amount': [m.amountMax('input.amount', maxAmount)] } },
    ],
    ['amount 1e308', { given: { amount: 1e308 }, want: { 'input.amount': [m.amountMax('input.amount', maxAmount)] } }],
    ['amount -0', { given: { amount: -0 }, want: { 'input.amount': [m.amountPositive('input.amount')] } }],
    [
      'amount Infinity (a 1e400 literal)',
      { given: { amount: Number.POSITIVE_INFINITY }, want: { 'input.amount': [m.notANumber('input.amount')] } },
    ],
    ['amount NaN', { given: { amount: Number.NaN }, want: { 'input.amount': [m.notANumber('input.amount')] } }],
    ['fees -0.01', { given: { fees: -0.01 }, want: { 'input.fees': [m.feesNegative('input.fees')] } }],
    ['fees -0 (compared as 0)', { given: { fees: -0 }, want: { 'input.fees': [m.feeMismatch('input.fees', 1.8)] } }],
    ['fees 1e308', { given: { fees: 1e308 }, want: { 'input.fees': [m.amountMax('input.fees', maxAmount)] } }],
    [
      'fees -Infinity',
      { given: { fees: Number.NEGATIVE_INFINITY }, want: { 'input.fees': [m.notANumber('input.fees')] } },
    ],
  ];

  for (const guide of ['current', 'legacy'] as const) {
    it.each(cases)(`${guide}: %s`, (_name, { given, want }) => {
      const input = { ...inputs[guide], ...given };
      const r = validatePaymentInput(input, { guide, clientId: 'c1', requirements: requirements[guide], deps });
      expect(r.ok ? undefined : r.problems).toEqual(want);
    });
  }

  it.each<[string, string, Record<string, string>]>([
    ['current', 'input.payment_reference.description', {}],
    ['current', 'input.contact.first_name', {}],
    ['legacy', 'input.contact.description', {}],
    ['current', 'input.credit_card.full_name', {}],
  ])('%s: %s at the length limit passes and one past it is refused', (guide, path) => {
    const g = guide as 'current' | 'legacy';
    const withText = (n: number) => {
      const input = structuredClone(inputs[g]) as Record<string, unknown>;
      const keys = path.split('.').slice(1);
      let at = input;
      for (const k of keys.slice(0, -1)) at = at[k] as Record<string, unknown>;
      at[keys.at(-1)!] = text(n);
      return validatePaymentInput(input as WirePaymentInput, {
        guide: g,
        clientId: 'c1',
        requirements: requirements[g],
        deps,
      });
    };
    expect(withText(maxText).ok).toBe(true);
    expect(withText(maxText + 1)).toEqual({ ok: false, problems: { [path]: [m.tooLong(path, maxText)] } });
  });
});
