/**
 * Settlement and webhooks after a payment made in process (`app.fetch`): settlement on the virtual clock, the
 * "stays processing" card, per-client webhook URLs and signing keys. The receiver is a real HTTP server.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../../../src/assumptions.ts';
import * as current from '../../../../src/index.ts';
import { testCardNumbers } from '../../../../src/test-values.ts';
import { payInput } from '../../helpers.ts';
import { startInProcess } from '../in-process.ts';

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
    const m = startInProcess({ webhookUrls: [receiverUrl], settleDelayMs: 5000 });
    try {
      const client = m.gql(m.control.issueToken('test-client').token);
      const paid = await client.request(current.ProcessPaymentRequestDocument, {
        input: payInput(testCardNumbers.visaSettlesAsFailure),
      });
      const uuid = paid.processPaymentRequest.uuid;
      expect((await m.control.payments())[0]?.settledOutcome).toBeUndefined();
      m.control.advanceClock(5000);
      expect((await m.control.payments())[0]?.status).toBe(defaultAssumptions.statusNames.failure);
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
    const m = startInProcess({ webhookUrls: [receiverUrl] });
    try {
      const client = m.gql(m.control.issueToken('test-client').token);
      const paid = await client.request(current.ProcessPaymentRequestDocument, {
        input: payInput(testCardNumbers.visaStaysProcessing),
      });
      m.control.advanceClock(24 * 3600 * 1000);
      expect((await m.control.payments())[0]?.status).toBe(defaultAssumptions.statusNames.processing);
      await m.control.settlePayment(paid.processPaymentRequest.uuid, 'success');
      const d = await m.control.waitForDelivery((x) => x.state === 'delivered', { timeoutMs: 3000 });
      expect(d.payload.status).toBe('success');
      await expect(m.control.settlePayment(paid.processPaymentRequest.uuid)).rejects.toThrow(/already settled/);
    } finally {
      await m.close();
    }
  });

  it('sends per-client webhook URLs and signing keys from the client config', async () => {
    const m = startInProcess({
      clients: [{ clientId: 'acme', apiKey: 'k', webhookUrls: [receiverUrl], signingKey: 'acme-key' }],
    });
    try {
      const client = m.gql(m.control.issueToken('acme').token);
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
