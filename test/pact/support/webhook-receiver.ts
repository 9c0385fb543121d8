// The consumer under test in the webhook message contract: a receiver's handler, as a team would write it with the
// kit's `checkWebhookSignature` (payment-contract-kit/webhook): both headers checked against the stored values (spec 6),
// then the payload. Pact hands the message over as parsed JSON, so the handler re-serialises it as the raw body.
import type { PaymentStatusWebhookPayload } from '../../../src/index.ts';
import { checkWebhookSignature } from '../../../src/webhook/index.ts';

export interface ReceiverConfig {
  signingKey: string;
  clientId: string;
}

export type HandleResult =
  | { ok: true; update: Pick<PaymentStatusWebhookPayload, 'uuid' | 'status' | 'amount' | 'metadata'> }
  | { ok: false; reason: string };

/** Handles one payment status webhook given its headers (message metadata) and JSON payload. */
export function handlePaymentStatusWebhook(
  headers: Readonly<Record<string, unknown>>,
  payload: unknown,
  config: ReceiverConfig,
): HandleResult {
  const stringHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (typeof value === 'string') stringHeaders[name] = value;
  const result = checkWebhookSignature({
    headers: stringHeaders,
    rawBody: JSON.stringify(payload),
    signingKey: config.signingKey,
    clientId: config.clientId,
  });
  if (!result.ok) return { ok: false, reason: result.error.message };
  const { uuid, status, amount, metadata } = result.payload;
  return { ok: true, update: { uuid, status, amount, metadata } };
}
