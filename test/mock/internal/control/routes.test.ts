// The control API over real HTTP: every caller's mistake is a 4xx in the 7.1 shape, never the mock's 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../../../src/assumptions.ts';
import * as current from '../../../../src/index.ts';
import { type MockServer, startMockServer } from '../../../../src/mock/index.ts';
import { testCardNumbers } from '../../../../src/test-values.ts';
import { createChanges } from '../../../support/changes.ts';
import { MockHttpError } from '../../../support/mock-internals/foundations.ts';
import { credentials, payInput, post, tokenPaths } from '../../helpers.ts';
import { createPayment } from '../../payments-over-http.ts';
import { inProcessSuite } from '../in-process.ts';
import { startReceiver, type TestReceiver } from '../webhooks/receiver.ts';

const logged: string[] = [];
let mock: MockServer;
let receiver: TestReceiver;
/** What the receiver's waits wait on: it tells of every request it takes and every answer it finishes. */
const received = createChanges();

beforeAll(async () => {
  receiver = await startReceiver(0, received.notify);
  mock = await startMockServer({ port: 0, log: (chunk) => logged.push(chunk), webhookUrls: [receiver.url] });
});
afterAll(async () => {
  await mock.close();
  await receiver.close();
});

function thrownBy(call: () => unknown): unknown {
  try {
    call();
  } catch (e) {
    return e;
  }
  return undefined;
}

const error = (message: RegExp) => ({ status: 'ERROR', message: expect.stringMatching(message) });

describe('control API: a caller mistake is a 4xx in the 7.1 shape', () => {
  it.each([
    ['advance by a negative amount', '/__pck/clock/advance', { ms: -1 }, 400, /non-negative milliseconds/],
    ['advance by a string', '/__pck/clock/advance', { ms: '5' }, 400, /"ms" must be a number/],
    ['advance past the last valid date', '/__pck/clock/advance', { ms: 1e308 }, 400, /latest date JavaScript/],
    ['advance without a body', '/__pck/clock/advance', undefined, 400, /needs \{ "ms"/],
    ['an array body', '/__pck/clock/advance', '[1]', 400, /needs a JSON object body/],
    ['bad JSON', '/__pck/payments/settle', '{"uuid":', 400, /not valid JSON/],
    ['settle a uuid of the wrong type', '/__pck/payments/settle', { uuid: 5 }, 400, /"uuid" must be a string/],
    ['settle with an unknown outcome', '/__pck/payments/settle', { uuid: 'x', outcome: 'maybe' }, 400, /"outcome"/],
    ['settle an unknown payment', '/__pck/payments/settle', { uuid: 'nope' }, 404, /No payment with uuid "nope"/],
    ['wait with a negative timeout', '/__pck/requests/wait', { timeoutMs: -5 }, 400, /"timeoutMs" must be a whole/],
    ['wait longer than a timer holds', '/__pck/deliveries/wait', { timeoutMs: 1e12 }, 400, /from 0 to 2147483647/],
    ['wait with a fractional timeout', '/__pck/deliveries/wait', { timeoutMs: 1.5 }, 400, /"timeoutMs"/],
    ['wait on a status of the wrong type', '/__pck/requests/wait', { status: 'x' }, 400, /"status" must be a number/],
    ['redeliver without an id', '/__pck/deliveries/redeliver', {}, 400, /"id" is required/],
    ['redeliver an id of the wrong type', '/__pck/deliveries/redeliver', { id: ['a'] }, 400, /must be a string/],
    ['redeliver an unknown id', '/__pck/deliveries/redeliver', { id: 'nope' }, 404, /No webhook delivery with id/],
    ['a token for an unknown client', '/__pck/tokens', { clientId: 'nobody' }, 404, /not configured/],
    ['a token for a client id object', '/__pck/tokens', { clientId: {} }, 400, /"clientId" must be a string/],
    ['a card that is a list', '/__pck/card-accounts', { clientId: 'test-client', card: [] }, 400, /"card" must be/],
    [
      'a card with a bad expiry',
      '/__pck/card-accounts',
      {
        clientId: 'test-client',
        card: { card_number: testCardNumbers.visaSuccess, expiry_month: 'ab', expiry_year: 'cd' },
      },
      400,
      /expiry_month and expiry_year/,
    ],
    ['fail-next zero times', '/__pck/fail-next', { path: '/graphql', status: 500, times: 0 }, 400, /times must/],
    ['fail-next on a control path', '/__pck/fail-next', { path: '/__pck/reset', status: 500 }, 400, /not a service/],
    ['fail-next with a 200', '/__pck/fail-next', { path: '/graphql', status: 200 }, 400, /from 400 to 599/],
  ])('%s', async (_name, path, body, status, message) => {
    const r = await post(`${mock.url}${path}`, {}, body);
    expect(r.status).toBe(status);
    expect(r.body).toEqual(error(message));
  });

  it('logged no internal error for any of them', () => {
    expect(logged.join('')).not.toMatch(/a bug in the mock/);
  });
});

describe('control API: redeliver', () => {
  async function settledDelivery() {
    const uuid = await createPayment(mock.url, mock.control.issueToken('test-client').token, { n: 1 });
    mock.control.advanceClock(mock.control.assumptions.settleDelayMs);
    return uuid;
  }

  it('409 on a delivery waiting for its retry, saying to wait for it and advance the clock; 200 once it failed', async () => {
    receiver.reply = () => ({ status: 500 });
    const uuid = await settledDelivery();
    const d = await mock.control.waitForDelivery((x) => x.paymentUuid === uuid && x.state === 'retry-scheduled');
    const r = await post(`${mock.url}/__pck/deliveries/redeliver`, {}, { id: d.id });
    expect(r.status).toBe(409);
    expect(r.body).toEqual(error(/is retry-scheduled: only a failed, gone or delivered .*waitForDelivery.*clock/));
    // The in-process handle answers the same error, not a plain Error.
    expect(() => mock.control.redeliver(d.id)).toThrow(MockHttpError);

    // Walk the schedule to its end with the receiver still failing, then redeliver.
    for (let i = 0; i < mock.control.assumptions.webhook.retry.maxAttempts; i++) {
      const now = (await mock.control.deliveries()).find((x) => x.id === d.id)!;
      if (now.state === 'failed') break;
      if (now.nextAttemptAt !== undefined)
        mock.control.advanceClock(Math.max(0, now.nextAttemptAt - mock.control.now()));
      await mock.control.waitForDelivery((x) => x.id === d.id && x.state !== 'sending');
    }
    await mock.control.waitForDelivery((x) => x.id === d.id && x.state === 'failed');
    receiver.reply = () => ({ status: 200 });
    expect((await post(`${mock.url}/__pck/deliveries/redeliver`, {}, { id: d.id })).body).toEqual({ ok: true });
    await mock.control.waitForDelivery((x) => x.id === d.id && x.state === 'delivered');
  });

  it('409 on a delivery being sent (the receiver has not answered yet)', async () => {
    receiver.reply = () => 'hang';
    const before = receiver.received.length;
    const uuid = await settledDelivery();
    await received.until(() => receiver.received.length > before);
    const d = (await mock.control.deliveries()).find((x) => x.paymentUuid === uuid)!;
    expect(d.state).toBe('sending');
    const r = await post(`${mock.url}/__pck/deliveries/redeliver`, {}, { id: d.id });
    expect(r.status).toBe(409);
    expect(r.body).toEqual(error(/is sending: only a failed, gone or delivered/));
    receiver.reply = () => ({ status: 200 });
    mock.control.advanceClock(mock.control.assumptions.webhook.retry.attemptTimeoutMs);
    const after = await mock.control.waitForDelivery((x) => x.id === d.id && x.state === 'retry-scheduled');
    expect(after.attempts[0]!.error).toBe('timeout');
  });

  it('409 once the mock is closed: no more webhooks are sent', async () => {
    const own = await startMockServer({ port: 0, log: false, webhookUrls: [receiver.url] });
    receiver.reply = () => ({ status: 200 });
    const uuid = await createPayment(own.url, own.control.issueToken('test-client').token, { n: 2 });
    own.control.advanceClock(own.control.assumptions.settleDelayMs);
    const d = await own.control.waitForDelivery((x) => x.paymentUuid === uuid && x.state === 'delivered');
    await own.close();
    const thrown = thrownBy(() => own.control.redeliver(d.id));
    expect(thrown).toBeInstanceOf(MockHttpError);
    expect(thrown).toMatchObject({ status: 409, body: error(/The mock is closed/) });
  });
});

describe('control handle in process: the same errors as over HTTP', () => {
  it.each([
    ['advanceClock(-1)', () => mock.control.advanceClock(-1), 400],
    ['advanceClock(NaN)', () => mock.control.advanceClock(Number.NaN), 400],
    ['advanceClock past the last date', () => mock.control.advanceClock(9e15), 400],
    ['redeliver(undefined)', () => mock.control.redeliver(undefined as never), 400],
  ])('%s', (_name, call, status) => {
    const thrown = thrownBy(call);
    expect(thrown).toBeInstanceOf(MockHttpError);
    expect((thrown as MockHttpError).status).toBe(status);
    expect((thrown as MockHttpError).body).toEqual(error(/^\[payment-contract-kit\] /));
  });

  it('settlePayment with a bad outcome rejects with a 400', async () => {
    const thrown = await mock.control.settlePayment('x', 'maybe' as never).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(MockHttpError);
    expect((thrown as MockHttpError).status).toBe(400);
    expect((thrown as MockHttpError).body).toEqual(error(/^\[payment-contract-kit\] /));
  });
});

describe('control API routes in process', () => {
  const { mock, url } = inProcessSuite();
  const generate = () => mock.post(url(tokenPaths.generate), credentials);

  it('health, clock and advance', async () => {
    expect((await mock.get(url('/__pck/health'))).body).toMatchObject({ ok: true, guide: 'both' });
    const before = (await mock.get(url('/__pck/clock'))).body.now;
    const after = await mock.post(url('/__pck/clock/advance'), {}, { ms: 60_000 });
    expect(after.body.now - before).toBeGreaterThanOrEqual(60_000);
    expect((await mock.post(url('/__pck/clock/advance'), {}, { ms: -1 })).status).toBe(400);
  });

  it('issues tokens, registers cards, lists and settles payments', async () => {
    const pair = (await mock.post(url('/__pck/tokens'), {}, { clientId: 'test-client' })).body;
    expect(pair.status).toBe('SUCCESS');
    const uid = await mock.post(
      url('/__pck/card-accounts'),
      {},
      {
        clientId: 'test-client',
        card: { card_number: testCardNumbers.visaStaysProcessing, expiry_month: '12', expiry_year: '39' },
      },
    );
    expect(uid.body.card_account_uid).toEqual(expect.any(String));
    const input = { ...payInput(), credit_card: { card_account_uid: uid.body.card_account_uid } };
    const paid = await mock.gql(pair.data.token).request(current.ProcessPaymentRequestDocument, { input });
    const list = await mock.get(url('/__pck/payments?clientId=test-client'));
    expect(list.body.payments).toHaveLength(1);
    const settled = await mock.post(
      url('/__pck/payments/settle'),
      {},
      { uuid: paid.processPaymentRequest.uuid, outcome: 'failure' },
    );
    expect(settled.body.payment.status).toBe(defaultAssumptions.statusNames.failure);
    expect((await mock.post(url('/__pck/payments/settle'), {}, { uuid: paid.processPaymentRequest.uuid })).status).toBe(
      409,
    );
    expect((await mock.post(url('/__pck/payments/settle'), {}, { uuid: 'nope' })).status).toBe(404);
    expect((await mock.get(url('/__pck/payments?clientId=other-client'))).body.payments).toEqual([]);
  });

  it('reads and awaits the request journal', async () => {
    const since = await mock.control.cursor();
    const waiting = mock.post(
      url('/__pck/requests/wait'),
      {},
      { path: tokenPaths.generate, status: 200, since, timeoutMs: 2000 },
    );
    await generate();
    const r = await waiting;
    expect(r.body.request).toMatchObject({ method: 'POST', path: tokenPaths.generate, clientId: 'test-client' });
    const log = await mock.get(url(`/__pck/requests?since=${since}`));
    expect(log.body.requests).toHaveLength(1);
    const timeout = await mock.post(url('/__pck/requests/wait'), {}, { path: '/never', timeoutMs: 50 });
    expect(timeout.status).toBe(408);
  });

  it('fails the next request to a path with the spec 7.1 body (fail-next)', async () => {
    await mock.post(url('/__pck/fail-next'), {}, { path: tokenPaths.generate, status: 500 });
    const failed = await generate();
    expect(failed).toMatchObject({ status: 500, body: { status: 'ERROR', message: expect.any(String) } });
    expect((await generate()).status).toBe(200);
    expect((await mock.post(url('/__pck/fail-next'), {}, { path: '/nope', status: 500 })).status).toBe(400);
  });

  it('answers control mistakes in the 7.1 shape', async () => {
    const r = await mock.post(url('/__pck/tokens'), {}, { clientId: 'nobody' });
    expect(r).toMatchObject({ status: 404, body: { status: 'ERROR' } });
    expect((await mock.post(url('/__pck/tokens'), {}, '{')).status).toBe(400);
  });

  it('reset forgets payments and the journal', async () => {
    await generate();
    expect((await mock.post(url('/__pck/reset'))).body).toEqual({ ok: true });
    expect(await mock.control.requests()).toEqual([]);
  });
});
