import { describe, expect, expectTypeOf, it } from 'vitest';
import type { PaymentStatusWebhookPayload } from '../../../../src/types/rest.ts';
import { paymentStatusPayload } from '../../../support/mock-internals/webhooks.ts';

const payment = {
  amount: 100,
  payment_gateway_fee: 1.8,
  paid_at: '2026-01-01T00:00:00.000Z',
  uuid: 'pay-1',
  status: 'success',
  // Fields the stored payment has but the webhook must not leak.
  masked_card_number: '411111******1111',
  clientId: 'test-client',
};

describe('paymentStatusPayload', () => {
  it('maps the payment to the spec section 6 fields, status as a string', () => {
    expect(paymentStatusPayload(payment)).toEqual({
      amount: 100,
      payment_gateway_fee: 1.8,
      paid_at: '2026-01-01T00:00:00.000Z',
      status: 'success',
      uuid: 'pay-1',
    });
  });

  it('echoes metadata unchanged, nested values included', () => {
    const metadata = { order: 'A-1', nested: { n: [1, 2] }, flag: null };
    expect(paymentStatusPayload({ ...payment, metadata }).metadata).toEqual(metadata);
  });

  it('returns the generated payload type', () => {
    expectTypeOf(paymentStatusPayload(payment)).toEqualTypeOf<PaymentStatusWebhookPayload>();
  });
});
