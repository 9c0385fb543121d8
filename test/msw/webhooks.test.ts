// Webhooks in msw mode: in-process receivers get real Requests and their answers go through the same retry rules
// (500 retried on the mock clock, Retry-After, 410 gone, attempt timeout, a receiver that throws); webhookUrls keep
// going over real HTTP, which setupServer's node:http interception must not swallow.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GraphQLClient } from 'graphql-request';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../src/assumptions.ts';
import { ProcessPaymentRequestDocument } from '../../src/index.ts';
import type { MockDelivery } from '../../src/mock/index.ts';
import {
  createMockHandlers,
  defaultBaseUrl,
  type MockHandlers,
  type MockHandlersOptions,
  type WebhookReceiver,
} from '../../src/msw/index.ts';
import { checkWebhookSignature } from '../../src/webhook/index.ts';
import { payInput, post } from '../mock/helpers.ts';

const { retry, signingKeyHeader, clientIdHeader, deliveryIdHeader } = defaultAssumptions.webhook;
const server = setupServer();
const opened: MockHandlers[] = [];

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(async () => {
  server.resetHandlers();
  await Promise.all(opened.splice(0).map((m) => m.close()));
});
afterAll(() => server.close());

/** A mock whose handlers msw serves; closed after the test. */
function mockWith(options: MockHandlersOptions): MockHandlers {
  const mock = createMockHandlers({ log: false, realNow: () => Date.UTC(2026, 0, 1), ...options });
  opened.push(mock);
  server.use(...mock.handlers);
  return mock;
}

/** Pays through msw and settles the payment on the mock clock; resolves with its uuid. */
async function payAndSettle(mock: MockHandlers): Promise<string> {
  const client = new GraphQLClient(`${defaultBaseUrl}/graphql`, {
    headers: { 'x-jwt-token': mock.control.issueToken('test-client').token },
  });
  const { processPaymentRequest } = await client.request(ProcessPaymentRequestDocument, { input: payInput() });
  mock.control.advanceClock(mock.control.assumptions.settleDelayMs);
  return processPaymentRequest.uuid;
}

const inState = (mock: MockHandlers, uuid: string, state: MockDelivery['state']) =>
  mock.control.waitForDelivery((d) => d.paymentUuid === uuid && d.state === state, { timeoutMs: 5000 });

/** A receiver answering the given statuses in turn (204 once they run out), recording each request. */
function scripted(statuses: (number | Response)[] = []) {
  const requests: { headers: Headers; body: string; url: string }[] = [];
  const receiver: WebhookReceiver = async (request) => {
    requests.push({ headers: request.headers, body: await request.text(), url: request.url });
    const next = statuses.shift() ?? 204;
    if (typeof next !== 'number') return next;
    return new Response(next === 204 ? null : `answer ${next}`, { status: next });
  };
  return { receiver, requests };
}

describe('in-process webhook receivers', () => {
  it('calls the receiver with the headers and body of an HTTP delivery, which checkWebhookSignature accepts', async () => {
    const verified: unknown[] = [];
    const mock = mockWith({
      webhookReceivers: [
        async (request) => {
          const result = checkWebhookSignature({
            headers: request.headers,
            rawBody: await request.text(),
            signingKey: 'test-signing-key',
            clientId: 'test-client',
          });
          verified.push(result.ok ? result.payload.uuid : result.error.message);
          return new Response(null, { status: result.ok ? 204 : 401 });
        },
      ],
    });
    const uuid = await payAndSettle(mock);
    const delivery = await inState(mock, uuid, 'delivered');
    expect(verified).toEqual([uuid]);
    expect(delivery.url).toBe('http://in-process.invalid/webhook-receivers/1');
    expect(delivery.attempts.map((a) => a.status)).toEqual([204]);
  });

  it('sends the same header set and body bytes as the HTTP transport', async () => {
    const { receiver, requests } = scripted();
    const mock = mockWith({ webhookReceivers: [receiver] });
    const uuid = await payAndSettle(mock);
    const delivery = await inState(mock, uuid, 'delivered');
    const [sent] = requests;
    expect(sent?.body).toBe(delivery.body);
    expect(sent?.url).toBe(delivery.url);
    expect(Object.fromEntries(sent?.headers ?? [])).toEqual({
      'content-type': 'application/json',
      accept: 'application/json',
      'user-agent': 'payment-contract-kit-mock',
      'content-length': String(Buffer.byteLength(delivery.body)),
      [signingKeyHeader]: 'test-signing-key',
      [clientIdHeader]: 'test-client',
      [deliveryIdHeader]: delivery.id,
    });
  });

  it('retries after a 500 on the mock clock, with the same delivery id, then delivers', async () => {
    const { receiver, requests } = scripted([500]);
    const mock = mockWith({ webhookReceivers: [receiver] });
    const uuid = await payAndSettle(mock);
    const waiting = await inState(mock, uuid, 'retry-scheduled');
    expect(waiting.attempts).toEqual([expect.objectContaining({ status: 500, responseBody: 'answer 500' })]);
    mock.control.advanceClock((waiting.nextAttemptAt ?? 0) - mock.control.now());
    const delivered = await inState(mock, uuid, 'delivered');
    expect(delivered.attempts.map((a) => a.status)).toEqual([500, 204]);
    expect(new Set(requests.map((r) => r.headers.get(deliveryIdHeader)))).toEqual(new Set([delivered.id]));
  });

  it('waits what a 503 Retry-After asks instead of the backoff delay', async () => {
    const { receiver } = scripted([new Response(null, { status: 503, headers: { 'retry-after': '7' } })]);
    const mock = mockWith({ webhookReceivers: [receiver] });
    const uuid = await payAndSettle(mock);
    const waiting = await inState(mock, uuid, 'retry-scheduled');
    expect((waiting.nextAttemptAt ?? 0) - (waiting.attempts[0]?.at ?? 0)).toBe(7000);
  });

  it('stops at 410 Gone and sends nothing more to that receiver', async () => {
    const { receiver, requests } = scripted([410]);
    const mock = mockWith({ webhookReceivers: [receiver] });
    const first = await payAndSettle(mock);
    expect(await inState(mock, first, 'gone')).toMatchObject({ reason: 'receiver-gone' });
    const second = await payAndSettle(mock);
    expect(await inState(mock, second, 'gone')).toMatchObject({ reason: 'url-gone', attempts: [] });
    expect(requests).toHaveLength(1);
  });

  it('records a receiver that throws (or answers no Response) as a failed attempt and retries it', async () => {
    let calls = 0;
    const mock = mockWith({
      webhookReceivers: [
        () => {
          calls += 1;
          if (calls === 1) throw new TypeError('handler bug');
          if (calls === 2) return 'not a response' as unknown as Response;
          return new Response(null, { status: 200 });
        },
      ],
    });
    const uuid = await payAndSettle(mock);
    for (let i = 0; i < 2; i++) {
      const waiting = await mock.control.waitForDelivery(
        (d) => d.paymentUuid === uuid && d.state === 'retry-scheduled' && d.attempts.length === i + 1,
      );
      mock.control.advanceClock((waiting.nextAttemptAt ?? 0) - mock.control.now());
    }
    const delivered = await inState(mock, uuid, 'delivered');
    expect(delivered.attempts.map((a) => a.error ?? a.status)).toEqual([
      'receiver-threw: TypeError: handler bug',
      'receiver-invalid-answer',
      200,
    ]);
  });

  it('times out a receiver that never answers on the mock clock, aborting its request signal', async () => {
    const signals: AbortSignal[] = [];
    const mock = mockWith({
      webhookReceivers: [
        (request) => {
          signals.push(request.signal);
          return new Promise<Response>(() => {});
        },
      ],
    });
    const uuid = await payAndSettle(mock);
    await inState(mock, uuid, 'sending');
    mock.control.advanceClock(retry.attemptTimeoutMs);
    const waiting = await inState(mock, uuid, 'retry-scheduled');
    expect(waiting.attempts).toEqual([expect.objectContaining({ error: 'timeout' })]);
    expect(signals[0]?.aborted).toBe(true);
  });

  it('answers a redeliver of a delivery still being sent with 409 in the control shape, never 500', async () => {
    let answer: (response: Response) => void = () => {};
    const mock = mockWith({
      webhookReceivers: [() => new Promise<Response>((resolve) => (answer = resolve))],
    });
    const uuid = await payAndSettle(mock);
    const sending = await inState(mock, uuid, 'sending');
    const r = await post(`${defaultBaseUrl}/__pck/deliveries/redeliver`, {}, { id: sending.id });
    expect(r.status).toBe(409);
    expect(r.body).toEqual({
      status: 'ERROR',
      message: expect.stringMatching(/^\[payment-contract-kit\] .*is sending/),
    });
    answer(new Response(null, { status: 204 }));
    await inState(mock, uuid, 'delivered');
    expect((await post(`${defaultBaseUrl}/__pck/deliveries/redeliver`, {}, { id: sending.id })).body).toEqual({
      ok: true,
    });
    expect((await mock.control.requests()).filter((e) => e.status >= 500)).toEqual([]);
  });
});

describe('webhookUrls over real HTTP under setupServer', () => {
  let receiver: Server;
  let receiverUrl = '';
  const received: string[] = [];

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push(Buffer.concat(chunks).toString('utf8'));
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks?source=mock`;
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  it('reaches the HTTP receiver although msw intercepts node:http with onUnhandledRequest "error"', async () => {
    const { receiver: inProcess, requests } = scripted();
    const mock = mockWith({ webhookUrls: [receiverUrl], webhookReceivers: [inProcess] });
    const uuid = await payAndSettle(mock);
    const deliveries = await Promise.all([
      mock.control.waitForDelivery((d) => d.url === receiverUrl && d.state === 'delivered'),
      inState(mock, uuid, 'delivered'),
    ]);
    expect(deliveries[0].attempts.map((a) => a.status)).toEqual([204]);
    expect(received).toEqual([deliveries[0].body]);
    expect(requests).toHaveLength(1);
  });

  it('reaches a client-specific webhook URL too', async () => {
    received.length = 0;
    const mock = mockWith({
      clients: [{ clientId: 'test-client', apiKey: 'test-api-key', webhookUrls: [receiverUrl] }],
    });
    const uuid = await payAndSettle(mock);
    const delivered = await inState(mock, uuid, 'delivered');
    expect(received).toEqual([delivered.body]);
  });
});
