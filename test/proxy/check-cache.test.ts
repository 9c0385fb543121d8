import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/contract/check/exchange.ts';
import { cachedCheck, isMutationRequest } from '../../src/proxy/check-cache.ts';

const operations = join(import.meta.dirname, '..', '..', 'operations', 'current');
const paymentOperation = join(operations, 'process-payment-request.graphql');
const feesOperation = join(operations, 'payment-gateway-fees-calc.graphql');

const graphql = (body: string, date = 'Wed, 25 Nov 2026 12:00:00 GMT'): Exchange => ({
  request: { method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json' }, body },
  response: { status: 200, headers: { 'content-type': 'application/json', date }, body: '{"data":{}}' },
});
const token: Exchange = {
  request: { method: 'POST', url: '/api/v2/accounting/token/generate-token', headers: {} },
  response: { status: 200, headers: {}, body: '{}' },
};

describe('cachedCheck', () => {
  it('checks an exchange once however often it repeats (the Date header aside), and every new one', () => {
    let calls = 0;
    const check = cachedCheck(() => ({ drifts: [], operationName: `call ${++calls}` }));
    expect(check(graphql('{"query":"a"}')).operationName).toBe('call 1');
    expect(check(graphql('{"query":"a"}', 'Wed, 25 Nov 2026 12:00:01 GMT')).operationName).toBe('call 1');
    expect(check(graphql('{"query":"b"}')).operationName).toBe('call 2');
    expect(check({ ...graphql('{"query":"a"}'), response: undefined }).operationName).toBe('call 3');
  });

  it('never caches the token endpoints, whose check reads the answer time', () => {
    let calls = 0;
    const check = cachedCheck(() => ({ drifts: [], operationName: `call ${++calls}` }));
    check(token);
    expect(check(token).operationName).toBe('call 2');
  });

  it('checks every GraphQL mutation afresh: a payment answer never repeats, so its key is never built', () => {
    let calls = 0;
    const check = cachedCheck(() => ({ drifts: [], operationName: `call ${++calls}` }));
    const payment = graphql(JSON.stringify({ query: 'mutation Pay($input: In!) { pay(input: $input) { id } }' }));
    check(payment);
    expect(check(payment).operationName).toBe('call 2');
    // The kit's own operation files open with a comment line.
    const commented = graphql(JSON.stringify({ query: readFileSync(paymentOperation, 'utf8') }));
    check(commented);
    expect(check(commented).operationName).toBe('call 4');
    // A query beside it is still checked once.
    const fees = graphql(JSON.stringify({ query: readFileSync(feesOperation, 'utf8'), variables: { amount: 1 } }));
    check(fees);
    expect(check(fees).operationName).toBe('call 5');
  });
});

describe('isMutationRequest', () => {
  it.each([
    ['{"query":"mutation { a }"}', true],
    ['{"query" : "  ,mutation{ a }"}', true],
    ['{"query":"\\n\\t# one\\n# two, with mutation in it\\nmutation P { a }"}', true],
    ['{"variables":{},"query":"mutation P { a }"}', true],
    ['{"query":"query P { a }"}', false],
    ['{"query":"{ a }"}', false],
    ['{"query":"mutationX { a }"}', false],
    ['{"query":"# only a comment mutation"}', false],
    ['{"query":"', false],
    ['{"operationName":"mutation"}', false],
    ['not json at all', false],
  ])('%s -> %s', (body, expected) => {
    expect(isMutationRequest(body)).toBe(expected);
  });

  it('reads a long hostile body in linear time', () => {
    const body = `{"query":"${'# #\\t'.repeat(200_000)}"}`;
    const started = performance.now();
    expect(isMutationRequest(body)).toBe(false);
    expect(isMutationRequest(`{"query":"${' ,'.repeat(500_000)}mutation{a}"}`)).toBe(true);
    // Generous for a loaded machine; a quadratic scan of these 1 MB bodies would take minutes.
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
