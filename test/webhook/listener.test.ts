// startWebhookListener, as `webhook listen` runs it: real HTTP on port 0, in process. Valid deliveries are answered
// 204 and reported; a bad signature 401; hostile bodies (malformed, huge, card numbers in strings) get a clear
// answer and never crash it; --forward-to passes body and signature headers on unchanged. Last, the mock's own
// delivery of a settled payment, received and checked.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startMockServer } from '../../src/mock/index.ts';
import { testCardNumbers } from '../../src/test-values.ts';
import { buildTestWebhookRequest } from '../../src/webhook/index.ts';
import {
  deliveryLine,
  type ListenedDelivery,
  startWebhookListener,
  type WebhookListenerOptions,
} from '../../src/webhook/listener.ts';
import { createPayment } from '../mock/payments-over-http.ts';

const keys = { signingKey: 'test-signing-key', clientId: 'test-client' };
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A listener on port 0 whose reports are collected; `next()` resolves with the next one. */
async function listen(options: Partial<WebhookListenerOptions> = {}) {
  const reports: ListenedDelivery[] = [];
  const waiting: ((d: ListenedDelivery) => void)[] = [];
  const listener = await startWebhookListener({
    port: 0,
    ...keys,
    ...options,
    onDelivery: (d) => {
      const w = waiting.shift();
      if (w) w(d);
      else reports.push(d);
    },
  });
  cleanups.push(() => listener.close());
  const next = () =>
    new Promise<ListenedDelivery>((resolve) => {
      const ready = reports.shift();
      if (ready) resolve(ready);
      else waiting.push(resolve);
    });
  return { url: `${listener.url}/webhooks`, next, listener };
}

const post = (url: string, headers: Record<string, string>, body: string | Uint8Array<ArrayBuffer>) =>
  fetch(url, { method: 'POST', headers, body });

describe('startWebhookListener', () => {
  it('answers 204 to a valid delivery and reports uuid, status, delivery id and "signature ok"', async () => {
    const { url, next } = await listen();
    const { headers, body, payload } = buildTestWebhookRequest({ ...keys, payload: { status: 'failure' } });
    const response = await post(url, headers, body);
    expect(response.status).toBe(204);
    const d = await next();
    expect(d).toMatchObject({ status: 204, uuid: payload.uuid, paymentStatus: 'failure', check: { ok: true } });
    expect(d.deliveryId).toBe(headers['x-webhook-delivery-id']);
    expect(deliveryLine(d)).toBe(
      `204 POST /webhooks payment ${payload.uuid} failure delivery ${d.deliveryId} signature ok`,
    );
  });

  it('shows a kit delivery id whole even when its hex holds a run of 12 digits, and masks a card number', async () => {
    const { url, next } = await listen();
    const deliveryId = 'whd_test_655ddcd74cca440394845833a42876bd';
    const plain = buildTestWebhookRequest({ ...keys, deliveryId });
    await post(url, plain.headers, plain.body);
    expect((await next()).deliveryId).toBe(deliveryId);
    const forged = buildTestWebhookRequest({ ...keys, deliveryId: 'whd_4111111111111111' });
    await post(url, forged.headers, forged.body);
    expect((await next()).deliveryId).toBe('whd_411111******1111');
  });

  it('answers 401 to a wrong signing key and says why, in the answer and the report', async () => {
    const { url, next } = await listen();
    const { headers, body } = buildTestWebhookRequest({ ...keys, signingKey: 'another-key' });
    const response = await post(url, headers, body);
    expect(response.status).toBe(401);
    expect(await response.text()).toMatch(/^\[payment-contract-kit\] .*does not match your signing key/);
    const line = deliveryLine(await next());
    expect(line).toMatch(/^401 POST \/webhooks payment \S+ success delivery \S+ refused WRONG_SIGNING_KEY: /);
  });

  it('accepts any of several keys, and requires the Standard Webhooks signature when given a secret', async () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const { url, next } = await listen({ signingKey: ['old-key', 'test-signing-key'], standardWebhooksSecret: secret });
    const signed = buildTestWebhookRequest({ ...keys, standardWebhooks: { secret } });
    expect((await post(url, signed.headers, signed.body)).status).toBe(204);
    expect((await next()).check).toEqual({ ok: true });
    const unsigned = buildTestWebhookRequest(keys);
    expect((await post(url, unsigned.headers, unsigned.body)).status).toBe(401);
    expect((await next()).check).toMatchObject({ ok: false, code: 'MISSING_STANDARD_WEBHOOKS_HEADER' });
  });

  it.each<[string, string, number, string]>([
    ['a body that is not JSON', '{"uuid": ', 400, 'MALFORMED_JSON'],
    ['JSON that is not a payment status webhook', '[1, 2, 3]', 400, 'INVALID_PAYLOAD'],
    ['an empty body', '', 400, 'MALFORMED_JSON'],
  ])('answers %s with 400 and its code', async (_name, body, status, code) => {
    const { url, next } = await listen();
    const { headers } = buildTestWebhookRequest(keys);
    const response = await post(url, headers, body);
    expect(response.status).toBe(status);
    expect(await response.text()).toMatch(/^\[payment-contract-kit\] /);
    expect((await next()).check).toMatchObject({ ok: false, code });
  });

  it('answers a body over the limit 413 without keeping it, and keeps listening', async () => {
    const { url, next } = await listen({ maxBodyBytes: 1000 });
    const { headers, body } = buildTestWebhookRequest(keys);
    const huge = new Uint8Array(200_000).fill(0x7b);
    const response = await post(url, headers, huge);
    expect(response.status).toBe(413);
    expect(await response.text()).toContain('the body is over 1000 bytes');
    expect((await next()).check).toMatchObject({ ok: false, code: 'BODY_TOO_LARGE' });
    expect((await post(url, headers, body)).status).toBe(204);
    expect((await next()).check).toEqual({ ok: true });
  });

  it('answers a body streamed without a length past the limit 413 too', async () => {
    const { url, next } = await listen({ maxBodyBytes: 1000 });
    const { headers } = buildTestWebhookRequest(keys);
    const chunk = new Uint8Array(600).fill(0x20);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 4; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const response = await fetch(url, { method: 'POST', headers, body: stream, duplex: 'half' } as RequestInit);
    expect(response.status).toBe(413);
    expect((await next()).check).toMatchObject({ code: 'BODY_TOO_LARGE' });
  });

  it('answers 405 to anything but POST', async () => {
    const { url, next } = await listen();
    const response = await fetch(url);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect((await next()).check).toMatchObject({ code: 'NOT_POST' });
  });

  it('never prints a card number a sender put in the payload or a header, nor control characters', async () => {
    const { url, next } = await listen();
    const card = testCardNumbers.visaSuccess;
    const { headers, body } = buildTestWebhookRequest({ ...keys, payload: { uuid: card, status: `ok\u001b[2J` } });
    await post(url, { ...headers, 'x-webhook-delivery-id': `id-${card}` }, body);
    const line = deliveryLine(await next());
    expect(line).not.toContain(card);
    expect(line).toContain('411111******1111');
    expect(line).not.toContain('\u001b');
  });

  it('refuses options that cannot work, naming the option', async () => {
    await expect(startWebhookListener({ ...keys, signingKey: '' })).rejects.toThrow(/signingKey must be/);
    await expect(startWebhookListener({ ...keys, port: 70_000 })).rejects.toThrow(/port must be 0 to 65535/);
    await expect(startWebhookListener({ ...keys, forwardTo: 'ftp://x' })).rejects.toThrow(/forwardTo must be/);
  });
});

describe('forwarding', () => {
  /** A receiver on port 0 that records what it got and answers `status`. */
  async function target(status: number) {
    const got: { headers: http.IncomingHttpHeaders; body: string }[] = [];
    const server = http.createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(status).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, got };
  }

  it('passes the body and the signature headers on unchanged and reports the target status', async () => {
    const team = await target(202);
    const { url, next } = await listen({ forwardTo: team.url });
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const { headers, body } = buildTestWebhookRequest({ ...keys, standardWebhooks: { secret } });
    expect((await post(url, headers, body)).status).toBe(204);
    const d = await next();
    expect(d.forwarded).toEqual({ url: team.url, status: 202 });
    expect(deliveryLine(d)).toMatch(new RegExp(`signature ok; forwarded to ${team.url}: 202$`));
    expect(team.got).toHaveLength(1);
    expect(team.got[0]!.body).toBe(body);
    for (const [name, value] of Object.entries(headers)) expect(team.got[0]!.headers[name]).toBe(value);
  });

  it('forwards a delivery whose signature fails too (your endpoint judges it), and says when the target is down', async () => {
    const team = await target(401);
    const { url, next } = await listen({ forwardTo: team.url });
    const bad = buildTestWebhookRequest({ ...keys, signingKey: 'another-key' });
    expect((await post(url, bad.headers, bad.body)).status).toBe(401);
    expect((await next()).forwarded).toEqual({ url: team.url, status: 401 });

    // A port that was free a moment ago and is closed now: nothing answers there.
    const gone = await target(204);
    await cleanups.pop()!();
    const down = await listen({ forwardTo: gone.url });
    const good = buildTestWebhookRequest(keys);
    expect((await post(down.url, good.headers, good.body)).status).toBe(204);
    expect((await down.next()).forwarded).toEqual({ url: gone.url, error: 'ECONNREFUSED (is it running?)' });
  });
});

it("receives the mock's own delivery of a settled payment and finds its signature good", async () => {
  const { url, next } = await listen();
  const mock = await startMockServer({ port: 0, log: false, webhookUrls: [url] });
  cleanups.push(() => mock.close());
  const { token } = mock.control.issueToken('test-client');
  const uuid = await createPayment(mock.url, token, {});
  mock.control.advanceClock(mock.control.assumptions.settleDelayMs);
  const d = await next();
  expect(d).toMatchObject({ status: 204, uuid, paymentStatus: 'success', check: { ok: true } });
  expect((await mock.control.waitForDelivery((x) => x.state === 'delivered')).paymentUuid).toBe(uuid);
});
