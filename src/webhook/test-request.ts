/**
 * `buildTestWebhookRequest`: a genuine payment status webhook request for a receiver's own unit tests, the way
 * stripe-node's `generateTestHeaderString` builds signed test events.
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { defaultAssumptions } from '../assumptions.ts';
import { DEFAULT_WEBHOOK_HEADER_NAMES, type WebhookHeaderNames, webhookHeaders } from '../contract/webhook-headers.ts';
import { kitMessage } from '../internal/messages.ts';
import type { PaymentStatusWebhookPayload } from '../types/rest.ts';
import { standardWebhookHeaders } from './standard-webhooks.ts';

/** Input of {@link buildTestWebhookRequest}. */
export interface BuildTestWebhookRequestInput {
  /** Payload fields; anything left out gets a sample value (a successful payment of 100.00 paid now). */
  readonly payload?: Partial<PaymentStatusWebhookPayload>;
  /** Signing key to put in the signing key header. */
  readonly signingKey: string;
  /** Client id to put in the client id header. */
  readonly clientId: string;
  /** Header names, when yours differ from the kit's defaults. */
  readonly headerNames?: Partial<WebhookHeaderNames>;
  /** Delivery id header value; default a fresh `whd_test_…` id. */
  readonly deliveryId?: string;
  /** Also sign with Standard Webhooks; `timestamp` in seconds (default now), `id` defaults to the delivery id. */
  readonly standardWebhooks?: { readonly secret: string; readonly id?: string; readonly timestamp?: number };
}

/** A webhook request: send `body` with `headers` (POST) to the receiver under test. */
export interface TestWebhookRequest {
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON body; the exact bytes any signature covers. */
  readonly body: string;
  /** The payload `body` encodes. */
  readonly payload: PaymentStatusWebhookPayload;
}

/**
 * Builds a request that {@link checkWebhookSignature} accepts with the same key and client id.
 *
 * @example
 * const { headers, body } = buildTestWebhookRequest({
 *   signingKey: 'test-signing-key', clientId: 'test-client', payload: { status: 'failure', metadata: { order: 'A-1' } },
 * });
 * const res = await fetch('http://127.0.0.1:3000/webhooks', { method: 'POST', headers, body });
 */
export function buildTestWebhookRequest(input: BuildTestWebhookRequestInput): TestWebhookRequest {
  for (const name of ['signingKey', 'clientId'] as const)
    if (typeof input?.[name] !== 'string' || input[name].length === 0)
      throw new TypeError(
        kitMessage(
          `buildTestWebhookRequest: ${name} is required and must be a non-empty string (the value your receiver expects).`,
        ),
      );
  const names = { ...DEFAULT_WEBHOOK_HEADER_NAMES, ...input.headerNames };
  const payload: PaymentStatusWebhookPayload = {
    amount: 100,
    payment_gateway_fee: 1.8,
    paid_at: new Date().toISOString(),
    status: defaultAssumptions.statusNames.success,
    uuid: randomUUID(),
    ...input.payload,
  };
  const body = JSON.stringify(payload);
  const deliveryId = input.deliveryId ?? `whd_test_${randomUUID().replaceAll('-', '')}`;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...webhookHeaders(names, { signingKey: input.signingKey, clientId: input.clientId, deliveryId, payload }),
  };
  if (input.standardWebhooks)
    Object.assign(
      headers,
      standardWebhookHeaders({
        secret: input.standardWebhooks.secret,
        id: input.standardWebhooks.id ?? deliveryId,
        timestamp: input.standardWebhooks.timestamp ?? Math.floor(Date.now() / 1000),
        body,
      }),
    );
  return { headers, body, payload };
}
