// The one request walk: its stages, and the checker and `verify` reading the same walk (decision 0009: one checker).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { walkGraphqlRequest } from '../../../src/contract/check/graphql-request-walk.ts';
import { checkExchange } from '../../../src/contract/check/index.ts';
import { checkGraphqlInteraction } from '../../../src/pact/verify/graphql-interaction-check.ts';
import type { HttpInteraction } from '../../../src/pact/verify/pact-model.ts';
import { testCardDetails, testCardNumbers } from '../../../src/test-values.ts';

const root = resolve(import.meta.dirname, '../../..');
const operation = (guide: 'current' | 'legacy', name: string) =>
  readFileSync(resolve(root, 'operations', guide, `${name}.graphql`), 'utf8');
const feesQuery = operation('current', 'payment-gateway-fees-calc');
const paymentQuery = operation('current', 'process-payment-request');
const legacyPaymentQuery = operation('legacy', 'process-payment-request');

const card = { ...testCardDetails, card_number: testCardNumbers.visaSuccess, expiry_year: '40' };

/** A current-guide payment input; `contact` left out when asked (the service's own validation requires it). */
function paymentInput(withContact: boolean) {
  return {
    amount: 100,
    fees: 1.8,
    credit_card: card,
    ...(withContact ? { contact: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' } } : {}),
    payment_reference: { description: 'Order', reference_no: 'R-1' },
  };
}

function exchange(body: unknown, answer: unknown) {
  return {
    request: { method: 'POST', url: '/graphql', headers: { 'x-jwt-token': 't' }, body: JSON.stringify(body) },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(answer) },
  };
}

function interaction(body: unknown, answer: unknown): HttpInteraction {
  return {
    kind: 'http',
    description: 'a request',
    providerStates: [],
    pending: false,
    comments: [],
    request: {
      method: 'POST',
      path: '/graphql',
      query: {},
      headers: { 'x-jwt-token': ['t'] },
      body: { present: true, contentType: 'application/json', value: body },
      rules: {},
    },
    response: {
      status: 200,
      headers: {},
      body: { present: true, contentType: 'application/json', value: answer },
      rules: {},
    },
  };
}

describe('walkGraphqlRequest', () => {
  it('stops at a body without a query string', () => {
    expect(walkGraphqlRequest([1], 'current', true)).toEqual({ stage: 'no-query' });
    expect(walkGraphqlRequest({ query: 42 }, 'both', true)).toEqual({ stage: 'no-query' });
  });

  it('stops at a query that does not parse, with graphql-js message', () => {
    const walk = walkGraphqlRequest({ query: 'query {' }, 'current', true);
    expect(walk.stage).toBe('not-graphql');
    expect(walk.stage === 'not-graphql' && walk.parseError).toMatch(/^Syntax Error/);
  });

  it('stops when no operation can be picked, keeping the validation messages of the guide', () => {
    const walk = walkGraphqlRequest({ query: 'query A { nope } query B { nope }' }, 'legacy', true);
    expect(walk).toMatchObject({
      stage: 'no-operation',
      guide: 'legacy',
      problem: 'the query holds 2 operations and no operationName picks one',
    });
    expect(walk.stage === 'no-operation' && walk.invalid.join(' ')).toContain('Cannot query field "nope"');
    expect(walkGraphqlRequest({ query: feesQuery, operationName: 'Other' }, 'current', true)).toMatchObject({
      stage: 'no-operation',
      problem: 'operationName "Other" names no operation of the query',
    });
  });

  it('walks the variables without echoing their values', () => {
    const walk = walkGraphqlRequest({ query: feesQuery, variables: { amount: '4111111111111111' } }, 'current', true);
    if (walk.stage !== 'walked') throw new Error(`walked expected, got ${walk.stage}`);
    expect(walk.operationName).toBe('PaymentGatewayFeesCalc');
    expect(walk.invalid).toEqual([]);
    expect(walk.variableFindings.map((f) => f.path)).toEqual([['variables', 'amount']]);
    expect(JSON.stringify(walk.variableFindings)).not.toContain('4111111111111111');
  });

  it('requires what the service validates only when the exchange expects data', () => {
    const body = { query: paymentQuery, variables: { input: paymentInput(false) } };
    const paths = (expectsData: boolean) => {
      const walk = walkGraphqlRequest(body, 'current', expectsData);
      return walk.stage === 'walked' ? walk.variableFindings.map((f) => f.path.join('.')) : [walk.stage];
    };
    expect(paths(true)).toEqual(['variables.input.contact']);
    expect(paths(false)).toEqual([]);
  });

  it('detects the guide under both, and names a request that mixes the two', () => {
    const legacy = { query: legacyPaymentQuery, variables: {} };
    expect(walkGraphqlRequest(legacy, 'both', false)).toMatchObject({ stage: 'walked', guide: 'legacy' });
    const mixed = walkGraphqlRequest(
      { query: legacyPaymentQuery, variables: { input: { payment_reference: { description: 'x' } } } },
      'both',
      false,
    );
    expect(mixed).toMatchObject({ stage: 'walked', guide: 'current', conflict: { kind: 'conflict' } });
  });
});

describe('the checker and verify read one walk', () => {
  const cases: [string, unknown][] = [
    ['a variable of the wrong type', { query: feesQuery, variables: { amount: 'ten' } }],
    ['an undeclared variable', { query: feesQuery, variables: { amount: 1, extra: true } }],
    ['a field the schema does not have', { query: feesQuery.replace('card_type', 'card_kind'), variables: {} }],
    ['a missing required position', { query: paymentQuery, variables: { input: paymentInput(false) } }],
  ];
  it.each(cases)('%s: the same problems, each in its own words', (_name, body) => {
    const answer = { data: null };
    const drifts = checkExchange(exchange(body, answer), { guide: 'current' }).drifts.filter(
      (d) => d.kind === 'consumer',
    );
    const mismatches = checkGraphqlInteraction(interaction(body, answer), 'current').filter(
      (m) => m.area === 'request.body',
    );
    expect(drifts.length).toBeGreaterThan(0);
    expect(drifts.map((d) => d.path)).toEqual(mismatches.map((m) => m.path.replace(/^\$\./, '')));
    // verify adds a hint about the other guide to its message; the checker puts such a hint in the drift's message.
    mismatches.forEach((m, i) => {
      expect(m.message.startsWith(drifts[i]!.actual)).toBe(true);
    });
  });

  it('a repeated request gives the same drifts, and its walk follows what the answer expects', () => {
    const body = { query: paymentQuery, variables: { input: paymentInput(false) } };
    const withData = exchange(body, { data: { processPaymentRequest: null } });
    const withErrors = exchange(body, { errors: [{ message: 'contact is required' }] });
    const first = checkExchange(withData, { guide: 'current' }).drifts.filter((d) => d.kind === 'consumer');
    expect(first.map((d) => d.path)).toEqual(['variables.input.contact']);
    expect(checkExchange(withData, { guide: 'current' }).drifts.filter((d) => d.kind === 'consumer')).toEqual(first);
    expect(checkExchange(withErrors, { guide: 'current' }).drifts.filter((d) => d.kind === 'consumer')).toEqual([]);
  });
});
