import { afterEach, describe, expect, it } from 'vitest';
import { startProxy } from '../../src/proxy/index.ts';
import { json, rawRequest, type StandIn, startStandIn } from './support.ts';

// What the service gets back for its webhook, with no receiver, several, and a first one that is down.
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});
const payload = JSON.stringify({
  amount: 100,
  payment_gateway_fee: 1.8,
  paid_at: '2026-11-25T12:00:00.000Z',
  status: 'success',
  uuid: '0b7f3f3e-6c1a-4a52-9d55-2f0b3f2c9e11',
});
const headers = {
  'content-type': 'application/json',
  'x-webhook-signing-key': 'test-signing-key',
  'x-client-id': 'test-client',
  'x-webhook-delivery-id': 'whd_1',
};

async function receiver(status: number, body: string): Promise<StandIn> {
  const r = await startStandIn((_req, _body, res) => res.writeHead(status, { 'x-receiver': body }).end(body));
  closers.push(() => r.close());
  return r;
}

async function proxyWith(forwardWebhooks: string[], webhookPath?: string) {
  // The upstream is never called for webhooks; any address will do.
  const proxy = await startProxy({
    upstream: 'http://127.0.0.1:9',
    log: false,
    forwardWebhooks,
    upstreamTimeoutMs: 2000,
    ...(webhookPath ? { webhookPath } : {}),
  });
  closers.push(() => proxy.close());
  return proxy;
}

describe('webhooks through the proxy', () => {
  it('with no receiver: 204, checked and counted', async () => {
    const proxy = await proxyWith([]);
    const answer = await rawRequest(proxy.url, { path: '/webhooks', headers, body: payload });
    expect([answer.status, answer.body.length]).toEqual([204, 0]);
    expect(proxy.report()).toMatchObject({ exchanges: 1, drifts: [] });
  });

  it("with several receivers: each gets a copy, the service gets the first one's answer", async () => {
    const first = await receiver(202, 'first');
    const second = await receiver(500, 'second');
    const proxy = await proxyWith([`${first.url}/a`, `${second.url}/b`], '/hooks/payments');
    const answer = await rawRequest(proxy.url, { path: '/hooks/payments', headers, body: payload });
    expect([answer.status, answer.body.toString()]).toEqual([202, 'first']);
    expect(answer.rawHeaders).toContain('first');
    expect([first.received[0]!.path, first.received[0]!.body]).toEqual(['/a', payload]);
    expect([second.received[0]!.path, second.received[0]!.body]).toEqual(['/b', payload]);
  });

  it('with the first receiver down: 502 in the 7.1 shape, so the service retries', async () => {
    const down = await receiver(200, 'x');
    await down.close();
    const proxy = await proxyWith([down.url]);
    const answer = await rawRequest(proxy.url, { path: '/webhooks', headers, body: payload });
    expect(answer.status).toBe(502);
    expect(json(answer)).toEqual({ status: 'ERROR', message: expect.stringMatching(/webhook receiver .* failed/) });
    // The receiver's failure is not the service's: no upstream drift.
    expect(proxy.report().drifts).toEqual([]);
  });
});
