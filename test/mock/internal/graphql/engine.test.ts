import { describe, expect, it } from 'vitest';
import { defaultAssumptions, resolveAssumptions } from '../../../../src/assumptions.ts';
import { createMockState, type StoredPayment, testCards } from '../../../support/mock-internals/domain.ts';
import { createClock, createSeededRandom } from '../../../support/mock-internals/foundations.ts';
import {
  createGraphqlEngine,
  type GraphqlEngineDeps,
  type GraphqlResult,
  nodeJitLoader,
} from '../../../support/mock-internals/graphql.ts';
import { nodeCrypto } from '../../../support/mock-internals/platform.ts';
import { card, contact, legacyCard, legacyPayInput, payInput, q, reference } from './engine-fixtures.ts';

const ctx = { clientId: 'test-client', ip: '203.0.113.7' };
const NOW = Date.UTC(2030, 5, 15);
const reasons = defaultAssumptions.reasonCodes;

function setup(overrides: Partial<GraphqlEngineDeps> = {}) {
  const accepted: StoredPayment[] = [];
  const state = createMockState({ assumptions: defaultAssumptions, seed: 'seed', sha256Hex: nodeCrypto.sha256Hex });
  const random = createSeededRandom('seed', nodeCrypto.sha512Hex);
  const engine = createGraphqlEngine({
    assumptions: defaultAssumptions,
    guide: 'current',
    state,
    clock: createClock({ realNow: () => NOW }),
    random,
    onPaymentAccepted: (p) => accepted.push(p),
    jit: nodeJitLoader,
    ...overrides,
  });
  return { engine, state, random, accepted };
}

const errorsOf = (r: GraphqlResult) =>
  (r.body as { errors: { message: string; extensions: Record<string, unknown> }[] }).errors;

describe('createGraphqlEngine: current guide', () => {
  it('answers the fee list, one entry per fee table row', () => {
    const { engine } = setup();
    const r = engine.execute({ query: q.fees, variables: { amount: 100 } }, ctx);
    expect(r).toMatchObject({ status: 200, guide: 'current', operationName: 'PaymentGatewayFeesCalc' });
    expect(r.body).toEqual({
      data: {
        paymentGatewayFeesCalc: [
          { amount: 100, fees: 1.8, total_settlement_amount: 101.8, card_type: 'visa' },
          { amount: 100, fees: 1.8, total_settlement_amount: 101.8, card_type: 'mastercard' },
          { amount: 100, fees: 3.2, total_settlement_amount: 103.2, card_type: 'amex' },
          { amount: 100, fees: 3.2, total_settlement_amount: 103.2, card_type: 'diners' },
        ],
      },
    });
    expect(JSON.parse(r.json)).toEqual(r.body);
  });

  it('answers a 7.3 error for a fee list amount ≤ 0', () => {
    const { engine } = setup();
    const r = engine.execute({ query: q.fees, variables: { amount: 0 } }, ctx);
    expect(r.status).toBe(defaultAssumptions.graphqlErrorHttpStatus);
    expect(JSON.parse(r.json)).toEqual({
      errors: [
        {
          message: 'Validation failed for the field [paymentGatewayFeesCalc].',
          path: ['paymentGatewayFeesCalc'],
          extensions: { category: 'validation', validation: { amount: ['The amount must be greater than 0.'] } },
        },
      ],
    });
  });

  it('prices a card and hands out a card_account_uid that pays in place of the card details', () => {
    const { engine, accepted } = setup();
    const fee = engine.execute({ query: q.cardFee, variables: { amount: 100, credit_card: card, contact } }, ctx);
    const data = (fee.body as { data: { paymentCreditCardFeeCalc: { card_account_uid: string } } }).data;
    expect(data.paymentCreditCardFeeCalc).toMatchObject({
      amount: 100,
      fees: 1.8,
      total_settlement_amount: 101.8,
      card_type: 'visa',
    });
    const { card_account_uid } = data.paymentCreditCardFeeCalc;
    const again = engine.execute(
      { query: q.cardFee, variables: { amount: 5, credit_card: { card_account_uid }, contact } },
      ctx,
    );
    expect(again.body).toMatchObject({ data: { paymentCreditCardFeeCalc: { card_account_uid, fees: 0.38 } } });
    const pay = engine.execute(
      { query: q.pay, variables: { input: { ...payInput, credit_card: { card_account_uid } } } },
      ctx,
    );
    expect(pay.status).toBe(200);
    expect(accepted[0]?.card_account_uid).toBe(card_account_uid);
  });

  it('processes a payment: processing, clock time, seeded uuid, stored with metadata and the caller IP', () => {
    const { engine, state, accepted } = setup();
    const r = engine.execute({ query: q.pay, variables: { input: { ...payInput, metadata: { order: 7 } } } }, ctx);
    const expectedUuid = createSeededRandom('seed', nodeCrypto.sha512Hex).uuid();
    expect(r.body).toEqual({
      data: {
        processPaymentRequest: {
          amount: 100,
          payment_gateway_fee: 1.8,
          paid_at: new Date(NOW).toISOString(),
          status: { name: 'processing' },
          uuid: expectedUuid,
        },
      },
    });
    expect(accepted).toHaveLength(1);
    expect(state.payment('test-client', expectedUuid)).toMatchObject({
      metadata: { order: 7 },
      ip_address: ctx.ip,
      masked_card_number: '411111******1111',
      outcome: 'success',
      guide: 'current',
      payment_reference: reference,
    });
    expect(JSON.stringify(state.payments())).not.toContain(card.card_number);
  });

  it('stamps paid_at with the clock time of each payment, to the millisecond', () => {
    let now = NOW;
    const { engine, accepted } = setup({ clock: createClock({ realNow: () => now }) });
    const pay = () => engine.execute({ query: q.pay, variables: { input: payInput } }, ctx);
    pay();
    pay();
    now += 1;
    pay();
    now += 86_400_000;
    pay();
    expect(accepted.map((p) => p.paid_at)).toEqual([
      new Date(NOW).toISOString(),
      new Date(NOW).toISOString(),
      new Date(NOW + 1).toISOString(),
      new Date(NOW + 86_400_001).toISOString(),
    ]);
  });

  it('keeps an ip_address sent by a server on the payer’s behalf', () => {
    const { engine, accepted } = setup();
    engine.execute({ query: q.pay, variables: { input: { ...payInput, ip_address: '198.51.100.1' } } }, ctx);
    expect(accepted[0]?.ip_address).toBe('198.51.100.1');
  });

  it('gives the same answers after a reset of state and random', () => {
    const { engine, state, random } = setup();
    const first = engine.execute({ query: q.pay, variables: { input: payInput } }, ctx).json;
    state.reset();
    random.reset();
    engine.reset();
    expect(engine.execute({ query: q.pay, variables: { input: payInput } }, ctx).json).toBe(first);
  });

  it('answers the spec 7.3 example: missing contact and a past expiry year', () => {
    const { engine, accepted } = setup();
    const input = { ...payInput, contact: undefined, credit_card: { ...card, expiry_year: '20' } };
    const r = engine.execute({ query: q.pay, variables: { input } }, ctx);
    expect(JSON.parse(r.json)).toEqual({
      errors: [
        {
          message: 'Validation failed for the field [processPaymentRequest].',
          path: ['processPaymentRequest'],
          extensions: {
            category: 'validation',
            validation: {
              'input.contact': ['The input.contact field is required.'],
              'input.credit_card.expiry_year': [
                'The input.credit_card.expiry_year is in the past: the card has expired.',
              ],
            },
          },
        },
      ],
    });
    expect(accepted).toHaveLength(0);
  });

  it('answers the work-in-progress creditCardValidation', () => {
    const { engine } = setup();
    const query =
      'mutation($c: CreditCardInput!) { creditCardValidation(input: { credit_card: $c }) { valid card_type message } }';
    expect(engine.execute({ query, variables: { c: card } }, ctx).body).toEqual({
      data: { creditCardValidation: { valid: true, card_type: 'visa', message: null } },
    });
    const bad = engine.execute(
      { query, variables: { c: { ...card, card_number: testCards.visaRejectedAsInvalid.number } } },
      ctx,
    );
    expect(bad.body).toMatchObject({ data: { creditCardValidation: { valid: false, card_type: null } } });
  });
});

describe('createGraphqlEngine: legacy guide and both', () => {
  it.each(['legacy', 'both'] as const)('serves the legacy documents in %s mode', (guide) => {
    const { engine, accepted } = setup({ guide });
    const fees = engine.execute({ query: q.legacyFees, variables: { amount: 100 } }, ctx);
    expect(fees.guide).toBe('legacy');
    expect((fees.body as { data: { paymentGatewayFeesCalc: unknown[] } }).data.paymentGatewayFeesCalc[0]).toEqual({
      amount: 100,
      fees: 1.8,
      total: 101.8,
      card_type: 'visa',
      card_location: 'domestic',
    });
    const cardFee = engine.execute(
      {
        query: q.legacyCardFee,
        variables: { amount: 100, credit_card: legacyCard, contact: { ...contact, ...reference } },
      },
      ctx,
    );
    expect(cardFee).toMatchObject({ status: 200, guide: 'legacy' });
    const pay = engine.execute({ query: q.legacyPay, variables: { input: legacyPayInput } }, ctx);
    expect(pay).toMatchObject({ status: 200, guide: 'legacy' });
    expect(accepted[0]).toMatchObject({ guide: 'legacy', payment_reference: reference });
  });

  it('serves the current documents in both mode', () => {
    const { engine } = setup({ guide: 'both' });
    expect(engine.execute({ query: q.fees, variables: { amount: 1 } }, ctx)).toMatchObject({
      status: 200,
      guide: 'current',
    });
    expect(engine.execute({ query: q.pay, variables: { input: payInput } }, ctx)).toMatchObject({
      status: 200,
      guide: 'current',
    });
  });

  it('picks the guide of a neutral document from its variables, per request', () => {
    const { engine } = setup({ guide: 'both' });
    const a = engine.execute({ query: q.cardFee, variables: { amount: 1, credit_card: card, contact } }, ctx);
    const b = engine.execute(
      { query: q.cardFee, variables: { amount: 1, credit_card: legacyCard, contact: { ...contact, ...reference } } },
      ctx,
    );
    expect([a.guide, b.guide, a.status, b.status]).toEqual(['current', 'legacy', 200, 200]);
  });

  it('answers a conflict with a 7.3 error naming both fields', () => {
    const { engine } = setup({ guide: 'both' });
    const input = { ...payInput, credit_card: legacyCard, payment_reference: undefined };
    const r = engine.execute({ query: q.pay, variables: { input } }, ctx);
    const [error] = errorsOf(r);
    expect(error?.message).toBe('Validation failed for the field [processPaymentRequest].');
    expect(error?.extensions.validation).toEqual({
      'input.credit_card.number': [
        '[payment-contract-kit] The request mixes the two guides: "number" (at input.credit_card.number) is the legacy guide\'s name and "ProcessPaymentRequestInput" is the current guide\'s. Use the names of one guide throughout.',
      ],
    });
  });

  it('answers a legacy variable in current mode at its dotted path, with the fix', () => {
    const { engine } = setup();
    const r = engine.execute({ query: q.pay, variables: { input: { ...payInput, credit_card: legacyCard } } }, ctx);
    expect(errorsOf(r)[0]?.extensions).toEqual({
      category: 'validation',
      validation: {
        'input.credit_card.number': [
          '[payment-contract-kit] Guide mismatch: this mock serves the current guide and the request is written in the legacy guide. "number" is the legacy guide\'s name for the card number; the current guide calls it "card_number". Send card_number, or start the mock with --guide legacy or --guide both.',
        ],
      },
      reason: reasons.guideMismatch,
    });
  });

  it('answers a legacy document in current mode as a GraphQL validation error with the fix', () => {
    const { engine } = setup();
    const r = engine.execute({ query: q.legacyFees, variables: { amount: 1 } }, ctx);
    expect(errorsOf(r)).toEqual([
      {
        message:
          '[payment-contract-kit] Guide mismatch: this mock serves the current guide and the request is written in the legacy guide. "total" is the legacy guide\'s fee list field; the current guide calls it "total_settlement_amount". Select total_settlement_amount, or start the mock with --guide legacy or --guide both.',
        extensions: { reason: reasons.guideMismatch },
      },
    ]);
  });
});

describe('createGraphqlEngine: request errors', () => {
  it.each([
    ['missing query', { given: {}, want: reasons.badRequest }],
    ['query not a string', { given: { query: 42 }, want: reasons.badRequest }],
    ['variables not an object', { given: { query: '{ __typename }', variables: [1] }, want: reasons.badRequest }],
    ['operationName not a string', { given: { query: '{ __typename }', operationName: 1 }, want: reasons.badRequest }],
    ['syntax error', { given: { query: '{ paymentGatewayFeesCalc(' }, want: reasons.graphqlParseFailed }],
    ['unknown field', { given: { query: '{ nope }' }, want: reasons.graphqlValidationFailed }],
    [
      'unknown operation name',
      { given: { query: 'query A { __typename }', operationName: 'B' }, want: reasons.graphqlValidationFailed },
    ],
    [
      'several operations, no name',
      { given: { query: 'query A { __typename } query B { __typename }' }, want: reasons.graphqlValidationFailed },
    ],
    [
      'variable of the wrong type',
      { given: { query: q.fees, variables: { amount: 'ten' } }, want: reasons.graphqlValidationFailed },
    ],
  ] as const)('%s', (_name, { given, want }) => {
    const { engine } = setup();
    const r = engine.execute(given as never, ctx);
    expect(r.status).toBe(defaultAssumptions.graphqlErrorHttpStatus);
    expect(errorsOf(r)[0]?.extensions.reason).toBe(want);
    expect(JSON.parse(r.json)).toEqual(r.body);
  });

  it('uses the HTTP status of the assumptions for GraphQL errors', () => {
    const { engine } = setup({ assumptions: resolveAssumptions({ graphqlErrorHttpStatus: 400 }) });
    expect(engine.execute({ query: '{ nope }' }, ctx).status).toBe(400);
    expect(engine.execute({ query: q.fees, variables: { amount: 0 } }, ctx).status).toBe(400);
  });

  it('masks unexpected exceptions and hands them back for the log', () => {
    const boom = new Error('secret stack detail');
    const { engine } = setup({
      onPaymentAccepted: () => {
        throw boom;
      },
    });
    const r = engine.execute({ query: q.pay, variables: { input: payInput } }, ctx);
    expect(r.status).toBe(500);
    expect(r.internalError).toBe(boom);
    expect(JSON.parse(r.json)).toEqual({
      errors: [
        { message: 'Internal server error', path: ['processPaymentRequest'], extensions: { reason: reasons.internal } },
      ],
    });
    expect(r.json).not.toContain('secret');
  });
});

describe('createGraphqlEngine: compilation cache and graphql-jit', () => {
  it('parses and compiles a query once, then hits the cache', () => {
    const { engine } = setup();
    for (let i = 1; i <= 3; i++) engine.execute({ query: q.fees, variables: { amount: i } }, ctx);
    expect(engine.cacheStats()).toEqual({ size: 1, hits: 2, misses: 1 });
  });

  it('stays bounded, evicting the least recently used query', () => {
    const { engine } = setup({ cacheSize: 2 });
    const run = (query: string) => engine.execute({ query, variables: { amount: 1 } }, ctx);
    run(q.fees);
    run('query A { __typename }');
    run(q.fees); // fees is now the most recent
    run('query B { __typename }'); // evicts A
    expect(engine.cacheStats().size).toBe(2);
    const before = engine.cacheStats().misses;
    run(q.fees);
    expect(engine.cacheStats().misses).toBe(before);
    run('query A { __typename }');
    expect(engine.cacheStats().misses).toBe(before + 1);
  });

  it('keeps the 7.3 extensions intact through graphql-jit, in body and in json', async () => {
    const { engine } = setup();
    await engine.warmUp();
    const r = engine.execute({ query: q.pay, variables: { input: { ...payInput, amount: -1, fees: 0 } } }, ctx);
    expect(r.executedBy).toBe('graphql-jit');
    const expected = {
      category: 'validation',
      validation: { 'input.amount': ['The input.amount must be greater than 0.'] },
    };
    expect(errorsOf(r)[0]?.extensions).toEqual(expected);
    expect(JSON.parse(r.json).errors[0].extensions).toEqual(expected);
  });

  it("serializes success with the compiled query's serializer, equal to JSON.stringify", async () => {
    const { engine } = setup();
    await engine.warmUp();
    const r = engine.execute({ query: q.pay, variables: { input: payInput } }, ctx);
    expect(r.executedBy).toBe('graphql-jit');
    expect(r.json).toBe(JSON.stringify(r.body));
  });

  it('executes synchronously (no promise in the hot path)', () => {
    const { engine } = setup();
    const r = engine.execute({ query: q.fees, variables: { amount: 1 } }, ctx);
    expect(r).not.toBeInstanceOf(Promise);
    expect(typeof r.json).toBe('string');
  });
});
