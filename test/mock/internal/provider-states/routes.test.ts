// The Pact routes over real HTTP: every state change form verifiers send, the values for fromProviderState, teardown,
// and the webhook message of /__pck/messages (the one a receiver really gets, metadata in Pact-Message-Metadata).
// A caller's mistake is a 400 in the 7.1 shape naming the fix.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerStates } from '../../../../src/contract/provider-state-names.ts';
import { type MockServer, servicePaths, startMockServer } from '../../../../src/mock/index.ts';
import { pactControlPaths } from '../../../../src/spec-names.ts';
import { credentials, post } from '../../helpers.ts';
import { startReceiver, type TestReceiver } from '../webhooks/receiver.ts';

let mock: MockServer;
let receiver: TestReceiver;
const clientId = credentials['x-client-id'];

beforeAll(async () => {
  receiver = await startReceiver();
  mock = await startMockServer({ port: 0, guide: 'both', log: false, webhookUrls: [receiver.url] });
});
afterAll(async () => {
  await mock.close();
  await receiver.close();
});

const states = (body?: unknown, query = '') => post(`${mock.url}${pactControlPaths.providerStates}${query}`, {}, body);
const messages = (body?: unknown) => post(`${mock.url}${pactControlPaths.messages}`, {}, body);
const error = (message: RegExp) => ({ status: 'ERROR', message: expect.stringMatching(message) });
const finalised = (outcome: string) => ({
  name: providerStates.paymentFinalised,
  params: { clientId, outcome, amount: 100, metadata: { order_id: 'order-1001' } },
});

const generateToken = () => post(`${mock.url}${servicePaths.generateToken}`, credentials);

/** Answers a fee list request with `token`: the status says whether the token is accepted. */
async function feeList(token: string) {
  const res = await post(
    `${mock.url}${servicePaths.graphql}`,
    { 'x-jwt-token': token },
    {
      query: 'query { paymentGatewayFeesCalc(amount: 100) { card_type fees } }',
    },
  );
  return res.body as { data?: unknown; errors?: { extensions: { reason: string } }[] };
}

describe('POST /__pck/provider-states', () => {
  it('sets up a state from the JSON body form and answers its values', async () => {
    const setup = await states({ state: providerStates.tokenPair, params: { clientId }, action: 'setup' });
    expect(setup.status).toBe(200);
    expect(setup.body).toEqual({
      clientId,
      apiKey: credentials['x-api-key'],
      token: expect.any(String),
      refreshToken: expect.any(String),
    });
    expect((await feeList((setup.body as { token: string }).token)).data).toBeDefined();
  });

  it('sets a state without clientId up for the first configured client (a Pact V2 state has no params)', async () => {
    for (const body of [{ state: providerStates.tokenPair }, { state: providerStates.tokenPair, params: {} }]) {
      const setup = await states(body);
      expect(setup.status).toBe(200);
      expect(setup.body).toMatchObject({ clientId, apiKey: credentials['x-api-key'] });
      expect((await feeList((setup.body as { token: string }).token)).data).toBeDefined();
    }
  });

  it('teardown resets what setup made (injected failures, payments)', async () => {
    const failing = { state: providerStates.tokenServiceFailing, params: { clientId } };
    expect(await states({ ...failing, action: 'setup' })).toMatchObject({ status: 200, body: { clientId } });
    expect((await generateToken()).status).toBe(500);
    expect(await states({ ...failing, action: 'teardown' })).toMatchObject({ status: 200, body: {} });
    expect((await generateToken()).status).toBe(200);
    await states({ state: finalised('success').name, params: finalised('success').params });
    expect(await mock.control.payments()).toHaveLength(1);
    await states({ state: finalised('success').name, params: finalised('success').params, action: 'teardown' });
    expect(await mock.control.payments()).toEqual([]);
  });

  it('takes the query form (pact-verifier --state-change-as-query) and the older { state, states, params } form', async () => {
    const query = new URLSearchParams({
      state: providerStates.cardAccount,
      action: 'setup',
      clientId,
      cardType: 'visa',
    });
    const fromQuery = await states(undefined, `?${query}`);
    expect(fromQuery).toMatchObject({
      status: 200,
      body: { token: expect.any(String), cardAccountUid: expect.any(String) },
    });
    const legacy = await states({
      consumer: 'c',
      state: providerStates.accessToken,
      states: [providerStates.accessToken],
      params: { clientId },
    });
    expect(legacy).toMatchObject({ status: 200, body: { token: expect.any(String) } });
  });

  it('answers {} for an interaction without a state (empty or absent), starting it from a clean mock', async () => {
    await states({ state: providerStates.tokenServiceFailing, params: { clientId } });
    expect(await states({ state: '', params: {}, action: 'setup' })).toMatchObject({ status: 200, body: {} });
    expect((await generateToken()).status).toBe(200);
    expect(await states()).toMatchObject({ status: 200, body: {} });
  });

  it('expires the token of the expired-token state on the virtual clock', async () => {
    const { token } = (await states({ state: providerStates.expiredAccessToken, params: { clientId } })).body as {
      token: string;
    };
    expect((await feeList(token)).errors?.[0]?.extensions.reason).toBe('TOKEN_EXPIRED');
  });

  it.each([
    [
      'an unknown state',
      { state: 'a unicorn exists' },
      /unknown provider state "a unicorn exists".*"the client holds a token pair"/,
    ],
    ['an unknown action', { state: '', action: 'undo' }, /"action" must be "setup" or "teardown"/],
    ['a state that is not a string', { state: 5 }, /"state" must be a string/],
    ['params that are a list', { state: providerStates.accessToken, params: [] }, /"params" must be an object/],
    ['states that are not names', { state: 'x', states: [1] }, /"states" must be a list of state names/],
    [
      'an empty clientId',
      { state: providerStates.accessToken, params: { clientId: '' } },
      /params.clientId must be a non-empty string/,
    ],
    [
      'an unknown client',
      { state: providerStates.accessToken, params: { clientId: 'nobody' } },
      /"nobody" is not configured.*"test-client"/,
    ],
    [
      'an unknown card type',
      { state: providerStates.cardAccount, params: { clientId, cardType: 'unicorn' } },
      /no test card; use one of .*visa/,
    ],
    [
      'a bad outcome',
      { state: providerStates.paymentFinalised, params: { clientId, outcome: 'maybe', amount: 1 } },
      /"success" or "failure"/,
    ],
    [
      'a bad amount',
      { state: providerStates.paymentFinalised, params: { clientId, amount: 'lots' } },
      /params.amount must be a positive number/,
    ],
    [
      'metadata that is not strings',
      { state: providerStates.paymentFinalised, params: { clientId, amount: 100, metadata: { n: 1 } } },
      /params.metadata must be an object of strings/,
    ],
    ['an array body', '[1]', /needs a JSON object body/],
  ])('answers 400 for %s', async (_label, body, message) => {
    const res = await states(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(message));
    expect((res.body as { message: string }).message).toMatch(/^\[payment-contract-kit\] /);
  });
});

describe('POST /__pck/messages', () => {
  it('answers the webhook the receiver really gets, with its headers as Pact message metadata', async () => {
    const res = await fetch(`${mock.url}${pactControlPaths.messages}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'a payment status update', providerStates: [finalised('failure')] }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const payload = (await res.json()) as { uuid: string; status: string };
    expect(payload).toMatchObject({ amount: 100, status: 'failure', metadata: { order_id: 'order-1001' } });
    const metadata = JSON.parse(Buffer.from(res.headers.get('pact-message-metadata') ?? '', 'base64').toString('utf8'));
    const delivery = await mock.control.waitForDelivery(
      (d) => d.paymentUuid === payload.uuid && d.state === 'delivered',
    );
    const got = receiver.received.find((r) => r.deliveryId === delivery.id);
    expect(got?.json).toEqual(payload);
    expect(metadata).toEqual({
      'x-webhook-signing-key': got?.headers['x-webhook-signing-key'],
      'x-client-id': clientId,
      [mock.control.assumptions.webhook.deliveryIdHeader]: delivery.id,
    });
  });

  it('uses the payment of the latest state setup when the message request names no state', async () => {
    await states({ state: finalised('success').name, params: finalised('success').params });
    const res = await messages({ description: 'a payment status update' });
    expect(res).toMatchObject({ status: 200, body: { status: 'success' } });
  });

  it.each([
    ['no description', { providerStates: [] }, /"description".*is required/],
    ['states that are not a list', { description: 'd', providerStates: {} }, /"providerStates" must be a list/],
    ['a state without a name', { description: 'd', providerStates: [{}] }, /providerStates\[0\] must be/],
    ['an unknown state', { description: 'd', providerStates: [{ name: 'nope' }] }, /unknown provider state "nope"/],
    [
      'no finalised payment',
      { description: 'd', providerStates: [{ name: providerStates.accessToken, params: { clientId } }] },
      /no payment has reached its final status/,
    ],
  ])('answers 400 for %s', async (_label, body, message) => {
    const res = await messages(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(message));
  });
});
