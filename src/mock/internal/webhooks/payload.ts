/**
 * Maps a settled payment to the payment status webhook payload (spec section 6): the payment's fields, the status
 * name as a plain string (not the GraphQL `status { name }` object), and the metadata echoed as given.
 *
 * @module
 */
import { errorLine } from '../../../internal/messages.ts';
import type { PaymentStatusWebhookPayload } from '../../../types/rest.ts';
import type { StoredPayment } from '../payments/state.ts';
import type { WebhookEvent } from './delivery-record.ts';

/** The fields of a stored payment the webhook payload is made of; `status` is the final status name. */
export type PaymentForWebhook = Pick<
  StoredPayment,
  'amount' | 'payment_gateway_fee' | 'paid_at' | 'uuid' | 'status'
> & {
  readonly metadata?: StoredPayment['metadata'];
};

/**
 * The webhook payload of a payment. `metadata` is present only when the payment was created with one, so a receiver
 * sees exactly what it sent.
 *
 * @example
 * dispatcher.enqueue({ clientId: payment.clientId, paymentUuid: payment.uuid, payload: paymentStatusPayload(payment) });
 */
export function paymentStatusPayload(payment: PaymentForWebhook): PaymentStatusWebhookPayload {
  const payload: PaymentStatusWebhookPayload = {
    amount: payment.amount,
    payment_gateway_fee: payment.payment_gateway_fee,
    paid_at: payment.paid_at,
    status: payment.status,
    uuid: payment.uuid,
  };
  if (payment.metadata !== undefined) payload.metadata = { ...payment.metadata };
  return payload;
}

/**
 * The webhook event of a settled payment. A payload that cannot be built (metadata whose getter throws) gives the
 * event without its metadata and the `problem`, so it is recorded as a failed delivery with what is known of it.
 *
 * @example
 * dispatcher.enqueue(settledEvent(payment));
 */
export function settledEvent(payment: StoredPayment): WebhookEvent {
  let payload: PaymentStatusWebhookPayload;
  let problem: string | undefined;
  try {
    payload = paymentStatusPayload(payment);
  } catch (error) {
    payload = paymentStatusPayload({ ...payment, metadata: undefined });
    problem = `the payload could not be built (${errorLine(error)})`;
  }
  const event = { clientId: payment.clientId, paymentUuid: payment.uuid, payload };
  return problem === undefined ? event : { ...event, problem };
}
