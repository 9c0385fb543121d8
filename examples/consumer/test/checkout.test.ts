// Our checkout against the kit's mock over real HTTP, and the webhook that follows, verified by our receiver. The
// mock's control API (under /__pck/) moves its clock, so settlement needs no real wait.
import { describe, expect, inject, it } from 'vitest';
import { accessToken, checkout, graphqlClient, visaFee } from '../src/checkout.ts';
import { service } from './service.ts';

const mockUrl = inject('mockUrl');
const receiverUrl = inject('receiverUrl');
const card = {
  full_name: 'Ada Lovelace',
  card_number: '4111111111111111',
  expiry_month: '12',
  expiry_year: '39',
  cvv: '123',
};
const contact = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };

async function control(path: string, body: unknown) {
  const res = await fetch(`${mockUrl}/__pck/${path}`, { method: 'POST', body: JSON.stringify(body) });
  expect(res.status, `/__pck/${path}`).toBe(200);
  return res.json() as Promise<Record<string, unknown>>;
}

describe('checkout', () => {
  it('pays from a card account and records the verified webhook outcome', async () => {
    const client = graphqlClient(mockUrl, await accessToken({ baseUrl: mockUrl, ...service }));
    expect(await visaFee(client, 100)).toBeGreaterThan(0);
    const payment = await checkout(client, { amount: 100, card, contact, orderId: 'ORD-1' });
    expect(payment.status.name).toBe('processing');

    await control('clock/advance', { ms: 60_000 });
    const delivery = await control('deliveries/wait', {
      paymentUuid: payment.uuid,
      state: 'delivered',
      timeoutMs: 10_000,
    });
    expect(delivery.delivery).toMatchObject({ paymentUuid: payment.uuid, state: 'delivered' });
    const recorded = await fetch(`${receiverUrl}/payments/${payment.uuid}`);
    expect(await recorded.json()).toEqual({ outcome: 'success' });
  });

  it('the receiver refuses a notification with the wrong signing key', async () => {
    const res = await fetch(`${receiverUrl}/webhooks/payment-status`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-webhook-signing-key': 'forged',
        'x-client-id': service.clientId,
      },
      body: JSON.stringify({ uuid: 'not-a-payment', status: 'success' }),
    });
    expect(res.status).toBe(401);
    expect(await res.text()).toBe('WRONG_SIGNING_KEY');
  });
});
