// The consumer under test in the webhook message contract: a receiver's handler, as a team would write it. It
// checks the two headers against the values it stores (spec 6), then reads the payload. The kit's own receiver
// helpers live in payment-contract-kit/webhook; this handler stays minimal so the contract shows what a receiver
// relies on.
import { timingSafeEqual } from 'node:crypto';
import { defaultAssumptions } from '../../../src/assumptions.ts';
import type { PaymentStatusWebhookPayload } from '../../../src/index.ts';

export interface ReceiverConfig {
  signingKey: string;
  clientId: string;
}

export type HandleResult =
  | { ok: true; update: Pick<PaymentStatusWebhookPayload, 'uuid' | 'status' | 'amount' | 'metadata'> }
  | { ok: false; reason: string };

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** Handles one payment status webhook given its headers (message metadata) and JSON payload. */
export function handlePaymentStatusWebhook(
  headers: Readonly<Record<string, unknown>>,
  payload: unknown,
  config: ReceiverConfig,
): HandleResult {
  const names = defaultAssumptions.webhook;
  const key = headers[names.signingKeyHeader];
  const client = headers[names.clientIdHeader];
  if (typeof key !== 'string' || !same(key, config.signingKey)) return { ok: false, reason: 'signing key' };
  if (typeof client !== 'string' || !same(client, config.clientId)) return { ok: false, reason: 'client id' };
  const p = payload as PaymentStatusWebhookPayload;
  if (typeof p?.uuid !== 'string' || typeof p.status !== 'string' || typeof p.amount !== 'number')
    return { ok: false, reason: 'payload' };
  return { ok: true, update: { uuid: p.uuid, status: p.status, amount: p.amount, metadata: p.metadata } };
}
