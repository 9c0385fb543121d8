import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createVerifier } from 'fast-jwt';
import { GraphQLClient } from 'graphql-request';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../src/assumptions.ts';
import * as current from '../../src/index.ts';
import * as legacy from '../../src/legacy.ts';
import { createMockApp, type MockServer, startMockServer, testCards } from '../../src/mock/index.ts';
import {
  card,
  contact,
  credentials,
  get,
  gqlError,
  jwtClaims,
  legacyPayInput,
  payInput,
  post,
  tokenPaths,
} from './helpers.ts';

const reasons = defaultAssumptions.reasonCodes;
const logged: string[] = [];
let mock: MockServer;

beforeAll(async () => {
  mock = await startMockServer({
    port: 0,
    guide: 'both',
    log: (chunk) => logged.push(chunk),
    clients: [
      { clientId: 'test-client', apiKey: 'test-api-key' },
      { clientId: 'other-client', apiKey: 'other-key' },
    ],
    maxBodyBytes: 64 * 1024,
  });
  await mock.control.warmUp();
});
afterAll(() => mock.close());
afterEach(() => mock.control.reset());

const url = (path: string) => `${mock.url}${path}`;
const generate = async (headers: Record<string, string> = credentials) => post(url(tokenPaths.generate), headers);
const tokenOf = async (clientId = 'test-client') => mock.control.issueToken(clientId).token;
const gql = (token: string, extra: Record<string, string> = {}) =>
  new GraphQLClient(url('/graphql'), { headers: { 'x-jwt-token': token, ...extra } });
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
    const strict = await startMockServer({ port: 0, strictGenerate: true, log: false });
    try {
      expect((await post(`${strict.url}${tokenPaths.generate}`, credentials)).status).toBe(200);
      const second = await post(`${strict.url}${tokenPaths.generate}`, credentials);
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
    const refreshed = await post(url(tokenPaths.refresh), credentials, { refresh_token: first.refresh_token });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.data.refresh_token).not.toBe(first.refresh_token);
    const again = await post(url(tokenPaths.refresh), credentials, { refresh_token: first.refresh_token });
    expect(again.status).toBe(401);
    expect(again.body).toEqual({ status: 'ERROR', message: expect.stringContaining('already used') });
  });

  it('401 for an unknown refresh token or one of another client', async () => {
    expect((await post(url(tokenPaths.refresh), credentials, { refresh_token: 'rt_nope' })).status).toBe(401);
    const others = mock.control.issueToken('other-client');
    expect((await post(url(tokenPaths.refresh), credentials, { refresh_token: others.refresh_token })).status).toBe(
      401,
    );
  });

  it.each([
    ['no body', undefined, 'needs a JSON body'],
    ['malformed JSON', '{"refresh_token":', 'not valid JSON'],
    ['a wrong type', { refresh_token: 42 }, 'refresh_token is missing or not a string'],
    ['an array', [1], 'refresh_token is missing or not a string'],
  ])('400 with the 7.1 body for %s', async (_name, body, message) => {
    const r = await post(url(tokenPaths.refresh), credentials, body);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ status: 'ERROR', message: expect.stringContaining(message) });
  });

  it('401 before looking at the body when credentials are missing', async () => {
    const r = await post(url(tokenPaths.refresh), {}, { refresh_token: 'x' });
    expect(r.status).toBe(401);
    expect(r.body.message).toContain('x-client-id');
  });
});

describe('revoke-token and GraphQL authentication', () => {
  const feesQuery = (token: string, extra?: Record<string, string>) =>
    gql(token, extra).request(current.PaymentGatewayFeesCalcDocument, { amount: 10 });

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
    const refreshed = await post(url(tokenPaths.refresh), credentials, { refresh_token: pair.refresh_token });
    await expect(feesQuery(refreshed.body.data.token)).resolves.toBeDefined();
  });

  it('revokes the token given in x-jwt-token only', async () => {
    const a = await tokenOf();
    const b = await tokenOf();
    const r = await post(url(tokenPaths.revoke), { ...credentials, 'x-jwt-token': a });
    expect(r).toMatchObject({ status: 200, body: defaultAssumptions.revokeTokenBody });
    expect((await gqlError(feesQuery(a))).errors?.[0]?.extensions).toEqual({ reason: reasons.revokedToken });
    await expect(feesQuery(b)).resolves.toBeDefined();
  });

  it('revokes every token of the client without x-jwt-token, and its refresh tokens', async () => {
    const a = mock.control.issueToken('test-client');
    const other = await tokenOf('other-client');
    expect((await post(url(tokenPaths.revoke), credentials)).status).toBe(200);
    expect((await gqlError(feesQuery(a.token))).errors?.[0]?.extensions).toEqual({ reason: reasons.revokedToken });
    expect((await post(url(tokenPaths.refresh), credentials, { refresh_token: a.refresh_token })).status).toBe(401);
    await expect(feesQuery(other)).resolves.toBeDefined();
    await expect(feesQuery(await tokenOf())).resolves.toBeDefined();
  });

  it('401 when revoking a token of another client', async () => {
    const r = await post(url(tokenPaths.revoke), { ...credentials, 'x-jwt-token': await tokenOf('other-client') });
    expect(r.status).toBe(401);
    expect(r.body.message).toContain('x-jwt-token');
  });

  it('refuses a token used with another client id in x-client-id', async () => {
    const response = await gqlError(feesQuery(await tokenOf('other-client'), { 'x-client-id': 'test-client' }));
    expect(response.errors?.[0]?.extensions).toEqual({ reason: reasons.clientMismatch });
  });

  it('refuses a token of a client this instance does not configure', async () => {
    const other = await startMockServer({ port: 0, log: false, clients: [{ clientId: 'elsewhere', apiKey: 'k' }] });
    try {
      const response = await gqlError(feesQuery(other.control.issueToken('elsewhere').token));
      expect(response.errors?.[0]?.extensions).toEqual({ reason: reasons.clientMismatch });
    } finally {
      await other.close();
    }
  });

  it('requires x-client-id and x-api-key on /graphql when graphqlRequiresClientHeaders is set', async () => {
    const strict = await startMockServer({ port: 0, log: false, assumptions: { graphqlRequiresClientHeaders: true } });
    try {
      const token = strict.control.issueToken('test-client').token;
      const client = (h: Record<string, string>) =>
        new GraphQLClient(`${strict.url}/graphql`, { headers: { 'x-jwt-token': token, ...h } });
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
    const client = gql(await tokenOf());
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
    const client = gql(await tokenOf());
    const fees = await client.request(legacy.PaymentGatewayFeesCalcDocument, { amount: 100 });
    expect(fees.paymentGatewayFeesCalc[0]).toMatchObject({ total: expect.any(Number), card_location: 'domestic' });
    const paid = await client.request(legacy.ProcessPaymentRequestDocument, { input: legacyPayInput() });
    expect(paid.processPaymentRequest.uuid).toEqual(expect.any(String));
    expect(mock.control.requests().at(-1)).toMatchObject({ guide: 'legacy', operationName: 'ProcessPaymentRequest' });
  });

  it('pays with a card_account_uid from the control API', async () => {
    const uid = mock.control.registerCardAccount('test-client', {
      card_number: testCards.mastercardSuccess.number,
      expiry_month: '12',
      expiry_year: '39',
    });
    const input = { ...payInput(), credit_card: { card_account_uid: uid } };
    const paid = await gql(await tokenOf()).request(current.ProcessPaymentRequestDocument, { input });
    expect(mock.control.payments('test-client')[0]).toMatchObject({
      uuid: paid.processPaymentRequest.uuid,
      card_type: 'mastercard',
    });
  });

  it('answers validation errors in the 7.3 shape', async () => {
    const input = { ...payInput(), credit_card: { ...card, expiry_year: '01' } };
    const response = await gqlError(gql(await tokenOf()).request(current.ProcessPaymentRequestDocument, { input }));
    expect(response.errors?.[0]).toMatchObject({
      message: 'Validation failed for the field [processPaymentRequest].',
      extensions: { category: 'validation', validation: { 'input.credit_card.expiry_year': expect.any(Array) } },
    });
  });
});

describe('guides and determinism', () => {
  it('serves only the legacy guide with guide "legacy"', async () => {
    const m = await startMockServer({ port: 0, log: false, guide: 'legacy' });
    try {
      const client = new GraphQLClient(`${m.url}/graphql`, {
        headers: { 'x-jwt-token': m.control.issueToken('test-client').token },
      });
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
      const client = gql(await tokenOf());
      return (await client.request(current.ProcessPaymentRequestDocument, { input: payInput() })).processPaymentRequest;
    };
    const first = await pay();
    mock.control.reset();
    const second = await pay();
    expect(second.uuid).toBe(first.uuid);
    expect(mock.control.payments()).toHaveLength(1);
  });
});

describe('HTTP layer errors', () => {
  it('400 on malformed JSON at /graphql, in the 7.2 shape with reason badRequest', async () => {
    const r = await post(url('/graphql'), { 'x-jwt-token': await tokenOf() }, '{"query":');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      errors: [{ message: expect.stringContaining('not valid JSON'), extensions: { reason: reasons.badRequest } }],
    });
  });

  it('400 on a body that is not an object at /graphql', async () => {
    const r = await post(url('/graphql'), { 'x-jwt-token': await tokenOf() }, '[]');
    expect(r.status).toBe(400);
    expect(r.body.errors[0].extensions.reason).toBe(reasons.badRequest);
  });

  it('405 with Allow on a wrong method', async () => {
    // GET serves queries (GraphQL over HTTP); other methods answer 405.
    const res = await fetch(url('/graphql'), { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST, GET');
    expect((await res.json()).errors[0].extensions.reason).toBe(reasons.badRequest);
    const r = await get(url(tokenPaths.generate));
    expect(r.status).toBe(405);
    expect(r.body).toEqual({ status: 'ERROR', message: expect.stringContaining('use POST') });
  });

  it('404 in the 7.1 shape on an unknown path', async () => {
    const r = await get(url('/api/v1/nothing'));
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ status: 'ERROR', message: expect.stringContaining('No such path: /api/v1/nothing') });
  });

  it('413 on a body over the limit, on REST and GraphQL paths', async () => {
    const big = { refresh_token: 'x'.repeat(70 * 1024) };
    const rest = await post(url(tokenPaths.refresh), credentials, big);
    expect(rest.status).toBe(413);
    expect(rest.body.status).toBe('ERROR');
    const g = await post(url('/graphql'), { 'x-jwt-token': await tokenOf() }, { query: 'x'.repeat(70 * 1024) });
    expect(g.status).toBe(413);
    expect(g.body.errors[0].extensions.reason).toBe(reasons.badRequest);
  });

  it('never answers 500 to any of the mistakes above', () => {
    expect(mock.control.requests().filter((r) => r.status >= 500)).toEqual([]);
  });
});

describe('control API over HTTP', () => {
  it('health, clock and advance', async () => {
    expect((await get(url('/__pck/health'))).body).toMatchObject({ ok: true, guide: 'both' });
    const before = (await get(url('/__pck/clock'))).body.now;
    const after = await post(url('/__pck/clock/advance'), {}, { ms: 60_000 });
    expect(after.body.now - before).toBeGreaterThanOrEqual(60_000);
    expect((await post(url('/__pck/clock/advance'), {}, { ms: -1 })).status).toBe(400);
  });

  it('issues tokens, registers cards, lists and settles payments', async () => {
    const pair = (await post(url('/__pck/tokens'), {}, { clientId: 'test-client' })).body;
    expect(pair.status).toBe('SUCCESS');
    const uid = await post(
      url('/__pck/card-accounts'),
      {},
      {
        clientId: 'test-client',
        card: { card_number: testCards.visaStaysProcessing.number, expiry_month: '12', expiry_year: '39' },
      },
    );
    expect(uid.body.card_account_uid).toEqual(expect.any(String));
    const input = { ...payInput(), credit_card: { card_account_uid: uid.body.card_account_uid } };
    const paid = await gql(pair.data.token).request(current.ProcessPaymentRequestDocument, { input });
    const list = await get(url('/__pck/payments?clientId=test-client'));
    expect(list.body.payments).toHaveLength(1);
    const settled = await post(
      url('/__pck/payments/settle'),
      {},
      { uuid: paid.processPaymentRequest.uuid, outcome: 'failure' },
    );
    expect(settled.body.payment.status).toBe(defaultAssumptions.statusNames.failure);
    expect((await post(url('/__pck/payments/settle'), {}, { uuid: paid.processPaymentRequest.uuid })).status).toBe(409);
    expect((await post(url('/__pck/payments/settle'), {}, { uuid: 'nope' })).status).toBe(404);
    expect((await get(url('/__pck/payments?clientId=other-client'))).body.payments).toEqual([]);
  });

  it('reads and awaits the request journal', async () => {
    const since = mock.control.cursor();
    const waiting = post(
      url('/__pck/requests/wait'),
      {},
      { path: tokenPaths.generate, status: 200, since, timeoutMs: 2000 },
    );
    await generate();
    const r = await waiting;
    expect(r.body.request).toMatchObject({ method: 'POST', path: tokenPaths.generate, clientId: 'test-client' });
    const log = await get(url(`/__pck/requests?since=${since}`));
    expect(log.body.requests).toHaveLength(1);
    const timeout = await post(url('/__pck/requests/wait'), {}, { path: '/never', timeoutMs: 50 });
    expect(timeout.status).toBe(408);
  });

  it('fails the next request to a path with the spec 7.1 body (fail-next)', async () => {
    await post(url('/__pck/fail-next'), {}, { path: tokenPaths.generate, status: 500 });
    const failed = await generate();
    expect(failed).toMatchObject({ status: 500, body: { status: 'ERROR', message: expect.any(String) } });
    expect((await generate()).status).toBe(200);
    expect((await post(url('/__pck/fail-next'), {}, { path: '/nope', status: 500 })).status).toBe(400);
  });

  it('answers control mistakes in the 7.1 shape', async () => {
    const r = await post(url('/__pck/tokens'), {}, { clientId: 'nobody' });
    expect(r).toMatchObject({ status: 404, body: { status: 'ERROR' } });
    expect((await post(url('/__pck/tokens'), {}, '{')).status).toBe(400);
  });

  it('reset forgets payments and the journal', async () => {
    await generate();
    expect((await post(url('/__pck/reset'))).body).toEqual({ ok: true });
    expect(mock.control.requests()).toEqual([]);
  });
});

describe('settlement and webhooks', () => {
  let receiver: Server;
  let receiverUrl: string;
  const received: { headers: IncomingMessage['headers']; body: { uuid?: unknown } }[] = [];

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  });
  afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

  it('settles after settleDelayMs on the virtual clock and delivers the webhook', async () => {
    const m = await startMockServer({ port: 0, log: false, webhookUrls: [receiverUrl], settleDelayMs: 5000 });
    try {
      const client = new GraphQLClient(`${m.url}/graphql`, {
        headers: { 'x-jwt-token': m.control.issueToken('test-client').token },
      });
      const paid = await client.request(current.ProcessPaymentRequestDocument, {
        input: payInput(testCards.visaSettlesAsFailure.number),
      });
      const uuid = paid.processPaymentRequest.uuid;
      expect(m.control.payments()[0]?.settledOutcome).toBeUndefined();
      m.control.advanceClock(5000);
      expect(m.control.payments()[0]?.status).toBe(defaultAssumptions.statusNames.failure);
      const delivery = await m.control.waitForDelivery((d) => d.paymentUuid === uuid && d.state === 'delivered', {
        timeoutMs: 3000,
      });
      expect(delivery.payload).toMatchObject({ uuid, status: 'failure', metadata: { order_id: 'o-1' } });
      const hook = received.findLast((r) => r.body.uuid === uuid);
      expect(hook?.headers[defaultAssumptions.webhook.signingKeyHeader]).toBe('test-signing-key');
      expect(hook?.headers[defaultAssumptions.webhook.clientIdHeader]).toBe('test-client');
    } finally {
      await m.close();
    }
  });

  it('never settles the "stays processing" card on its own; the control API settles it', async () => {
    const m = await startMockServer({ port: 0, log: false, webhookUrls: [receiverUrl] });
    try {
      const client = new GraphQLClient(`${m.url}/graphql`, {
        headers: { 'x-jwt-token': m.control.issueToken('test-client').token },
      });
      const paid = await client.request(current.ProcessPaymentRequestDocument, {
        input: payInput(testCards.visaStaysProcessing.number),
      });
      m.control.advanceClock(24 * 3600 * 1000);
      expect(m.control.payments()[0]?.status).toBe(defaultAssumptions.statusNames.processing);
      m.control.settlePayment(paid.processPaymentRequest.uuid, 'success');
      const d = await m.control.waitForDelivery((x) => x.state === 'delivered', { timeoutMs: 3000 });
      expect(d.payload.status).toBe('success');
      expect(() => m.control.settlePayment(paid.processPaymentRequest.uuid)).toThrow(/already settled/);
    } finally {
      await m.close();
    }
  });

  it('sends per-client webhook URLs and signing keys from the client config', async () => {
    const m = await startMockServer({
      port: 0,
      log: false,
      clients: [{ clientId: 'acme', apiKey: 'k', webhookUrls: [receiverUrl], signingKey: 'acme-key' }],
    });
    try {
      const client = new GraphQLClient(`${m.url}/graphql`, {
        headers: { 'x-jwt-token': m.control.issueToken('acme').token },
      });
      const paid = await client.request(current.ProcessPaymentRequestDocument, { input: payInput() });
      m.control.advanceClock(m.control.assumptions.settleDelayMs);
      const d = await m.control.waitForDelivery((x) => x.state === 'delivered', { timeoutMs: 3000 });
      expect(d.clientId).toBe('acme');
      const hook = received.findLast((r) => r.body.uuid === paid.processPaymentRequest.uuid);
      expect(hook?.headers[defaultAssumptions.webhook.signingKeyHeader]).toBe('acme-key');
    } finally {
      await m.close();
    }
  });
});

describe('request log', () => {
  it('writes one line per request, never a card number or CVV', async () => {
    const client = gql(await tokenOf());
    await client.request(current.ProcessPaymentRequestDocument, { input: payInput() });
    await get(url(`/x/${testCards.visaSuccess.number}`));
    await new Promise((r) => setImmediate(r));
    const text = logged.join('');
    expect(text).toMatch(/POST \/graphql ProcessPaymentRequest 200 \d+\.\dms/);
    expect(text).not.toContain(testCards.visaSuccess.number);
    expect(text).not.toContain(card.cvv === '123' ? '"cvv"' : card.cvv);
    expect(text).toContain('411111******1111');
    const journal = JSON.stringify(mock.control.requests());
    expect(journal).not.toContain(testCards.visaSuccess.number);
    expect(journal).not.toContain('cvv');
  });
});

describe('instances', () => {
  it('runs many instances on port 0 in parallel, each with its own state', async () => {
    const servers = await Promise.all(Array.from({ length: 5 }, () => startMockServer({ port: 0, log: false })));
    try {
      expect(new Set(servers.map((s) => s.url)).size).toBe(5);
      await post(`${servers[0]!.url}${tokenPaths.generate}`, credentials);
      expect(servers[0]!.control.requests()).toHaveLength(1);
      expect(servers[1]!.control.requests()).toHaveLength(0);
    } finally {
      await Promise.all(servers.map((s) => s.close()));
    }
  });

  it('createMockApp has no side effects and serves in process', async () => {
    const app = createMockApp({ log: false });
    const { createServer: create } = await import('node:http');
    const server = create(app.handle);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const r = await post(
        `http://127.0.0.1:${(server.address() as AddressInfo).port}${tokenPaths.generate}`,
        credentials,
      );
      expect(r.status).toBe(200);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
      await app.close();
    }
  });

  it('rejects bad options with a message naming the option', () => {
    expect(() => createMockApp({ guide: 'old' as never })).toThrow(/\[payment-contract-kit\] mock option "guide"/);
    expect(() => createMockApp({ webhookUrls: ['nope'] })).toThrow(/webhookUrls/);
  });

  it('simulates latency', async () => {
    const slow = await startMockServer({ port: 0, log: false, latency: { minMs: 80, maxMs: 100 } });
    try {
      const t = performance.now();
      await post(`${slow.url}${tokenPaths.generate}`, credentials);
      expect(performance.now() - t).toBeGreaterThanOrEqual(75);
    } finally {
      await slow.close();
    }
  });
});
