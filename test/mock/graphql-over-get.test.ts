/**
 * GraphQL over GET (GraphQL over HTTP): queries answer as over POST, mutations answer 405 with `Allow: POST`, and
 * urql's default client (which sends queries as GET) works against a real mock.
 */
import { readFileSync } from 'node:fs';
import { Client, fetchExchange, gql } from '@urql/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockApp, type MockApp, servicePaths, startMockServer } from '../../src/mock/index.ts';

const feesQuery = readFileSync(
  new URL('../../operations/current/payment-gateway-fees-calc.graphql', import.meta.url),
  'utf8',
);
const base = 'http://127.0.0.1:4010';

const apps: MockApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

function mockApp(): { app: MockApp; headers: Record<string, string> } {
  const app = createMockApp({ log: false, realNow: () => Date.UTC(2026, 0, 1) });
  apps.push(app);
  return { app, headers: { 'x-jwt-token': app.control.issueToken('test-client').token } };
}

function getUrl(params: Record<string, string>): string {
  return `${base}${servicePaths.graphql}?${new URLSearchParams(params)}`;
}

describe('GET /graphql', () => {
  it('answers a query exactly as POST does, and journals it as GET', async () => {
    const { app, headers } = mockApp();
    const variables = JSON.stringify({ amount: 100 });
    const viaGet = await app.fetch(
      new Request(getUrl({ query: feesQuery, variables, operationName: 'PaymentGatewayFeesCalc' }), { headers }),
    );
    const viaPost = await app.fetch(
      new Request(`${base}${servicePaths.graphql}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ query: feesQuery, variables: { amount: 100 } }),
      }),
    );
    expect(viaGet.status).toBe(200);
    const body = await viaGet.json();
    expect(body.data.paymentGatewayFeesCalc.length).toBeGreaterThan(0);
    expect(body).toEqual(await viaPost.json());
    expect((await app.control.requests())[0]).toMatchObject({ method: 'GET', operationName: 'PaymentGatewayFeesCalc' });
  });

  it('refuses a mutation with 405, Allow: POST and a 7.2 error, and runs nothing', async () => {
    const { app, headers } = mockApp();
    const mutation = 'mutation { processPaymentRequest(input: { amount: 1, fees: 0.32 }) { uuid } }';
    const res = await app.fetch(new Request(getUrl({ query: mutation }), { headers }));
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(await res.json()).toEqual({
      errors: [
        {
          message: expect.stringMatching(/^\[payment-contract-kit\] A mutation cannot be sent with GET.*POST/),
          extensions: { reason: expect.any(String) },
        },
      ],
    });
    expect(await app.control.payments()).toEqual([]);
  });

  it.each([
    [{}, /needs the operation in the query string/],
    [{ query: '{ __typename }', variables: '{not json' }, /"variables" in the query string is not valid JSON/],
    [{ query: '{ __typename }', variables: '[1]' }, /"variables" in the query string must be a JSON object/],
    [{ query: '{ __typename }', extensions: '"x"' }, /"extensions" in the query string must be a JSON object/],
  ])('answers a bad query string %j with a 400 in the 7.2 shape', async (params, message) => {
    const { app, headers } = mockApp();
    const res = await app.fetch(new Request(getUrl(params as Record<string, string>), { headers }));
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.errors[0].message).toMatch(message);
    expect(body.errors[0].extensions.reason).toBeTypeOf('string');
  });

  it('still needs the token', async () => {
    const { app } = mockApp();
    const res = await app.fetch(new Request(getUrl({ query: '{ __typename }' })));
    expect((await res.json()).errors[0].extensions.reason).toBeTypeOf('string');
  });
});

describe("urql's default client against a real mock", () => {
  it('sends the fee query as GET and gets its data', async () => {
    const mock = await startMockServer({ port: 0, log: false });
    try {
      const { token } = mock.control.issueToken('test-client');
      const client = new Client({
        url: `${mock.url}${servicePaths.graphql}`,
        exchanges: [fetchExchange],
        fetchOptions: { headers: { 'x-jwt-token': token } },
      });
      const result = await client.query(gql(feesQuery), { amount: 100 }).toPromise();
      expect(result.error).toBeUndefined();
      expect(result.data.paymentGatewayFeesCalc[0]).toMatchObject({ amount: 100 });
      expect(await mock.control.requests()).toEqual([
        expect.objectContaining({ method: 'GET', path: servicePaths.graphql, status: 200 }),
      ]);
    } finally {
      await mock.close();
    }
  });
});
