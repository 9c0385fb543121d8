// The msw handlers pass the HTTP server's behaviour tests with nothing listening: msw's setupServer intercepts plain
// fetch and a real GraphQL client (graphql-request with the generated typed documents), in both guides.
import { GraphQLClient } from 'graphql-request';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../src/assumptions.ts';
import * as current from '../../src/index.ts';
import * as legacy from '../../src/legacy.ts';
import { testCards } from '../../src/mock/index.ts';
import { createMockHandlers, defaultBaseUrl, type MockHandlers } from '../../src/msw/index.ts';
import {
  card,
  contact,
  credentials,
  get,
  gqlError,
  legacyPayInput,
  payInput,
  post,
  tokenPaths,
} from '../mock/helpers.ts';

const reasons = defaultAssumptions.reasonCodes;
const server = setupServer();
// Two mocks on two origins in one msw server: the default base URL in guide "both", another in guide "legacy".
let both: MockHandlers;
let legacyOnly: MockHandlers;
const legacyBase = 'http://legacy-mock.test';
// A still real clock: the virtual clock moves only when a test advances it.
const realNow = () => Date.UTC(2026, 0, 1);

beforeAll(() => {
  both = createMockHandlers({ guide: 'both', log: false, realNow });
  legacyOnly = createMockHandlers({ guide: 'legacy', log: false, realNow, baseUrl: legacyBase });
  // 'error': any request the handlers do not answer fails the test instead of reaching the network.
  server.listen({ onUnhandledRequest: 'error' });
  server.use(...both.handlers, ...legacyOnly.handlers);
});
afterEach(() => {
  both.control.reset();
  legacyOnly.control.reset();
});
afterAll(async () => {
  server.close();
  await both.close();
  await legacyOnly.close();
});

const url = (path: string) => `${defaultBaseUrl}${path}`;
const gql = (token: string, base = defaultBaseUrl) =>
  new GraphQLClient(`${base}/graphql`, { headers: { 'x-jwt-token': token } });
describe('token endpoints through msw (plain fetch)', () => {
  it('generates, refreshes and revokes a token pair', async () => {
    const generated = await post(url(tokenPaths.generate), credentials);
    expect(generated.status).toBe(200);
    expect(generated.body.data).toMatchObject({ token: expect.any(String), refresh_token: expect.any(String) });
    const refreshed = await post(url(tokenPaths.refresh), credentials, {
      refresh_token: generated.body.data.refresh_token,
    });
    expect(refreshed.status).toBe(200);
    const token = refreshed.body.data.token as string;
    await expect(gql(token).request(current.PaymentGatewayFeesCalcDocument, { amount: 10 })).resolves.toBeDefined();
    const revoked = await post(url(tokenPaths.revoke), { ...credentials, 'x-jwt-token': token });
    expect(revoked).toMatchObject({ status: 200, body: defaultAssumptions.revokeTokenBody });
    const response = await gqlError(gql(token).request(current.PaymentGatewayFeesCalcDocument, { amount: 10 }));
    expect(response.errors?.[0]?.extensions).toEqual({ reason: reasons.revokedToken });
  });

  it('answers a wrong API key in the 7.1 shape', async () => {
    const r = await post(url(tokenPaths.generate), { ...credentials, 'x-api-key': 'wrong' });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ status: 'ERROR', message: expect.stringMatching(/^\[payment-contract-kit\] /) });
  });

  it('answers a wrong method and an unknown control path in the 7.1 shape, never 500', async () => {
    const r = await get(url(tokenPaths.generate));
    expect(r).toMatchObject({ status: 405, body: { status: 'ERROR', message: expect.stringContaining('use POST') } });
    const unknown = await get(url('/__pck/nothing'));
    expect(unknown).toMatchObject({ status: 404, body: { status: 'ERROR' } });
    expect((await both.control.requests()).filter((e) => e.status >= 500)).toEqual([]);
  });
});

describe('GraphQL through msw (graphql-request, typed documents)', () => {
  it('current guide: fee list, card fee, payment by card_account_uid', async () => {
    const client = gql(both.control.issueToken('test-client').token);
    const fees = await client.request(current.PaymentGatewayFeesCalcDocument, { amount: 100 });
    expect(fees.paymentGatewayFeesCalc).toHaveLength(defaultAssumptions.feeTable.length);
    expect(fees.paymentGatewayFeesCalc[0]).toMatchObject({ amount: 100, card_type: 'visa' });
    const priced = await client.request(current.PaymentCreditCardFeeCalcDocument, {
      amount: 100,
      credit_card: card,
      contact,
    });
    const { card_account_uid, fees: fee } = priced.paymentCreditCardFeeCalc;
    expect(card_account_uid).toEqual(expect.any(String));
    const input = { ...payInput(), fees: fee, credit_card: { card_account_uid } };
    const paid = await client.request(current.ProcessPaymentRequestDocument, { input });
    expect(paid.processPaymentRequest).toMatchObject({
      amount: 100,
      status: { name: defaultAssumptions.statusNames.processing },
    });
    expect(await both.control.payments()).toEqual([expect.objectContaining({ uuid: paid.processPaymentRequest.uuid })]);
    expect((await both.control.requests()).at(-1)).toMatchObject({
      guide: 'current',
      operationName: 'ProcessPaymentRequest',
    });
  });

  it('guide "both" detects the legacy documents per request', async () => {
    const client = gql(both.control.issueToken('test-client').token);
    const fees = await client.request(legacy.PaymentGatewayFeesCalcDocument, { amount: 100 });
    expect(fees.paymentGatewayFeesCalc[0]).toMatchObject({ total: expect.any(Number), card_location: 'domestic' });
    const paid = await client.request(legacy.ProcessPaymentRequestDocument, { input: legacyPayInput() });
    expect(paid.processPaymentRequest.uuid).toEqual(expect.any(String));
    expect((await both.control.requests()).at(-1)).toMatchObject({
      guide: 'legacy',
      operationName: 'ProcessPaymentRequest',
    });
  });

  it('guide "legacy" on its own origin answers legacy documents and refuses current ones', async () => {
    const client = gql(legacyOnly.control.issueToken('test-client').token, legacyBase);
    const paid = await client.request(legacy.ProcessPaymentRequestDocument, { input: legacyPayInput() });
    expect((await legacyOnly.control.payments()).map((p) => p.uuid)).toEqual([paid.processPaymentRequest.uuid]);
    const response = await gqlError(client.request(current.PaymentGatewayFeesCalcDocument, { amount: 10 }));
    expect(response.errors?.[0]?.message).toEqual(expect.any(String));
    // The two mocks share nothing.
    expect(await both.control.payments()).toEqual([]);
  });

  it('answers 7.2 authentication errors and 7.3 validation errors', async () => {
    const missing = await gqlError(gql('').request(current.PaymentGatewayFeesCalcDocument, { amount: 10 }));
    expect(missing.status).toBe(defaultAssumptions.graphqlErrorHttpStatus);
    expect(missing.errors).toEqual([
      { message: expect.stringContaining('Missing header x-jwt-token'), extensions: { reason: reasons.missingToken } },
    ]);
    const input = { ...payInput(), credit_card: { ...card, expiry_year: '01' } };
    const client = gql(both.control.issueToken('test-client').token);
    const invalid = await gqlError(client.request(current.ProcessPaymentRequestDocument, { input }));
    expect(invalid.errors?.[0]).toMatchObject({
      message: 'Validation failed for the field [processPaymentRequest].',
      extensions: { category: 'validation', validation: { 'input.credit_card.expiry_year': expect.any(Array) } },
    });
  });

  it('answers malformed JSON at /graphql with 400 in the 7.2 shape', async () => {
    const r = await post(url('/graphql'), { 'x-jwt-token': both.control.issueToken('test-client').token }, '{"q":');
    expect(r.status).toBe(400);
    expect(r.body.errors[0].extensions.reason).toBe(reasons.badRequest);
  });
});

describe('control API and handle through msw', () => {
  it('advancing the clock over HTTP expires a token; the handle sees the same state', async () => {
    const pair = (await post(url(tokenPaths.generate), credentials)).body.data;
    const advanced = await post(url('/__pck/clock/advance'), {}, { ms: defaultAssumptions.tokenTtlSeconds * 1000 });
    expect(advanced.body.now).toBe(realNow() + defaultAssumptions.tokenTtlSeconds * 1000);
    const expired = await gqlError(gql(pair.token).request(current.PaymentGatewayFeesCalcDocument, { amount: 10 }));
    expect(expired.errors?.[0]?.extensions).toEqual({ reason: reasons.expiredToken });
    expect((await get(url('/__pck/clock'))).body.now).toBe(both.control.now());
  });

  it('registers a card account, settles a payment and fails the next request (fail-next)', async () => {
    const registered = await post(
      url('/__pck/card-accounts'),
      {},
      {
        clientId: 'test-client',
        card: { card_number: testCards.mastercardSuccess.number, expiry_month: '12', expiry_year: '39' },
      },
    );
    expect(registered.status).toBe(200);
    const uid = registered.body.card_account_uid as string;
    const client = gql(both.control.issueToken('test-client').token);
    const input = { ...payInput(), credit_card: { card_account_uid: uid } };
    const { processPaymentRequest: paid } = await client.request(current.ProcessPaymentRequestDocument, { input });
    const settled = await post(url('/__pck/payments/settle'), {}, { uuid: paid.uuid, outcome: 'failure' });
    expect(settled.status).toBe(200);
    expect((await both.control.payments())[0]).toMatchObject({
      card_type: 'mastercard',
      status: defaultAssumptions.statusNames.failure,
    });
    both.control.failNextRequest(tokenPaths.generate, 503);
    const failed = await post(url(tokenPaths.generate), credentials);
    expect(failed).toMatchObject({ status: 503, body: { status: 'ERROR', message: expect.any(String) } });
  });

  it('leaves other origins and paths to the next handler', async () => {
    server.use(http.get('http://other.test/ping', () => HttpResponse.json({ pong: true })));
    expect((await get('http://other.test/ping')).body).toEqual({ pong: true });
    // A path of the mock's origin that is not a service path is not answered by the mock.
    await expect(fetch(url('/api/v1/nothing'))).rejects.toThrow();
    expect(await both.control.requests()).toEqual([]);
  });

  it('refuses a base URL with a path, naming the origin to give', () => {
    expect(() => createMockHandlers({ baseUrl: 'http://mock.test/api', log: false })).toThrow(
      /^\[payment-contract-kit\] msw option "baseUrl" must be an origin .*Give "http:\/\/mock\.test"/,
    );
    expect(() => createMockHandlers({ baseUrl: 'ftp://mock.test', log: false })).toThrow(/must be an http\(s\) URL/);
  });
});
