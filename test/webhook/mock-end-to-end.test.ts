// The whole path as an integrator sees it: a payment on the mock settles, the mock's dispatcher delivers the webhook
// (retrying a failing receiver on the virtual clock), and a receiver built on checkWebhookSignature accepts it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { defaultAssumptions } from '../../src/assumptions.ts';
import { type MockServer, startMockServer, testCards } from '../../src/mock/index.ts';
import { checkWebhookSignature, type WebhookVerified } from '../../src/webhook/index.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const mutation = /* GraphQL */ `
  mutation ($input: ProcessPaymentRequestInput!) {
    processPaymentRequest(input: $input) { amount payment_gateway_fee paid_at status { name } uuid }
  }
`;

async function pay(mock: MockServer, metadata: Record<string, unknown>): Promise<string> {
  const { token } = mock.control.issueToken('test-client');
  const response = await fetch(`${mock.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', 'x-jwt-token': token },
    body: JSON.stringify({
      query: mutation,
      variables: {
        input: {
          amount: 100,
          fees: 1.8,
          credit_card: {
            full_name: 'Ada Lovelace',
            card_number: testCards.visaSuccess.number,
            expiry_month: '12',
            expiry_year: '39',
            cvv: '123',
          },
          contact: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.test' },
          payment_reference: { description: 'Order A-1', reference_no: 'A-1' },
          metadata,
        },
      },
    }),
  });
  const json = (await response.json()) as { data?: { processPaymentRequest: { uuid: string } }; errors?: unknown };
  expect(json.errors).toBeUndefined();
  return json.data!.processPaymentRequest.uuid;
}

it('a settled payment reaches a verifying receiver, through a 500 and a retry fired by advancing the clock', async () => {
  const accepted: WebhookVerified[] = [];
  let calls = 0;
  const receiver = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (calls++ === 0) return void res.writeHead(500).end('database busy');
    const result = checkWebhookSignature({
      headers: req.headers,
      rawBody: Buffer.concat(chunks),
      signingKey: 'test-signing-key',
      clientId: 'test-client',
    });
    if (!result.ok) return void res.writeHead(401).end(result.error.message);
    accepted.push(result);
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => receiver.close(resolve)));
  const mock = await startMockServer({
    port: 0,
    webhookUrls: [`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`],
  });
  cleanups.push(() => mock.close());

  const uuid = await pay(mock, { order: 'A-1' });
  mock.control.advanceClock(defaultAssumptions.settleDelayMs);
  const failedOnce = await mock.control.waitForDelivery((d) => d.paymentUuid === uuid && d.attempts.length === 1);
  expect(failedOnce.attempts[0]!.status).toBe(500);
  mock.control.advanceClock(defaultAssumptions.webhook.retry.maxDelayMs);
  const delivered = await mock.control.waitForDelivery((d) => d.paymentUuid === uuid && d.state === 'delivered');

  expect(accepted).toHaveLength(1);
  expect(accepted[0]!.deliveryId).toBe(delivered.id);
  expect(accepted[0]!.payload).toEqual({
    amount: 100,
    payment_gateway_fee: 1.8,
    paid_at: expect.any(String),
    status: defaultAssumptions.statusNames.success,
    uuid,
    metadata: { order: 'A-1' },
  });
});

it('with standardWebhooksSecret, the mock also signs deliveries that checkWebhookSignature checks over the raw body', async () => {
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const results: ReturnType<typeof checkWebhookSignature>[] = [];
  const receiver = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks);
    const common = { headers: req.headers, signingKey: 'test-signing-key', clientId: 'test-client' };
    results.push(checkWebhookSignature({ ...common, rawBody, standardWebhooks: { secret } }));
    // The same headers over a different body must fail: the signature binds the bytes.
    const swapped = Buffer.from(rawBody.toString('utf8').replace('"success"', '"failure"'));
    results.push(checkWebhookSignature({ ...common, rawBody: swapped, standardWebhooks: { secret } }));
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => receiver.close(resolve)));
  const mock = await startMockServer({
    port: 0,
    log: false,
    standardWebhooksSecret: secret,
    webhookUrls: [`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`],
  });
  cleanups.push(() => mock.close());

  const uuid = await pay(mock, { order: 'B-2' });
  mock.control.advanceClock(defaultAssumptions.settleDelayMs);
  await mock.control.waitForDelivery((d) => d.paymentUuid === uuid && d.state === 'delivered');

  expect(results[0]?.ok).toBe(true);
  expect(results[1]).toMatchObject({ ok: false, error: { code: 'SIGNATURE_MISMATCH' } });
});

it('rejects a Standard Webhooks secret without the whsec_ prefix, naming the option', async () => {
  await expect(startMockServer({ port: 0, standardWebhooksSecret: 'not-a-secret' })).rejects.toThrow(
    /standardWebhooksSecret/,
  );
});
