// The client against the real mock over HTTP (port 0): full flows in both guides, the token lifecycle driven by the
// mock's virtual clock and seen in its journal, and every error class made from a real answer of the mock.
import { parse, print } from 'graphql';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../src/assumptions.ts';
import {
  createMemoryTokenStore,
  createPaymentClient,
  isAuthenticationError,
  isGraphqlError,
  isInvalidCardError,
  isPaymentClientError,
  isTransportError,
  isValidationError,
  type PaymentClientGuide,
  type PaymentClientOptions,
  type TokenPair,
} from '../../src/client/index.ts';
import { PaymentGatewayFeesCalcDocument, ProcessPaymentRequestDocument } from '../../src/index.ts';
import { type MockServer, servicePaths, startMockServer, testCards } from '../../src/mock/index.ts';
import {
  amount,
  card,
  contact,
  legacyCard,
  legacyContact,
  paymentReference,
  visaFee,
} from '../pact/support/fixtures.ts';

let mock: MockServer;
const ttlMs = defaultAssumptions.tokenTtlSeconds * 1000;

beforeAll(async () => {
  mock = await startMockServer({ port: 0, guide: 'both', log: false });
});
afterAll(() => mock?.close());
beforeEach(() => mock.control.reset());

function clientFor<G extends PaymentClientGuide = 'current'>(
  extra: Partial<PaymentClientOptions<G>> = {},
  server: MockServer = mock,
) {
  return createPaymentClient<G>({
    baseUrl: server.url,
    clientId: 'test-client',
    apiKey: 'test-api-key',
    now: server.control.now,
    ...extra,
  });
}

/** Token endpoint calls in the mock's journal, as `endpoint status`. */
async function tokenCalls(server: MockServer = mock): Promise<string[]> {
  return (await server.control.requests())
    .filter((r) => r.path.startsWith('/api/v2/accounting/token/'))
    .map((r) => `${r.path.slice(r.path.lastIndexOf('/') + 1)} ${r.status}`);
}

const graphqlCalls = async () => (await mock.control.requests()).filter((r) => r.path === servicePaths.graphql).length;

/** Catches what `work` throws, failing when it resolves. */
async function thrown(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
}

async function revokeRaw(headers: Record<string, string>) {
  const res = await fetch(mock.url + servicePaths.revokeToken, {
    method: 'POST',
    headers: { 'x-client-id': 'test-client', 'x-api-key': 'test-api-key', ...headers },
  });
  expect(res.status).toBe(200);
}

describe('full flows', () => {
  it('current guide: fees, card fee, payment by card account, close revokes the token', async () => {
    const client = clientFor();
    const fees = await client.feesFor(amount);
    expect(fees.map((f) => f.card_type)).toEqual(defaultAssumptions.feeTable.map((r) => r.card_type));
    expect(fees[0]).toEqual({ amount, fees: visaFee, total_settlement_amount: amount + visaFee, card_type: 'visa' });
    const priced = await client.cardFee({ amount, credit_card: card, contact });
    expect(priced).toMatchObject({ fees: visaFee, card_type: 'visa' });
    const payment = await client.processPayment({
      amount,
      fees: priced.fees,
      credit_card: { card_account_uid: priced.card_account_uid },
      contact,
      payment_reference: paymentReference,
    });
    expect(payment.status.name).toBe(defaultAssumptions.statusNames.processing);
    expect((await mock.control.payments()).map((p) => p.uuid)).toEqual([payment.uuid]);
    const token = await client.accessToken();
    await client.close();
    expect(await tokenCalls()).toEqual(['generate-token 200', 'revoke-token 200']);
    expect((await mock.control.requests()).every((r) => r.path !== servicePaths.graphql || r.guide === 'current')).toBe(
      true,
    );
    // The revoked token is refused now, and the closed client refuses further calls.
    const after = await fetch(mock.url + servicePaths.graphql, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-jwt-token': token },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect((await after.json()).errors[0].extensions.reason).toBe(defaultAssumptions.reasonCodes.revokedToken);
    await expect(client.feesFor(1)).rejects.toThrow(/\[payment-contract-kit\] This payment client was closed/);
  });

  it('legacy guide: the legacy documents and types through the same client', async () => {
    const client = clientFor<'legacy'>({ guide: 'legacy' });
    expect(client.guide).toBe('legacy');
    const fees = await client.feesFor(amount);
    expect(fees[0]).toEqual({
      amount,
      fees: visaFee,
      total: amount + visaFee,
      card_type: 'visa',
      card_location: 'domestic',
    });
    const priced = await client.cardFee({ amount, credit_card: legacyCard, contact: legacyContact });
    const payment = await client.processPayment({
      amount,
      fees: priced.fees,
      credit_card: { card_account_uid: priced.card_account_uid },
      contact: legacyContact,
    });
    expect(payment.status.name).toBe(defaultAssumptions.statusNames.processing);
    const answered = (await mock.control.requests()).filter((r) => r.path === servicePaths.graphql);
    expect(answered.map((r) => [r.operationName, r.guide])).toEqual([
      ['PaymentGatewayFeesCalc', 'legacy'],
      ['PaymentCreditCardFeeCalc', 'legacy'],
      ['ProcessPaymentRequest', 'legacy'],
    ]);
    await client.close();
  });

  it('execute: any typed document of the kit, and own documents with their source or a printer', async () => {
    const client = clientFor();
    const { paymentGatewayFeesCalc } = await client.execute(PaymentGatewayFeesCalcDocument, { amount: 10 });
    expect(paymentGatewayFeesCalc[0]?.amount).toBe(10);
    const withSource = parse('query Visa($amount: Float!) { paymentGatewayFeesCalc(amount: $amount) { card_type } }');
    expect(await client.execute(withSource, { amount: 1 })).toHaveProperty('paymentGatewayFeesCalc');
    const bare = parse('query Bare { paymentGatewayFeesCalc(amount: 2) { fees } }', { noLocation: true });
    await expect(client.execute(bare, {})).rejects.toThrow(/\[payment-contract-kit\] execute: Bare .*printDocument/);
    const printing = clientFor({ printDocument: print });
    expect(await printing.execute(bare, {})).toHaveProperty('paymentGatewayFeesCalc');
  });
});

describe('token lifecycle on the mock clock', () => {
  it('generates once and refreshes ahead of expiry, before the service would refuse the token', async () => {
    const client = clientFor({ refreshSkewMs: 30_000 });
    await client.feesFor(1);
    mock.control.advanceClock(ttlMs - 60_000); // outside the skew: the token is still used
    await client.feesFor(1);
    expect(await tokenCalls()).toEqual(['generate-token 200']);
    mock.control.advanceClock(40_000); // 20 s before expiry, inside the skew
    await client.feesFor(1);
    mock.control.advanceClock(ttlMs - 60_000);
    await client.feesFor(1);
    expect(await tokenCalls()).toEqual(['generate-token 200', 'refresh-token 200']);
    // No call was answered with an error and retried: four operations, four /graphql requests.
    expect(await graphqlCalls()).toBe(4);
  });

  it('50 concurrent calls across an expiry: exactly one refresh and no failed call', async () => {
    const client = clientFor();
    await client.feesFor(1);
    mock.control.advanceClock(ttlMs + 1000);
    const results = await Promise.allSettled(Array.from({ length: 50 }, (_, i) => client.feesFor(i + 1)));
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(await tokenCalls()).toEqual(['generate-token 200', 'refresh-token 200']);
    expect(await graphqlCalls()).toBe(51);
  });

  it('50 concurrent calls with a client clock behind the service: one refresh after TOKEN_EXPIRED, each call retried once', async () => {
    // The client's clock says the token is fresh; the service says it expired. Recovery is single-flight too.
    const client = clientFor({ now: () => mock.control.now() - 2 * ttlMs });
    await client.feesFor(1);
    mock.control.advanceClock(ttlMs + 1000);
    const results = await Promise.allSettled(Array.from({ length: 50 }, (_, i) => client.feesFor(i + 1)));
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(await tokenCalls()).toEqual(['generate-token 200', 'refresh-token 200']);
    expect(await graphqlCalls()).toBe(1 + 50 + 50);
  });

  it('recovers from a revoked token by refresh', async () => {
    const client = clientFor();
    await revokeRaw({ 'x-jwt-token': await client.accessToken() });
    await expect(client.feesFor(1)).resolves.toHaveLength(4);
    expect(await tokenCalls()).toEqual(['generate-token 200', 'revoke-token 200', 'refresh-token 200']);
  });

  it('recovers from revoke-all: the refresh token is refused, so it generates once more (ledger: clientRefusedRefresh)', async () => {
    const client = clientFor();
    await client.feesFor(1);
    await revokeRaw({});
    await expect(client.feesFor(1)).resolves.toHaveLength(4);
    expect(await tokenCalls()).toEqual([
      'generate-token 200',
      'revoke-token 200',
      'refresh-token 401',
      'generate-token 200',
    ]);
  });

  it("a refused refresh token with refusedRefresh: 'fail' is an authentication error and no second generate", async () => {
    const client = clientFor({ refusedRefresh: 'fail' });
    await client.feesFor(1);
    await revokeRaw({});
    const error = await thrown(client.feesFor(1));
    expect(isAuthenticationError(error) && error.status).toBe(401);
    expect(isAuthenticationError(error) && error.reason).toBeUndefined();
    expect(String((error as Error).message)).toMatch(/^\[payment-contract-kit\] refresh-token: authentication failed/);
    expect(await tokenCalls()).toEqual(['generate-token 200', 'revoke-token 200', 'refresh-token 401']);
  });

  it('a refused refresh token on a mock that refuses a second generate-token: the 401 reaches the caller', async () => {
    const strict = await startMockServer({ port: 0, strictGenerate: true, log: false });
    try {
      const client = clientFor({}, strict);
      await client.feesFor(1);
      strict.control.advanceClock(ttlMs);
      // Another party used up the refresh token: revoke-all forgets every refresh token of the client.
      await fetch(strict.url + servicePaths.revokeToken, {
        method: 'POST',
        headers: { 'x-client-id': 'test-client', 'x-api-key': 'test-api-key' },
      });
      const error = await thrown(client.feesFor(1));
      expect(isAuthenticationError(error)).toBe(true);
      expect((error as Error).message).toMatch(/generate-token: authentication failed .*already called/);
      expect(await tokenCalls(strict)).toEqual([
        'generate-token 200',
        'revoke-token 200',
        'refresh-token 401',
        'generate-token 401',
      ]);
    } finally {
      await strict.close();
    }
  });

  it('uses a stored pair without calling generate-token, through an asynchronous store', async () => {
    const saved: TokenPair[] = [];
    let pair: TokenPair | undefined = mock.control.issueToken('test-client');
    const store = {
      get: async () => pair,
      set: async (next: TokenPair) => {
        pair = next;
        saved.push(next);
      },
      clear: async () => {
        pair = undefined;
      },
    };
    const client = clientFor({ tokenStore: store });
    await client.feesFor(1);
    mock.control.advanceClock(ttlMs);
    await client.feesFor(1);
    expect(await tokenCalls()).toEqual(['refresh-token 200']);
    expect(saved).toHaveLength(1);
    await client.close();
    expect(pair).toBeUndefined();
  });
});

describe('errors from real answers of the mock', () => {
  const input = (overrides: Partial<Record<keyof typeof card, string>>) => ({
    amount,
    fees: visaFee,
    credit_card: { ...card, ...overrides },
    contact,
    payment_reference: paymentReference,
  });

  it('ValidationError: the 7.3 paths and messages in fields, the raw answer kept', async () => {
    const error = await thrown(clientFor().processPayment(input({ expiry_year: '20' })));
    expect(isValidationError(error)).toBe(true);
    expect(isInvalidCardError(error)).toBe(false);
    if (!isValidationError(error)) return;
    expect(error.fields['input.credit_card.expiry_year']?.[0]).toMatch(/in the past/);
    expect(error.message).toMatch(/^\[payment-contract-kit\] ProcessPaymentRequest: the service refused the input/);
    // The service's message ends in a full stop; quoted inside the kit's sentence it must not read "expired.. Fix".
    expect(error.message).toContain('the card has expired. Fix the values at these paths');
    expect(error.message).not.toMatch(/[^.]\.\.(?!\.)/);
    expect(error.response?.status).toBe(defaultAssumptions.graphqlErrorHttpStatus);
    expect(error.errors[0]?.extensions?.category).toBe('validation');
    expect(error.response?.body).toHaveProperty('errors');
  });

  it('InvalidCardError: the test card the service refuses before processing, in both guides', async () => {
    const rejected = testCards.visaRejectedAsInvalid.number;
    const error = await thrown(clientFor().processPayment(input({ card_number: rejected })));
    expect(isInvalidCardError(error) && isValidationError(error)).toBe(true);
    if (!isInvalidCardError(error)) return;
    expect(error.cardPath).toBe('input.credit_card.card_number');
    expect(error.cardMessages[0]).toMatch(/rejected as invalid/);
    expect(error.message).not.toContain(rejected);
    const legacy = await thrown(
      clientFor<'legacy'>({ guide: 'legacy' }).processPayment({
        amount,
        fees: visaFee,
        credit_card: { ...legacyCard, number: rejected },
        contact: legacyContact,
      }),
    );
    expect(isInvalidCardError(legacy) && legacy.cardPath).toBe('input.credit_card.number');
    expect(await mock.control.payments()).toEqual([]);
  });

  it('AuthenticationError from generate-token (7.1 401) and from /graphql with its reason code (7.2)', async () => {
    const rest = await thrown(clientFor({ apiKey: 'wrong-api-key' }).feesFor(1));
    expect(isAuthenticationError(rest)).toBe(true);
    if (!isAuthenticationError(rest)) return;
    expect([rest.status, rest.reason]).toEqual([401, undefined]);
    expect(rest.response?.body).toMatchObject({ status: 'ERROR' });
    // A token the mock never signed: not recoverable, so the reason reaches the caller.
    const garbage = { token: 'not-a-token', refresh_token: 'rt_unknown', expiration: 4_102_444_800 };
    const gql = await thrown(clientFor({ tokenStore: createMemoryTokenStore(garbage) }).feesFor(1));
    expect(isAuthenticationError(gql) && gql.reason).toBe(defaultAssumptions.reasonCodes.invalidToken);
    expect(await tokenCalls()).toEqual(['generate-token 401']);
  });

  it('GraphqlError: a variable of the wrong type, with the reason code', async () => {
    const error = await thrown(
      clientFor().execute(ProcessPaymentRequestDocument, { input: { amount: 'ten' } } as never),
    );
    expect(isGraphqlError(error) && error.reason).toBe(defaultAssumptions.reasonCodes.graphqlValidationFailed);
  });

  it('TransportError: a 500 of a token endpoint and a network failure, with status and body', async () => {
    mock.control.failNextRequest(servicePaths.generateToken, 500, { message: 'Internal server error.' });
    const error = await thrown(clientFor().feesFor(1));
    expect(isTransportError(error)).toBe(true);
    if (!isTransportError(error)) return;
    expect(error.status).toBe(500);
    expect(error.body).toEqual({ status: 'ERROR', message: 'Internal server error.' });
    const offline = await thrown(clientFor({ fetch: () => Promise.reject(new TypeError('fetch failed')) }).feesFor(1));
    expect(isTransportError(offline) && offline.status).toBeUndefined();
    expect(isPaymentClientError(offline)).toBe(true);
    expect(isPaymentClientError(new Error('x'))).toBe(false);
  });

  it('refuses bad options with a clear message', () => {
    expect(() => createPaymentClient({ baseUrl: 'ftp://x', clientId: 'c', apiKey: 'k' })).toThrow(
      /\[payment-contract-kit\] createPaymentClient: baseUrl must be an http\(s\) URL/,
    );
    expect(() => createPaymentClient({ baseUrl: 'http://x', clientId: '', apiKey: 'k' })).toThrow(/clientId/);
  });
});
