import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestWebhookRequest, checkWebhookSignature } from '../../src/webhook/index.ts';

describe('buildTestWebhookRequest', () => {
  it('fills a sample payload and the kit header names', () => {
    const { headers, body, payload } = buildTestWebhookRequest({ signingKey: 'k', clientId: 'c' });
    expect(JSON.parse(body)).toEqual(payload);
    expect(payload).toMatchObject({ amount: 100, payment_gateway_fee: 1.8, status: 'success' });
    expect(Number.isNaN(Date.parse(payload.paid_at))).toBe(false);
    expect(headers).toMatchObject({
      'content-type': 'application/json',
      'x-webhook-signing-key': 'k',
      'x-client-id': 'c',
    });
    expect(headers['x-webhook-delivery-id']).toMatch(/^whd_test_[0-9a-f]{32}$/);
    expect(headers['webhook-signature']).toBeUndefined();
  });

  it('takes payload fields, header names and a delivery id', () => {
    const { headers, payload } = buildTestWebhookRequest({
      signingKey: 'k',
      clientId: 'c',
      payload: { uuid: 'pay-1', status: 'failure', metadata: { order: 'A-1' } },
      headerNames: { signingKey: 'x-sig' },
      deliveryId: 'whd_fixed',
    });
    expect(payload).toMatchObject({ uuid: 'pay-1', status: 'failure', metadata: { order: 'A-1' } });
    expect(headers).toMatchObject({ 'x-sig': 'k', 'x-webhook-delivery-id': 'whd_fixed' });
  });

  it('throws when the key or client id is missing', () => {
    expect(() => buildTestWebhookRequest({ signingKey: '', clientId: 'c' })).toThrow(
      /\[payment-contract-kit\] buildTestWebhookRequest: signingKey is required/,
    );
  });
});

describe('a receiver on node:http, tested with buildTestWebhookRequest over real HTTP', () => {
  let server: http.Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  it('accepts the genuine request and rejects a forged one', async () => {
    server = http.createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const result = checkWebhookSignature({
        headers: req.headers,
        rawBody: Buffer.concat(chunks),
        signingKey: 'test-signing-key',
        clientId: 'test-client',
      });
      if (!result.ok) res.writeHead(401, { 'content-type': 'text/plain' }).end(result.error.code);
      else res.writeHead(200).end(result.payload.uuid);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

    const good = buildTestWebhookRequest({
      signingKey: 'test-signing-key',
      clientId: 'test-client',
      payload: { uuid: 'pay-9' },
    });
    const ok = await fetch(url, { method: 'POST', headers: good.headers, body: good.body });
    expect([ok.status, await ok.text()]).toEqual([200, 'pay-9']);

    const forged = buildTestWebhookRequest({ signingKey: 'guess', clientId: 'test-client' });
    const no = await fetch(url, { method: 'POST', headers: forged.headers, body: forged.body });
    expect([no.status, await no.text()]).toEqual([401, 'WRONG_SIGNING_KEY']);
  });
});
