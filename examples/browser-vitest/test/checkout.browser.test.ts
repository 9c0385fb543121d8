// The kit's mock under msw's setupWorker, in Vitest's browser mode: this file runs in Chromium, so Vite picks the
// kit's browser build (no Node built-in in it) through the `browser` export condition.
import { setupWorker } from 'msw/browser';
import { createPaymentClient } from 'payment-contract-kit/client';
import { createMockHandlers } from 'payment-contract-kit/msw';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';

// An in-page webhook receiver: the mock posts each webhook to it as a Request, signed as the service signs them.
const received: { uuid: string; status: string }[] = [];
const mock = createMockHandlers({
  log: false,
  webhookReceivers: [
    async (request) => {
      received.push(await request.json());
      return new Response(null, { status: 204 });
    },
  ],
});
const worker = setupWorker(...mock.handlers);
const client = createPaymentClient({ baseUrl: mock.baseUrl, clientId: 'test-client', apiKey: 'test-api-key' });

const credit_card = {
  full_name: 'Ada L',
  card_number: '4111111111111111',
  expiry_month: '12',
  expiry_year: '39',
  cvv: '123',
};
const contact = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
const payment_reference = { description: 'Order 42', reference_no: 'ORD-42' };

// onUnhandledRequest 'error': a request the handlers do not answer fails the test instead of leaving the page.
beforeAll(() => worker.start({ quiet: true, onUnhandledRequest: 'error' }));
afterAll(() => worker.stop());
beforeEach(() => {
  mock.control.reset();
  received.length = 0;
});

it('runs in a browser, not in Node', () => {
  expect(typeof window).toBe('object');
  expect(navigator.serviceWorker.controller).not.toBeNull();
});

it('lists the fees for an amount, one per card type', async () => {
  const fees = await client.feesFor(100);
  expect(fees.length).toBeGreaterThan(1);
  expect(fees.every((fee) => fee.amount === 100 && fee.total_settlement_amount > 100)).toBe(true);
});

it('prices a card', async () => {
  const fee = await client.cardFee({ amount: 100, credit_card, contact });
  expect(fee).toMatchObject({ amount: 100, fees: 1.8, card_account_uid: expect.any(String) });
});

it('pays, settles on the mock clock and delivers the webhook to the in-page receiver', async () => {
  const { fees } = await client.cardFee({ amount: 100, credit_card, contact });
  const payment = await client.processPayment({ amount: 100, fees, credit_card, contact, payment_reference });
  expect((await mock.control.payments()).map((p) => p.uuid)).toEqual([payment.uuid]);
  mock.control.advanceClock(mock.control.assumptions.settleDelayMs);
  await mock.control.waitForDelivery((d) => d.paymentUuid === payment.uuid && d.state === 'delivered');
  expect(received).toEqual([expect.objectContaining({ uuid: payment.uuid, status: 'success' })]);
});

it('answers an invalid card in the validation shape', async () => {
  const token = await fetch(`${mock.baseUrl}/api/v2/accounting/token/generate-token`, {
    method: 'POST',
    headers: { 'x-client-id': 'test-client', 'x-api-key': 'test-api-key', accept: 'application/json' },
  }).then((r) => r.json());
  const response = await fetch(`${mock.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-jwt-token': token.data.token },
    body: JSON.stringify({
      query: /* GraphQL */ `mutation Pay($input: ProcessPaymentRequestInput!) {
        processPaymentRequest(input: $input) { uuid }
      }`,
      variables: {
        input: {
          amount: 100,
          fees: 1.8,
          credit_card: { ...credit_card, expiry_year: '20' },
          contact,
          payment_reference,
        },
      },
    }),
  });
  const body = await response.json();
  expect(body.errors[0].extensions).toMatchObject({
    category: 'validation',
    validation: { 'input.credit_card.expiry_year': [expect.any(String)] },
  });
});
