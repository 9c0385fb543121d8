import { describe, expect, it } from 'vitest';
import { testCards } from '../../../support/mock-internals/domain.ts';
import type { GraphqlEngineDeps, GraphqlRequest } from '../../../support/mock-internals/graphql.ts';
import { card, contact, legacyCard, legacyContact, payInput, q, testEngine } from './engine-fixtures.ts';

// engine.ts runs an operation with graphql-js until graphql-jit has loaded, then compiled. Clients must not be able
// to tell the two apart: this file holds both paths to the same status and the same bytes.

const ctx = { clientId: 'test-client', ip: '203.0.113.7' };

function engineWith(execution: GraphqlEngineDeps['execution']) {
  return testEngine({ guide: 'both', execution }, 'parity');
}

const pay = q.pay;

/** Requests covering answers, 7.3 validation errors, variable coercion errors, GraphQL validation and guides. */
const corpus: [string, GraphqlRequest][] = [
  ['fee list', { query: q.fees, variables: { amount: 250.5 } }],
  ['card fee', { query: q.cardFee, variables: { amount: 100, credit_card: card, contact } }],
  ['payment', { query: pay, variables: { input: { ...payInput, metadata: { order: 7, tags: ['a'] } } } }],
  ['payment, 7.3 validation errors', { query: pay, variables: { input: { ...payInput, amount: -1, fees: 0 } } }],
  [
    'payment, missing required fields',
    { query: pay, variables: { input: { amount: 5, credit_card: { cvv: '1' }, contact: {} } } },
  ],
  [
    'card the service rejects',
    {
      query: pay,
      variables: {
        input: { ...payInput, credit_card: { ...card, card_number: testCards.visaRejectedAsInvalid.number } },
      },
    },
  ],
  ['variable of the wrong type', { query: pay, variables: { input: { ...payInput, amount: 'lots' } } }],
  ['missing variable', { query: pay, variables: {} }],
  ['variables of another shape', { query: pay, variables: { input: 'not an object' } }],
  ['unknown field', { query: '{ paymentGatewayFeesCalc(amount: 1) { nope } }' }],
  ['typename only', { query: 'query T { __typename }' }],
  ['two operations, one picked', { query: 'query A { __typename } query B { __typename }', operationName: 'B' }],
  ['legacy fee list', { query: q.legacyFees, variables: { amount: 10 } }],
  [
    'legacy card fee',
    {
      query: q.legacyCardFee,
      variables: { amount: 100, credit_card: legacyCard, contact: legacyContact },
    },
  ],
  [
    'legacy payment',
    {
      query: q.legacyPay,
      variables: {
        input: { amount: 100, fees: 1.8, credit_card: legacyCard, contact: legacyContact },
      },
    },
  ],
];

describe('GraphQL engine: graphql-js before graphql-jit has loaded, graphql-jit after', () => {
  it('answers the first request of a fresh process with graphql-js, and compiles once the compiler is loaded', async () => {
    const engine = engineWith(undefined);
    const request = corpus[0]![1];
    const first = engine.execute(request, ctx);
    expect(first.executedBy).toBe('graphql-js');
    await engine.warmUp();
    const later = engine.execute(request, ctx);
    expect(later.executedBy).toBe('graphql-jit');
    expect(later.json).toBe(first.json);
  });

  it('gives the same status and bytes on both paths, request by request', async () => {
    const interpreted = engineWith('interpreted');
    const compiled = engineWith('compiled');
    await compiled.warmUp();
    await interpreted.warmUp();
    for (const [name, request] of corpus) {
      const a = interpreted.execute(request, ctx);
      const b = compiled.execute(request, ctx);
      expect(a.executedBy ?? 'none', name).not.toBe('graphql-jit');
      expect({ name, status: b.status, json: b.json, guide: b.guide }).toEqual({
        name,
        status: a.status,
        json: a.json,
        guide: a.guide,
      });
      expect(a.internalError, name).toBeUndefined();
    }
  });

  it('runs the corpus compiled, but for variables that do not coerce (graphql-js words those)', async () => {
    const compiled = engineWith('compiled');
    await compiled.warmUp();
    const coercionFailures = ['variable of the wrong type', 'missing variable', 'variables of another shape'];
    for (const [name, request] of corpus) {
      const r = compiled.execute(request, ctx);
      if (r.executedBy === undefined) continue; // refused before execution (GraphQL validation)
      expect(r.executedBy, name).toBe(coercionFailures.includes(name) ? 'graphql-js' : 'graphql-jit');
    }
  });
});
