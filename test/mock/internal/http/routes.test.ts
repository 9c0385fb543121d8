/**
 * The service routes in process (routes.ts through `app.fetch`, no socket): the token endpoints (spec 4.1 to 4.3),
 * token checks on /graphql (spec 5, 8) and GraphQL documents of both guides through graphql-request; and kept
 * /graphql answers by body: a fee list body answered before is answered again without parsing it, with the same
 * bytes, verdict and journal entry; the token is still checked on every request; a changed body, a refusal, the
 * other guide and a reset each get their own answer.
 */
import { createVerifier } from 'fast-jwt';
import { print } from 'graphql';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultAssumptions } from '../../../../src/assumptions.ts';
import * as current from '../../../../src/index.ts';
import * as legacy from '../../../../src/legacy.ts';
import { serviceHeaders, servicePaths } from '../../../../src/spec-names.ts';
import { testCardNumbers } from '../../../../src/test-values.ts';
import { maxKeptBodyBytes } from '../../../support/mock-internals/http.ts';
import { card, contact, credentials, jwtClaims, legacyPayInput, payInput, tokenPaths } from '../../helpers.ts';
import { gqlError, inProcessSuite, startInProcess } from '../in-process.ts';

const reasons = defaultAssumptions.reasonCodes;
const { mock, url } = inProcessSuite();
const generate = async (headers: Record<string, string> = credentials) => mock.post(url(tokenPaths.generate), headers);
const tokenOf = async (clientId = 'test-client') => mock.control.issueToken(clientId).token;

describe('generate-token', () => {
  it('answers a token pair with a real HS256 JWT that expires after the TTL', async () => {
    const { status, body, headers } = await generate();
    expect(status).toBe(200);
    expect(headers.get('content-type')).toContain('application/json');
    expect(body).toEqual({
      status: 'SUCCESS',
      data: { token: expect.any(String), refresh_token: expect.any(String), expiration: expect.any(Number) },
    });
    expect(Number.isInteger(body.data.expiration)).toBe(true);
    const now = Math.floor(mock.control.now() / 1000);
    expect(body.data.expiration - now).toBeGreaterThanOrEqual(defaultAssumptions.tokenTtlSeconds - 1);
    expect(body.data.expiration - now).toBeLessThanOrEqual(defaultAssumptions.tokenTtlSeconds);
    const claims = jwtClaims(body.data.token);
    expect(claims).toMatchObject({ sub: 'test-client', exp: body.data.expiration });
    // Signed by the mock: a verifier with another key refuses it.
    expect(() => createVerifier({ key: 'wrong-key', ignoreExpiration: true })(body.data.token)).toThrow();
  });

  it.each([
    ['x-client-id', { 'x-api-key': 'test-api-key' }, 'Missing header x-client-id'],
    ['x-api-key', { 'x-client-id': 'test-client' }, 'Missing header x-api-key'],
  ])('401 naming the missing header %s', async (_name, headers, message) => {
    const { status, body } = await generate(headers);
    expect(status).toBe(401);
    expect(body).toEqual({ status: 'ERROR', message: expect.stringContaining(message) });
  });

  it('401 on an unknown client or a wrong API key, naming the header', async () => {
    const unknown = await generate({ 'x-client-id': 'nobody', 'x-api-key': 'x' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.message).toContain('x-client-id');
    const wrong = await generate({ 'x-client-id': 'test-client', 'x-api-key': 'nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toContain('Wrong x-api-key');
  });

  it('reissues on a second call by default (Assumptions.repeatGenerateToken)', async () => {
    const a = await generate();
    const b = await generate();
    expect(b.status).toBe(200);
    expect(b.body.data.token).not.toBe(a.body.data.token);
  });

  it('is deterministic after a reset: tokens differ only by time claims', async () => {
    const a = (await generate()).body.data;
    mock.control.reset();
    const b = (await generate()).body.data;
    expect(b.refresh_token).toBe(a.refresh_token);
    const strip = (t: string) => {
      const { iat: _i, exp: _e, ...rest } = jwtClaims(t);
      return rest;
    };
    expect(strip(b.token)).toEqual(strip(a.token));
  });
});

describe('strict generate (--strict-generate)', () => {
  it('answers 401 on the second generate-token, pointing at refresh-token; issueToken bypasses it', async () => {
    const strict = startInProcess({ strictGenerate: true, log: false });
    try {
      expect((await strict.post(`${strict.url}${tokenPaths.generate}`, credentials)).status).toBe(200);
      const second = await strict.post(`${strict.url}${tokenPaths.generate}`, credentials);
      expect(second.status).toBe(401);
      expect(second.body.message).toContain('use refresh-token');
      expect(strict.control.issueToken('test-client').token).toEqual(expect.any(String));
    } finally {
      await strict.close();
    }
  });
});

describe('refresh-token', () => {
  it('exchanges a refresh token once for a new pair', async () => {
    const first = (await generate()).body.data;
    const refreshed = await mock.post(url(tokenPaths.refresh), credentials, { refresh_token: first.refresh_token });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.data.refresh_token).not.toBe(first.refresh_token);
    const again = await mock.post(url(tokenPaths.refresh), credentials, { refresh_token: first.refresh_token });
    expect(again.status).toBe(401);
    expect(again.body).toEqual({ status: 'ERROR', message: expect.stringContaining('already used') });
  });

  it('401 for an unknown refresh token or one of another client', async () => {
    expect((await mock.post(url(tokenPaths.refresh), credentials, { refresh_token: 'rt_nope' })).status).toBe(401);
    const others = mock.control.issueToken('other-client');
    expect(
      (await mock.post(url(tokenPaths.refresh), credentials, { refresh_token: others.refresh_token })).status,
    ).toBe(401);
  });

  it.each([
    ['no body', undefined, 'needs a JSON body'],
    ['malformed JSON', '{"refresh_token":', 'not valid JSON'],
    ['a wrong type', { refresh_token: 42 }, 'refresh_token is missing or not a string'],
    ['an array', [1], 'refresh_token is missing or not a string'],
  ])('400 with the 7.1 body for %s', async (_name, body, message) => {
    const r = await mock.post(url(tokenPaths.refresh), credentials, body);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ status: 'ERROR', message: expect.stringContaining(message) });
  });

  it('401 before looking at the body when credentials are missing', async () => {
    const r = await mock.post(url(tokenPaths.refresh), {}, { refresh_token: 'x' });
    expect(r.status).toBe(401);
    expect(r.body.message).toContain('x-client-id');
  });
});

describe('revoke-token and GraphQL authentication', () => {
  const feesQuery = (token: string, extra?: Record<string, string>) =>
    mock.gql(token, extra).request(current.PaymentGatewayFeesCalcDocument, { amount: 10 });

  it('accepts a valid token', async () => {
    const data = await feesQuery(await tokenOf());
    expect(data.paymentGatewayFeesCalc).toHaveLength(defaultAssumptions.feeTable.length);
  });

  it.each([
    ['missing', '', reasons.missingToken, 'Missing header x-jwt-token'],
    ['malformed', 'not-a-jwt', reasons.invalidToken, 'not a valid token'],
  ])('refuses a %s token with reason %s', async (_name, token, reason, message) => {
    const response = await gqlError(feesQuery(token));
    expect(response.status).toBe(defaultAssumptions.graphqlErrorHttpStatus);
    expect(response.errors).toEqual([{ message: expect.stringContaining(message), extensions: { reason } }]);
  });

  it('refuses a token with a bad signature', async () => {
    const token = await tokenOf();
    const [h, p] = token.split('.');
    const response = await gqlError(feesQuery(`${h}.${p}.${'A'.repeat(43)}`));
    expect(response.errors?.[0]?.extensions).toEqual({ reason: reasons.invalidToken });
  });

  it('expires a token on the virtual clock, then refresh-token gives a working one', async () => {
    const pair = (await generate()).body.data;
    mock.control.advanceClock(defaultAssumptions.tokenTtlSeconds * 1000);
    const response = await gqlError(feesQuery(pair.token));
    expect(response.errors?.[0]?.extensions).toEqual({ reason: reasons.expiredToken });
    expect(response.errors?.[0]?.message).toContain('refresh-token');
    const refreshed = await mock.post(url(tokenPaths.refresh), credentials, { refresh_token: pair.refresh_token });
    await expect(feesQuery(refreshed.body.data.token)).resolves.toBeDefined();
  });

  it('revokes the token given in x-jwt-token only', async () => {
    const a = await tokenOf();
    const b = await tokenOf();
    const r = await mock.post(url(tokenPaths.revoke), { ...credentials, 'x-jwt-token': a });
    expect(r).toMatchObject({ status: 200, body: defaultAssumptions.revokeTokenBody });
    expect((await gqlError(feesQuery(a))).errors?.[0]?.extensions).toEqual({ reason: reasons.revokedToken });
    await expect(feesQuery(b)).resolves.toBeDefined();
  });

  it('revokes every token of the client without x-jwt-token, and its refresh tokens', async () => {
    const a = mock.control.issueToken('test-client');
    const other = await tokenOf('other-client');
    expect((await mock.post(url(tokenPaths.revoke), credentials)).status).toBe(200);
    expect((await gqlError(feesQuery(a.token))).errors?.[0]?.extensions).toEqual({ reason: reasons.revokedToken });
    expect((await mock.post(url(tokenPaths.refresh), credentials, { refresh_token: a.refresh_token })).status).toBe(
      401,
    );
    await expect(feesQuery(other)).resolves.toBeDefined();
    await expect(feesQuery(await tokenOf())).resolves.toBeDefined();
  });

  // The body says what went: one token, or every token of the client (the ledger's revoke-token body plus `data`).
  it('answers what it revoked: the token sent, or all of the client with its refresh tokens counted', async () => {
    await mock.post(url(tokenPaths.revoke), credentials);
    const pairs = [1, 2, 3].map(() => mock.control.issueToken('test-client'));
    const one = await mock.post(url(tokenPaths.revoke), { ...credentials, 'x-jwt-token': pairs[0]!.token });
    expect(one).toMatchObject({ status: 200 });
    expect(one.body).toEqual({ ...defaultAssumptions.revokeTokenBody, data: { revoked: 'token', refresh_tokens: 0 } });
    // A refresh uses one refresh token and issues another: still three unused ones.
    const refreshed = await mock.post(url(tokenPaths.refresh), credentials, { refresh_token: pairs[0]!.refresh_token });
    expect(refreshed.status).toBe(200);
    const all = await mock.post(url(tokenPaths.revoke), credentials);
    expect(all.body).toEqual({ ...defaultAssumptions.revokeTokenBody, data: { revoked: 'client', refresh_tokens: 3 } });
    expect((await gqlError(feesQuery(refreshed.body.data.token))).errors?.[0]?.extensions).toEqual({
      reason: reasons.revokedToken,
    });
    const again = await mock.post(url(tokenPaths.revoke), credentials);
    expect(again.body.data).toEqual({ revoked: 'client', refresh_tokens: 0 });
  });

  it('401 when revoking a token of another client', async () => {
    const r = await mock.post(url(tokenPaths.revoke), { ...credentials, 'x-jwt-token': await tokenOf('other-client') });
    expect(r.status).toBe(401);
    expect(r.body.message).toContain('x-jwt-token');
  });

  it('refuses a token used with another client id in x-client-id', async () => {
    const response = await gqlError(feesQuery(await tokenOf('other-client'), { 'x-client-id': 'test-client' }));
    expect(response.errors?.[0]?.extensions).toEqual({ reason: reasons.clientMismatch });
  });

  it('refuses a token of a client this instance does not configure', async () => {
    const other = startInProcess({ log: false, clients: [{ clientId: 'elsewhere', apiKey: 'k' }] });
    try {
      const response = await gqlError(feesQuery(other.control.issueToken('elsewhere').token));
      expect(response.errors?.[0]?.extensions).toEqual({ reason: reasons.clientMismatch });
    } finally {
      await other.close();
    }
  });

  it('requires x-client-id and x-api-key on /graphql when graphqlRequiresClientHeaders is set', async () => {
    const strict = startInProcess({ log: false, assumptions: { graphqlRequiresClientHeaders: true } });
    try {
      const token = strict.control.issueToken('test-client').token;
      const client = (h: Record<string, string>) => strict.gql(token, h);
      const response = await gqlError(client({}).request(current.PaymentGatewayFeesCalcDocument, { amount: 1 }));
      expect(response.errors?.[0]?.extensions).toEqual({ reason: reasons.missingClientHeaders });
      await expect(
        client(credentials).request(current.PaymentGatewayFeesCalcDocument, { amount: 1 }),
      ).resolves.toBeDefined();
    } finally {
      await strict.close();
    }
  });
});

describe('GraphQL through graphql-request, both guides', () => {
  it('runs the current documents: fee list, card fee, payment', async () => {
    const client = mock.gql(await tokenOf());
    const fees = await client.request(current.PaymentGatewayFeesCalcDocument, { amount: 100 });
    expect(fees.paymentGatewayFeesCalc[0]).toMatchObject({ amount: 100, card_type: 'visa' });
    const cardFee = await client.request(current.PaymentCreditCardFeeCalcDocument, {
      amount: 100,
      credit_card: card,
      contact,
    });
    expect(cardFee.paymentCreditCardFeeCalc.card_account_uid).toEqual(expect.any(String));
    const paid = await client.request(current.ProcessPaymentRequestDocument, { input: payInput() });
    expect(paid.processPaymentRequest).toMatchObject({
      amount: 100,
      status: { name: defaultAssumptions.statusNames.processing },
    });
    const entry = await mock.control.waitForRequest({ operationName: 'ProcessPaymentRequest' }, { timeoutMs: 1000 });
    expect(entry).toMatchObject({ guide: 'current', status: 200, clientId: 'test-client', path: '/graphql' });
  });

  it('runs the legacy documents', async () => {
    const client = mock.gql(await tokenOf());
    const fees = await client.request(legacy.PaymentGatewayFeesCalcDocument, { amount: 100 });
    expect(fees.paymentGatewayFeesCalc[0]).toMatchObject({ total: expect.any(Number), card_location: 'domestic' });
    const paid = await client.request(legacy.ProcessPaymentRequestDocument, { input: legacyPayInput() });
    expect(paid.processPaymentRequest.uuid).toEqual(expect.any(String));
    expect((await mock.control.requests()).at(-1)).toMatchObject({
      guide: 'legacy',
      operationName: 'ProcessPaymentRequest',
    });
  });

  it('pays with a card_account_uid from the control API', async () => {
    const uid = mock.control.registerCardAccount('test-client', {
      card_number: testCardNumbers.mastercardSuccess,
      expiry_month: '12',
      expiry_year: '39',
    });
    const input = { ...payInput(), credit_card: { card_account_uid: uid } };
    const paid = await mock.gql(await tokenOf()).request(current.ProcessPaymentRequestDocument, { input });
    expect((await mock.control.payments('test-client'))[0]).toMatchObject({
      uuid: paid.processPaymentRequest.uuid,
      card_type: 'mastercard',
    });
  });

  it('answers validation errors in the 7.3 shape', async () => {
    const input = { ...payInput(), credit_card: { ...card, expiry_year: '01' } };
    const response = await gqlError(
      mock.gql(await tokenOf()).request(current.ProcessPaymentRequestDocument, { input }),
    );
    expect(response.errors?.[0]).toMatchObject({
      message: 'Validation failed for the field [processPaymentRequest].',
      extensions: { category: 'validation', validation: { 'input.credit_card.expiry_year': expect.any(Array) } },
    });
  });
});

describe('guides and determinism', () => {
  it('serves only the legacy guide with guide "legacy"', async () => {
    const m = startInProcess({ log: false, guide: 'legacy' });
    try {
      const client = m.gql(m.control.issueToken('test-client').token);
      const fees = await client.request(legacy.PaymentGatewayFeesCalcDocument, { amount: 10 });
      expect(fees.paymentGatewayFeesCalc[0]).toHaveProperty('card_location');
      const response = await gqlError(client.request(current.PaymentGatewayFeesCalcDocument, { amount: 10 }));
      expect(response.errors?.[0]?.message).toEqual(expect.any(String));
    } finally {
      await m.close();
    }
  });

  it('gives the same payment uuids after a reset', async () => {
    const pay = async () => {
      const client = mock.gql(await tokenOf());
      return (await client.request(current.ProcessPaymentRequestDocument, { input: payInput() })).processPaymentRequest;
    };
    const first = await pay();
    mock.control.reset();
    const second = await pay();
    expect(second.uuid).toBe(first.uuid);
    expect(await mock.control.payments()).toHaveLength(1);
  });
});

describe('kept /graphql answers', () => {
  const reasons = defaultAssumptions.reasonCodes;
  const { mock, url } = inProcessSuite();
  const feesBody = (amount: unknown, document = print(current.PaymentGatewayFeesCalcDocument)) =>
    JSON.stringify({ query: document, variables: { amount } });
  const legacyFeesBody = (amount: number) => feesBody(amount, print(legacy.PaymentGatewayFeesCalcDocument));

  /** Posts `body` as it is; answers the status, the body text and how often the mock JSON-parsed that body. */
  async function post(body: string, token: string, app = mock) {
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const res = await app.app.fetch(
        new Request(url(servicePaths.graphql), {
          method: 'POST',
          headers: { 'content-type': 'application/json', [serviceHeaders.jwt]: token },
          body,
        }),
      );
      const parsed = parse.mock.calls.filter(([text]) => text === body).length;
      return { status: res.status, type: res.headers.get('content-type'), text: await res.text(), parsed };
    } finally {
      parse.mockRestore();
    }
  }

  const tokenOf = (app = mock) => app.control.issueToken('test-client').token;

  afterEach(() => vi.restoreAllMocks());

  describe('/graphql: kept answers by body', () => {
    it('answers a repeated fee list body again without parsing it: same bytes, each request journaled', async () => {
      const token = tokenOf();
      const body = feesBody(100);
      const first = await post(body, token);
      expect(first.status).toBe(200);
      expect(first.type).toBe('application/json; charset=utf-8');
      expect(first.text).toMatch(/^\{"data":\{"paymentGatewayFeesCalc":/);
      const second = await post(body, token);
      expect(second).toEqual({ ...first, parsed: 0 });
      const journaled = (await mock.control.requests()).filter((r) => r.path === servicePaths.graphql);
      expect(journaled).toHaveLength(2);
      for (const entry of journaled)
        expect(entry).toMatchObject({
          operationName: 'PaymentGatewayFeesCalc',
          guide: 'current',
          status: 200,
          outcome: 'ok',
          clientId: 'test-client',
          summary: { amount: 100 },
        });
    });

    it('answers a changed body for itself, as a mock that kept nothing answers it', async () => {
      const token = tokenOf();
      await post(feesBody(100), token);
      await post(feesBody(100), token);
      const changed = await post(feesBody(250.5), token);
      expect(changed.parsed).toBe(1);
      const fresh = startInProcess({ guide: 'both' });
      try {
        await fresh.control.warmUp();
        expect((await post(feesBody(250.5), tokenOf(fresh), fresh)).text).toBe(changed.text);
        expect(changed.text).not.toBe((await post(feesBody(100), token)).text);
      } finally {
        await fresh.close();
      }
    });

    it('still checks the token on every request: an expired or revoked token is refused for a kept body', async () => {
      const body = feesBody(100);
      const expiring = tokenOf();
      expect((await post(body, expiring)).status).toBe(200);
      expect((await post(body, expiring)).parsed).toBe(0);
      mock.control.advanceClock(defaultAssumptions.tokenTtlSeconds * 1000);
      const expired = await post(body, expiring);
      expect(JSON.parse(expired.text).errors[0].extensions).toEqual({ reason: reasons.expiredToken });

      const revoked = tokenOf();
      expect((await post(body, revoked)).parsed).toBe(0);
      const answer = await mock.post(url(servicePaths.revokeToken), {
        'x-client-id': 'test-client',
        'x-api-key': 'test-api-key',
        [serviceHeaders.jwt]: revoked,
      });
      expect(answer.status).toBe(200);
      expect(JSON.parse((await post(body, revoked)).text).errors[0].extensions).toEqual({
        reason: reasons.revokedToken,
      });
      expect(JSON.parse((await post(body, 'not-a-token')).text).errors[0].extensions).toEqual({
        reason: reasons.invalidToken,
      });
    });

    it('keeps each guide its own answer: the legacy fee list never gets the current one', async () => {
      const token = tokenOf();
      const currentAnswer = (await post(feesBody(10), token)).text;
      const legacyFirst = await post(legacyFeesBody(10), token);
      expect(legacyFirst.parsed).toBe(1);
      expect(legacyFirst.text).not.toBe(currentAnswer);
      const legacyAgain = await post(legacyFeesBody(10), token);
      expect(legacyAgain).toEqual({ ...legacyFirst, parsed: 0 });
      expect((await post(feesBody(10), token)).text).toBe(currentAnswer);
      const guides = (await mock.control.requests()).map((r) => r.guide);
      expect(guides).toEqual(['current', 'legacy', 'legacy', 'current']);
    });

    it('keeps no refusal, and forgets kept answers on reset', async () => {
      const token = tokenOf();
      const bad = feesBody(-1);
      const refused = await post(bad, token);
      expect(refused.text).toContain('"validation"');
      expect((await post(bad, token)).parsed).toBe(1);

      const body = feesBody(7);
      const first = await post(body, token);
      expect((await post(body, token)).parsed).toBe(0);
      mock.control.reset();
      const afterReset = await post(body, tokenOf());
      expect(afterReset).toEqual({ ...first, parsed: 1 });
    });

    it('keys no body over maxKeptBodyBytes: a long one is parsed on every request', async () => {
      const token = tokenOf();
      const body = feesBody(3).padEnd(maxKeptBodyBytes + 1, ' ');
      const first = await post(body, token);
      expect(first).toMatchObject({ status: 200, parsed: 1 });
      expect(await post(body, token)).toEqual(first);
      const atLimit = feesBody(3).padEnd(maxKeptBodyBytes, ' ');
      expect((await post(atLimit, token)).parsed).toBe(1);
      expect(await post(atLimit, token)).toEqual({ ...first, parsed: 0 });
    });
  });
});
