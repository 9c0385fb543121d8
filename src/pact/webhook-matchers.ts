/**
 * Matchers for the payment status webhook (spec 6) as a Pact asynchronous message: the payload as contents and
 * the two headers as message metadata.
 *
 * @module
 */
import type { Metadata } from '@pact-foundation/pact';
import { MatchersV3 } from '@pact-foundation/pact';
import { DEFAULT_WEBHOOK_HEADER_NAMES, type WebhookHeaderNames, webhookHeaders } from '../contract/webhook-headers.ts';
import type { PaymentStatusWebhookPayload } from '../types/rest.ts';
import { exampleValues } from './example-values.ts';
import { isoTimestamp, money, text } from './internal/primitives.ts';
import type { AnyMatcher, Template } from './template.ts';

/**
 * Example values and overrides of a webhook payload.
 *
 * @example
 * const failed: WebhookPayloadExample = { status: MatchersV3.string('failure'), metadata: { order_id: 'order-1001' } };
 */
export interface WebhookPayloadExample {
  /**
   * Final status name. Defaults to a string matcher with the kit's success name as example: the spec gives the
   * final status as a string and does not publish the names (ASSUMPTIONS.md `statusNames`).
   */
  status?: string | AnyMatcher;
  amount?: number;
  payment_gateway_fee?: number;
  paid_at?: string;
  uuid?: string;
  /**
   * The metadata object sent with processPaymentRequest. Taken as given (literals stay literals): the service
   * echoes it unchanged (spec 2.6, 6), so the values are the consumer's own.
   */
  metadata?: Record<string, unknown>;
}

/**
 * The webhook payload (spec 6): the payment's fields with `status` as a string, plus the echoed metadata. Money
 * fields are numbers, `paid_at` an ISO 8601 timestamp, `uuid` the payment's uuid (same choices as `payment()`).
 *
 * @example
 * pact.addAsynchronousInteraction()
 *   .given(providerStates.paymentFinalised, { clientId: 'test-client', outcome: 'success', amount: 100, metadata: { order_id: 'order-1001' } })
 *   .expectsToReceive('a payment status update for a successful payment', (m) =>
 *     m.withJSONContent(paymentStatusWebhookPayload({ metadata: { order_id: 'order-1001' } })).withMetadata(webhookMetadata()))
 */
export function paymentStatusWebhookPayload(
  example: WebhookPayloadExample = {},
): Template<PaymentStatusWebhookPayload> {
  const body: Record<string, unknown> = {
    amount: money(example.amount ?? 100),
    payment_gateway_fee: money(example.payment_gateway_fee ?? 1.8),
    paid_at: isoTimestamp(example.paid_at ?? exampleValues.paidAt),
    status: example.status ?? text(exampleValues.statusSuccess),
    uuid: MatchersV3.uuid(example.uuid ?? exampleValues.paymentUuid),
  };
  if (example.metadata !== undefined) body.metadata = example.metadata;
  return body as Template<PaymentStatusWebhookPayload>;
}

/**
 * Header names and example values of the webhook's two headers.
 *
 * @example
 * webhookMetadata({ headerNames: { signingKey: 'x-signature-key' }, clientId: 'checkout-web' } satisfies WebhookMetadataOptions);
 */
export interface WebhookMetadataOptions {
  /** Header names, when yours differ from the kit's defaults (the same option as `checkWebhookSignature`'s). */
  headerNames?: Partial<Pick<WebhookHeaderNames, 'signingKey' | 'clientId'>>;
  signingKey?: string;
  clientId?: string;
}

/**
 * The webhook's headers as message metadata (spec 6: one carries the signing key, one the client id). The names
 * are the kit's assumptions (the spec does not publish them) and literal keys; the values are any string, since
 * both are per-client secrets and ids issued out of band.
 *
 * @example
 * m.withJSONContent(paymentStatusWebhookPayload()).withMetadata(webhookMetadata({ clientId: 'test-client' }))
 */
export function webhookMetadata(options: WebhookMetadataOptions = {}): Metadata {
  // Every role of the contract's list; the delivery id has no value here (one message stands for every delivery).
  const names = {
    ...DEFAULT_WEBHOOK_HEADER_NAMES,
    signingKey: options.headerNames?.signingKey ?? DEFAULT_WEBHOOK_HEADER_NAMES.signingKey,
    clientId: options.headerNames?.clientId ?? DEFAULT_WEBHOOK_HEADER_NAMES.clientId,
  };
  // The names are literal keys; each value is any string (text()), with the example the kit's mock would send.
  const example = webhookHeaders(names, {
    signingKey: options.signingKey ?? exampleValues.signingKey,
    clientId: options.clientId ?? exampleValues.clientId,
    payload: {
      amount: 100,
      payment_gateway_fee: 1.8,
      paid_at: exampleValues.paidAt,
      status: exampleValues.statusSuccess,
      uuid: exampleValues.paymentUuid,
    },
  });
  return Object.fromEntries(Object.entries(example).map(([name, value]) => [name, text(value)]));
}
