import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../src/assumptions.ts';
import { exampleValues } from '../../src/pact/example-values.ts';
import { paymentStatusWebhookPayload, webhookMetadata } from '../../src/pact/webhook-matchers.ts';

describe('paymentStatusWebhookPayload', () => {
  it('has the payment fields with status as a string matcher, and no metadata unless given', () => {
    const payload = paymentStatusWebhookPayload() as unknown as Record<string, Record<string, unknown>>;
    expect(Object.keys(payload)).toEqual(['amount', 'payment_gateway_fee', 'paid_at', 'status', 'uuid']);
    expect(payload.status?.['pact:matcher:type']).toBe('type');
    expect(MatchersV3.reify(payload)).toEqual({
      amount: 100,
      payment_gateway_fee: 1.8,
      paid_at: exampleValues.paidAt,
      status: 'success',
      uuid: exampleValues.paymentUuid,
    });
  });

  it('keeps the metadata as given (echoed unchanged) and takes a literal status', () => {
    const payload = paymentStatusWebhookPayload({ status: 'failure', metadata: { order_id: 'o-1' } });
    expect(MatchersV3.reify(payload)).toMatchObject({ status: 'failure', metadata: { order_id: 'o-1' } });
    expect((payload as Record<string, unknown>).metadata).toEqual({ order_id: 'o-1' });
  });
});

describe('webhookMetadata', () => {
  it('uses the assumed header names as keys, values matched by type', () => {
    const metadata = webhookMetadata();
    const { signingKeyHeader, clientIdHeader } = defaultAssumptions.webhook;
    expect(Object.keys(metadata)).toEqual([signingKeyHeader, clientIdHeader]);
    expect(MatchersV3.reify(metadata)).toEqual({
      [signingKeyHeader]: exampleValues.signingKey,
      [clientIdHeader]: exampleValues.clientId,
    });
  });

  it('takes other header names and values', () => {
    expect(
      MatchersV3.reify(
        webhookMetadata({ headerNames: { signingKey: 'x-key', clientId: 'x-client' }, signingKey: 'k', clientId: 'c' }),
      ),
    ).toEqual({ 'x-key': 'k', 'x-client': 'c' });
  });
});
