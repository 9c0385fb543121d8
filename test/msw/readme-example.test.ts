import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createPaymentClient } from '../../src/client/index.ts';
import { createMockHandlers } from '../../src/msw/index.ts';

// Your webhook handler, called in process with a real Request; the mock's retry rules apply to its answers.
const received: { uuid: string; status: string }[] = [];
async function onWebhook(request: Request): Promise<Response> {
  received.push(await request.json());
  return new Response(null, { status: 204 });
}
const mock = createMockHandlers({ webhookReceivers: [onWebhook], log: false }); // answers on http://127.0.0.1:4010
const server = setupServer(...mock.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mock.control.reset());
afterAll(async () => {
  server.close();
  await mock.close();
});

it('pays, and my webhook handler hears the outcome once the mock clock moves', async () => {
  const client = createPaymentClient({ baseUrl: mock.baseUrl, clientId: 'test-client', apiKey: 'test-api-key' });
  const credit_card = {
    full_name: 'Ada L',
    card_number: '4111111111111111',
    expiry_month: '12',
    expiry_year: '39',
    cvv: '123',
  };
  const contact = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
  const { fees } = await client.cardFee({ amount: 100, credit_card, contact });
  const payment_reference = { description: 'Order 42', reference_no: 'ORD-42' };
  const payment = await client.processPayment({ amount: 100, fees, credit_card, contact, payment_reference });
  await client.close();
  mock.control.advanceClock(mock.control.assumptions.settleDelayMs); // settles the payment: the webhook goes out
  await mock.control.waitForDelivery((d) => d.paymentUuid === payment.uuid && d.state === 'delivered');
  expect(received).toEqual([expect.objectContaining({ uuid: payment.uuid, status: 'success' })]);
});
