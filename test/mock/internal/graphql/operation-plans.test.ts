import { parse } from 'graphql/index.js';
import { describe, expect, it } from 'vitest';
import {
  conflictMessage,
  decideGuide,
  documentSignals,
  type GuideSignal,
  mismatchMessage,
  variableBindings,
  variableSignals,
} from '../../../support/mock-internals/graphql.ts';

const names = (signals: readonly GuideSignal[] | undefined) => (signals ?? []).map((s) => `${s.guide}:${s.name}`);

describe('documentSignals', () => {
  it.each([
    [
      'current input type',
      { given: 'mutation($input: ProcessPaymentRequestInput!) { x }', want: ['current:ProcessPaymentRequestInput'] },
    ],
    [
      'legacy input type',
      { given: 'mutation($input: ProcessPaymentInput!) { x }', want: ['legacy:ProcessPaymentInput'] },
    ],
    [
      'current fee field',
      {
        given: '{ paymentGatewayFeesCalc(amount: 1) { fees total_settlement_amount } }',
        want: ['current:total_settlement_amount'],
      },
    ],
    [
      'legacy fee fields',
      {
        given: '{ paymentGatewayFeesCalc(amount: 1) { total card_location } }',
        want: ['legacy:total', 'legacy:card_location'],
      },
    ],
    [
      'fee fields in a fragment',
      {
        given: '{ paymentGatewayFeesCalc(amount: 1) { ...F } } fragment F on PaymentGatewayFee { total }',
        want: ['legacy:total'],
      },
    ],
    [
      'total_settlement_amount of the card fee is neutral',
      { given: '{ paymentCreditCardFeeCalc(amount: 1) { total_settlement_amount } }', want: [] },
    ],
    [
      'inline card number names',
      {
        given:
          '{ paymentCreditCardFeeCalc(amount: 1, credit_card: { number: "1" }, contact: { description: "d" }) { fees } }',
        want: ['legacy:number', 'legacy:contact.description'],
      },
    ],
    [
      'inline payment_reference',
      {
        given: 'mutation { processPaymentRequest(input: { payment_reference: {} }) { uuid } }',
        want: ['current:payment_reference'],
      },
    ],
  ] as const)('%s', (_name, { given, want }) => {
    expect(names(documentSignals(parse(given)))).toEqual(want);
  });
});

describe('variableSignals', () => {
  const payment = variableBindings(
    parse('mutation($p: ProcessPaymentRequestInput!) { processPaymentRequest(input: $p) { uuid } }')
      .definitions[0] as never,
  );
  const feeCalc = variableBindings(
    parse(
      'query($a: Float!, $c: CreditCardInput!, $k: ContactInput) { paymentCreditCardFeeCalc(amount: $a, credit_card: $c, contact: $k) { fees } }',
    ).definitions[0] as never,
  );

  it('binds variables to argument paths', () => {
    expect(payment).toEqual([{ variable: 'p', path: 'input', rootField: 'processPaymentRequest' }]);
    expect(feeCalc.map((b) => b.path)).toEqual(['amount', 'credit_card', 'contact']);
  });

  it.each([
    ['current card number', { given: { p: { credit_card: { card_number: '4' } } }, want: ['current:card_number'] }],
    ['legacy card number', { given: { p: { credit_card: { number: '4' } } }, want: ['legacy:number'] }],
    ['payment_reference', { given: { p: { payment_reference: {} } }, want: ['current:payment_reference'] }],
    [
      'legacy reference in the contact',
      {
        given: { p: { contact: { description: 'd', reference_no: 'r' } } },
        want: ['legacy:contact.description', 'legacy:contact.reference_no'],
      },
    ],
    ['neutral', { given: { p: { amount: 1, credit_card: { card_account_uid: 'u' } } }, want: [] }],
  ] as const)('payment input: %s', (_name, { given, want }) => {
    expect(names(variableSignals(payment, given))).toEqual(want);
  });

  it('reports the dotted path and root field', () => {
    expect(variableSignals(feeCalc, { c: { number: '4' } })).toEqual([
      {
        guide: 'legacy',
        kind: 'cardNumber',
        name: 'number',
        path: 'credit_card.number',
        rootField: 'paymentCreditCardFeeCalc',
      },
    ]);
    expect(variableSignals(payment, { p: { credit_card: { number: '4' } } })?.[0]?.path).toBe(
      'input.credit_card.number',
    );
  });

  it("collects only the asked guide's signals, with the same paths, in the same order", () => {
    const mixed = {
      p: {
        credit_card: { card_number: '4', number: '4' },
        contact: { description: 'd', reference_no: 'r' },
        payment_reference: {},
      },
    };
    const all = variableSignals(payment, mixed) ?? [];
    expect(variableSignals(payment, mixed, 'legacy')).toEqual(all.filter((s) => s.guide === 'legacy'));
    expect(variableSignals(payment, mixed, 'current')).toEqual(all.filter((s) => s.guide === 'current'));
    expect(names(variableSignals(feeCalc, { c: { number: '4', card_number: '4' } }, 'legacy'))).toEqual([
      'legacy:number',
    ]);
    // A payment written in the current guide gives a current-guide mock nothing to look at.
    expect(
      variableSignals(payment, { p: { credit_card: { card_number: '4' }, payment_reference: {} } }, 'legacy'),
    ).toBeUndefined();
  });

  it('allocates nothing without variables or signals', () => {
    expect(variableSignals(payment, undefined)).toBeUndefined();
    expect(variableSignals(payment, { p: { amount: 1 } })).toBeUndefined();
  });
});

describe('decideGuide', () => {
  const sig = (guide: 'current' | 'legacy', name: string, path?: string): GuideSignal => ({
    guide,
    kind: 'cardNumber',
    name,
    path,
    rootField: path ? 'processPaymentRequest' : undefined,
  });

  it.each([
    ['both, no signal → current', { given: { mode: 'both', doc: [], vars: undefined }, want: 'current' }],
    [
      'both, legacy document',
      { given: { mode: 'both', doc: [sig('legacy', 'total')], vars: undefined }, want: 'legacy' },
    ],
    [
      'both, legacy variables',
      { given: { mode: 'both', doc: [], vars: [sig('legacy', 'number', 'x.number')] }, want: 'legacy' },
    ],
    [
      'legacy mode, legacy signals',
      { given: { mode: 'legacy', doc: [sig('legacy', 'total')], vars: undefined }, want: 'legacy' },
    ],
    ['current mode, no signal', { given: { mode: 'current', doc: [], vars: undefined }, want: 'current' }],
  ] as const)('%s', (_name, { given, want }) => {
    expect(decideGuide(given.mode, given.doc, given.vars)).toEqual({ ok: true, guide: want });
  });

  it('reports a conflict in both mode, variable signal first', () => {
    const d = sig('current', 'ProcessPaymentRequestInput');
    const v = sig('legacy', 'number', 'input.credit_card.number');
    expect(decideGuide('both', [d], [v])).toEqual({ ok: false, kind: 'conflict', a: v, b: d });
  });

  it('reports the other guide’s name in a single-guide mode', () => {
    const v = sig('legacy', 'number', 'input.credit_card.number');
    expect(decideGuide('current', [], [v])).toEqual({ ok: false, kind: 'mismatch', signal: v, mode: 'current' });
  });
});

describe('messages', () => {
  it.each([
    [
      'legacy card number in current mode',
      {
        given: { guide: 'legacy', kind: 'cardNumber', name: 'number' },
        want: '[payment-contract-kit] Guide mismatch: this mock serves the current guide and the request is written in the legacy guide. "number" is the legacy guide\'s name for the card number; the current guide calls it "card_number". Send card_number, or start the mock with --guide legacy or --guide both.',
      },
    ],
    [
      'current card number in legacy mode',
      {
        given: { guide: 'current', kind: 'cardNumber', name: 'card_number' },
        want: '[payment-contract-kit] Guide mismatch: this mock serves the legacy guide and the request is written in the current guide. "card_number" is the current guide\'s name for the card number; the legacy guide calls it "number". Send number, or start the mock with --guide current or --guide both.',
      },
    ],
    [
      'legacy input type in current mode',
      {
        given: { guide: 'legacy', kind: 'inputType', name: 'ProcessPaymentInput' },
        want: '[payment-contract-kit] Guide mismatch: this mock serves the current guide and the request is written in the legacy guide. "ProcessPaymentInput" is the legacy guide\'s name for the payment input type; the current guide calls it "ProcessPaymentRequestInput". Declare $input: ProcessPaymentRequestInput!, or start the mock with --guide legacy or --guide both.',
      },
    ],
    [
      'legacy fee total in current mode',
      {
        given: { guide: 'legacy', kind: 'feeTotal', name: 'total' },
        want: '[payment-contract-kit] Guide mismatch: this mock serves the current guide and the request is written in the legacy guide. "total" is the legacy guide\'s fee list field; the current guide calls it "total_settlement_amount". Select total_settlement_amount, or start the mock with --guide legacy or --guide both.',
      },
    ],
    [
      'payment_reference in legacy mode',
      {
        given: { guide: 'current', kind: 'reference', name: 'payment_reference' },
        want: '[payment-contract-kit] Guide mismatch: this mock serves the legacy guide and the request is written in the current guide. "payment_reference" belongs to the current guide; the legacy guide takes description and reference_no in the contact. Send contact.description and contact.reference_no, or start the mock with --guide current or --guide both.',
      },
    ],
  ] as const)('%s', (_name, { given, want }) => {
    expect(mismatchMessage({ ...given, path: undefined, rootField: undefined })).toBe(want);
  });

  it('names both fields of a conflict', () => {
    const a: GuideSignal = {
      guide: 'legacy',
      kind: 'cardNumber',
      name: 'number',
      path: 'input.credit_card.number',
      rootField: 'processPaymentRequest',
    };
    const b: GuideSignal = {
      guide: 'current',
      kind: 'reference',
      name: 'payment_reference',
      path: undefined,
      rootField: undefined,
    };
    expect(conflictMessage(a, b)).toBe(
      '[payment-contract-kit] The request mixes the two guides: "number" (at input.credit_card.number) is the legacy guide\'s name and "payment_reference" is the current guide\'s. Use the names of one guide throughout.',
    );
  });
});
