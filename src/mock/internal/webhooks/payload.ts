/**
 * Maps a settled payment to the payment status webhook payload (spec section 6): the payment's fields, the status
 * name as a plain string (not the GraphQL `status { name }` object), and the metadata echoed as given.
 *
 * @module
 */
import type { PaymentStatusWebhookPayload } from '../../../types/rest.ts';
import type { StoredPayment } from '../payments/state.ts';

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
