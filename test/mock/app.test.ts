/**
 * The mock's routes in process, through `app.fetch(Request)`: no socket, the same core as the `node:http` listener.
 * One group per route family (tokens, GraphQL, control API, HTTP errors); the socket tests stay in server.test.ts.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMockApp, type MockApp, servicePaths, startMockServer } from '../../src/mock/index.ts';
import { testCardNumbers } from '../../src/test-values.ts';
import { credentials } from './helpers.ts';

const base = 'http://mock.test';
const feesQuery = readFileSync(
  new URL('../../operations/current/payment-gateway-fees-calc.graphql', import.meta.url),
  'utf8',
);

let app: MockApp;
let logged: string;

beforeEach(() => {
  logged = '';
  // A fixed real clock: virtual time then moves only when a test advances it.
  app = createMockApp({ log: (chunk) => (logged += chunk), maxBodyBytes: 4096, realNow: () => Date.UTC(2026, 0, 1) });
});
afterEach(async () => {
  await app.close();
});

/** Calls the app in process and parses its JSON answer. */
async function call(method: string, path: string, headers: Record<string, string> = {}, body?: unknown) {
  const init: RequestInit = { method, headers };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  const res = await app.fetch(new Request(`${base}${path}`, init));
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  return { status: res.status, headers: res.headers, body: await res.json() };
}

const restError = (message: RegExp) => ({ status: 'ERROR', message: expect.stringMatching(message) });

describe('tokens in process', () => {
  it('generate-token answers a token pair for the configured client', async () => {
    const r = await call('POST', servicePaths.generateToken, credentials);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      status: 'SUCCESS',
      data: { token: expect.any(String), expiration: expect.any(Number) },
    });
  });

  it('refresh-token exchanges the refresh token once', async () => {
    const pair = (await call('POST', servicePaths.generateToken, credentials)).body.data;
    const first = await call('POST', servicePaths.refreshToken, credentials, { refresh_token: pair.refresh_token });
    expect(first.status).toBe(200);
    expect(first.body.data.token).not.toBe(pair.token);
    const again = await call('POST', servicePaths.refreshToken, credentials, { refresh_token: pair.refresh_token });
    expect(again.status).toBe(401);
  });

  it.each([
    ['no client id', { 'x-api-key': 'test-api-key' }, 401, /Missing header x-client-id/],
    ['a wrong API key', { ...credentials, 'x-api-key': 'nope' }, 401, /\[payment-contract-kit\]/],
  ])('401 in the 7.1 shape with %s', async (_name, headers, status, message) => {
    const r = await call('POST', servicePaths.generateToken, headers);
    expect(r.status).toBe(status);
    expect(r.body).toEqual(restError(message));
  });

  it.each([
    ['no body', undefined, 400, /refresh-token needs a JSON body/],
    ['malformed JSON', '{"refresh_token":', 400, /not valid JSON/],
    ['a body over maxBodyBytes', { refresh_token: 'x'.repeat(5000) }, 413, /larger than the mock's limit of 4096/],
  ])('refresh-token with %s answers its status in the 7.1 shape', async (_name, body, status, message) => {
    const r = await call('POST', servicePaths.refreshToken, credentials, body);
    expect(r.status).toBe(status);
    expect(r.body).toEqual(restError(message));
  });

  it('revoke-token answers the ledger body and the token stops working', async () => {
    const { token } = app.control.issueToken('test-client');
    const r = await call('POST', servicePaths.revokeToken, { ...credentials, 'x-jwt-token': token });
    expect(r).toMatchObject({ status: 200, body: app.control.assumptions.revokeTokenBody });
    const q = await call(
      'POST',
      servicePaths.graphql,
      { 'x-jwt-token': token },
      { query: feesQuery, variables: { amount: 1 } },
    );
    expect(q.body.errors[0].extensions.reason).toBe(app.control.assumptions.reasonCodes.revokedToken);
  });
});

describe('GraphQL in process', () => {
  it("journals a payment's card_account_uid whole, even one with a card-like digit run, and masks a card number", async () => {
    // With this seed the uid the mock hands out for the visa test card holds 13 digits in a row across a dash
    // (`...-ad45-92583724607a`): masked as a card number, it would no longer match the uid the client holds.
    const seeded = createMockApp({ log: false, seed: 'uid-digits-8', realNow: () => Date.UTC(2026, 0, 1) });
    try {
      const uid = seeded.control.registerCardAccount('test-client', {
        card_number: testCardNumbers.visaSuccess,
        expiry_month: '12',
        expiry_year: '39',
      });
      expect(uid).toBe('9f2a72a2-44bb-4c54-ad45-92583724607a');
      const { token } = seeded.control.issueToken('test-client');
      const input = {
        amount: 100,
        fees: 1.8,
        credit_card: { card_account_uid: uid },
        contact: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
        payment_reference: { description: `card ${testCardNumbers.visaSuccess}`, reference_no: 'R-1' },
      };
      const query =
        'mutation Pay($input: ProcessPaymentRequestInput!) { processPaymentRequest(input: $input) { uuid } }';
      const res = await seeded.fetch(
        new Request(`${base}${servicePaths.graphql}`, {
          method: 'POST',
          headers: { 'x-jwt-token': token, 'content-type': 'application/json' },
          body: JSON.stringify({ query, variables: { input } }),
        }),
      );
      expect(res.status).toBe(200);
      expect((await seeded.control.requests()).at(-1)?.summary).toMatchObject({
        input: {
          credit_card: { card_account_uid: uid },
          payment_reference: { description: 'card 411111******1111' },
        },
      });
    } finally {
      await seeded.close();
    }
  });

  it('answers the fee list and journals the operation with its client', async () => {
    const { token } = app.control.issueToken('test-client');
    const r = await call(
      'POST',
      servicePaths.graphql,
      { 'x-jwt-token': token },
      { query: feesQuery, variables: { amount: 100 } },
    );
    expect(r.status).toBe(200);
    expect(r.body.data.paymentGatewayFeesCalc.length).toBeGreaterThan(0);
    expect(r.body.data.paymentGatewayFeesCalc[0]).toEqual({
      amount: expect.any(Number),
      fees: expect.any(Number),
      total_settlement_amount: expect.any(Number),
      card_type: expect.any(String),
    });
    expect((await app.control.requests()).at(-1)).toMatchObject({
      path: servicePaths.graphql,
      operationName: 'PaymentGatewayFeesCalc',
      clientId: 'test-client',
      status: 200,
    });
  });

  it('no token: the 7.2 error with its reason, at the ledger status', async () => {
    const r = await call('POST', servicePaths.graphql, {}, { query: feesQuery });
    expect(r.status).toBe(app.control.assumptions.graphqlErrorHttpStatus);
    expect(r.body.errors[0].extensions.reason).toBe(app.control.assumptions.reasonCodes.missingToken);
  });

  it.each([
    ['an array body', [], 400, /needs a JSON object body/],
    ['malformed JSON', '{', 400, /not valid JSON/],
    ['a body over maxBodyBytes', { query: 'x'.repeat(5000) }, 413, /larger than the mock's limit/],
  ])('%s answers its status in the 7.2 shape', async (_name, body, status, message) => {
    const { token } = app.control.issueToken('test-client');
    const r = await call('POST', servicePaths.graphql, { 'x-jwt-token': token }, body);
    expect(r.status).toBe(status);
    expect(r.body).toEqual({
      errors: [
        {
          message: expect.stringMatching(message),
          extensions: { reason: app.control.assumptions.reasonCodes.badRequest },
        },
      ],
    });
  });
});

describe('control API in process', () => {
  it('health, clock and reset', async () => {
    expect((await call('GET', '/__pck/health')).body).toMatchObject({ ok: true, guide: app.options.guide });
    const before = app.control.now();
    expect((await call('POST', '/__pck/clock/advance', {}, { ms: 1000 })).body.now).toBe(before + 1000);
    expect((await call('POST', '/__pck/reset')).body).toEqual({ ok: true });
  });

  it('fail-next makes the next service request fail with the spec body, once', async () => {
    expect((await call('POST', '/__pck/fail-next', {}, { path: servicePaths.generateToken, status: 503 })).status).toBe(
      200,
    );
    const failed = await call('POST', servicePaths.generateToken, credentials);
    expect(failed).toMatchObject({ status: 503, body: restError(/Injected failure/) });
    expect((await call('POST', servicePaths.generateToken, credentials)).status).toBe(200);
  });

  it.each([
    ['an unknown delivery', '/__pck/deliveries/redeliver', { id: 'nope' }, 404, /No webhook delivery with id/],
    ['an unknown payment', '/__pck/payments/settle', { uuid: 'nope' }, 404, /No payment with uuid/],
    [
      'a card that fails the Luhn check',
      '/__pck/card-accounts',
      { clientId: 'test-client', card: { card_number: '4111111111111112', expiry_month: '12', expiry_year: '99' } },
      400,
      /card_number is not a valid card number \(checksum failed\)/,
    ],
    ['a non-object body', '/__pck/tokens', '[1]', 400, /needs a JSON object body/],
  ])('%s answers its status in the 7.1 shape', async (_name, path, body, status, message) => {
    const r = await call('POST', path, {}, body);
    expect(r.status).toBe(status);
    expect(r.body).toEqual(restError(message));
  });

  it('control calls are not journaled', async () => {
    await call('GET', '/__pck/health');
    expect(await app.control.requests()).toEqual([]);
  });
});

describe('HTTP errors in process', () => {
  it('an unknown path is a 404 in the 7.1 shape, with card-like digits masked in the answer and the log', async () => {
    const r = await call('GET', '/cards/4111111111111111');
    expect(r.status).toBe(404);
    expect(r.body).toEqual(restError(/No such path: \/cards\/411111\*+1111\. The mock serves/));
    app.flushLog();
    expect(logged).not.toContain(testCardNumbers.visaSuccess);
  });

  it('a wrong method is a 405 with Allow, in the shape of the route', async () => {
    // GET serves queries (GraphQL over HTTP); other methods answer 405.
    const gql = await call('DELETE', servicePaths.graphql);
    expect(gql.status).toBe(405);
    expect(gql.headers.get('allow')).toBe('POST, GET');
    expect(gql.body.errors[0].message).toMatch(/DELETE is not allowed on \/graphql: use POST, GET/);
    const rest = await call('PUT', servicePaths.generateToken, credentials);
    expect(rest).toMatchObject({ status: 405, body: restError(/PUT is not allowed/) });
  });

  it('answers as the node:http listener does', async () => {
    const server = await startMockServer({ port: 0, log: false });
    try {
      for (const [method, path] of [
        ['GET', '/nowhere'],
        ['GET', servicePaths.graphql],
        ['POST', servicePaths.generateToken],
      ] as const) {
        const overSocket = await fetch(`${server.url}${path}`, { method });
        const inProcess = await app.fetch(new Request(`${base}${path}`, { method }));
        expect(inProcess.status).toBe(overSocket.status);
        expect(await inProcess.text()).toBe(await overSocket.text());
      }
    } finally {
      await server.close();
    }
  });
});
