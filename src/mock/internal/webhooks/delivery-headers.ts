/**
 * The headers of a webhook attempt: JSON content type, the contract layer's webhook headers (signing key, client id,
 * and the delivery id, the same on every attempt so receivers recognise duplicates) and, when opted in, the Standard
 * Webhooks headers, signed afresh with each attempt's own time as that specification asks.
 *
 * @module
 */
import { type WebhookHeaderNames, webhookHeaders } from '../../../contract/webhook-headers.ts';
import { kitMessage } from '../../../internal/messages.ts';
import { bytesOfBase64 } from '../../../internal/text-bytes.ts';
import type { Delivery } from './delivery-record.ts';

/** The opt-in Standard Webhooks signature: the secret, and the platform's HMAC to sign with. */
export interface StandardWebhooksSigning {
  /** `whsec_` + base64 (the prefix may be left off). */
  readonly secret: string;
  readonly hmacSha256Base64: (key: Uint8Array, text: string) => string;
}

/**
 * The three Standard Webhooks headers of one attempt (https://www.standardwebhooks.com, version 1.0.0):
 * `webhook-signature` is `v1,` + base64 HMAC-SHA-256 of `${id}.${timestamp}.${body}` under the secret's key bytes.
 * Made with the platform's HMAC so the mock signs in a browser too; tests check it with `checkStandardWebhookSignature`.
 *
 * @example
 * const signed = standardWebhookHeaders(signing, d.id, Math.floor(Date.now() / 1000), d.body);
 */
export function standardWebhookHeaders(
  signing: StandardWebhooksSigning,
  id: string,
  timestamp: number,
  body: string,
): Record<string, string> {
  const encoded = signing.secret.startsWith('whsec_') ? signing.secret.slice('whsec_'.length) : signing.secret;
  const key = bytesOfBase64(encoded);
  // resolveMockOptions checks the secret; this guards the kit's own callers.
  if (key === undefined || key.length === 0)
    throw new TypeError(kitMessage('standardWebhooksSecret must be "whsec_" + base64 key bytes.'));
  const signature = signing.hmacSha256Base64(key, `${id}.${timestamp}.${body}`);
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${signature}` };
}

/** What the headers are made of. */
export interface DeliveryHeaderOptions {
  /** Value sent in the signing key header. */
  readonly signingKey: string;
  /** Header names by role (the contract layer's webhook header names). */
  readonly names: WebhookHeaderNames;
  readonly standardWebhooks?: StandardWebhooksSigning | undefined;
  /** Wall clock (ms) for `webhook-timestamp`: receivers check it against their own clock. */
  readonly wallClock: () => number;
}

/**
 * The headers every attempt of `d` repeats: JSON content type, the client's signing key, client id and delivery id.
 * What a shared store keeps with a delivery; the Standard Webhooks headers are signed afresh per attempt.
 *
 * @example
 * const headers = repeatedDeliveryHeaders(signingKey, names, d);
 */
export function repeatedDeliveryHeaders(
  signingKey: string,
  names: WebhookHeaderNames,
  d: Pick<Delivery, 'id' | 'clientId' | 'payload'>,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json',
    'user-agent': 'payment-contract-kit-mock',
    ...webhookHeaders(names, { signingKey, clientId: d.clientId, deliveryId: d.id, payload: d.payload }),
  };
}

/**
 * Makes the header builder of one dispatcher.
 *
 * @example
 * const headersFor = createDeliveryHeaders({ signingKey, names, wallClock: Date.now });
 * transport.send(d.target, headersFor(d), d.body, signal);
 */
export function createDeliveryHeaders(options: DeliveryHeaderOptions): (d: Delivery) => Record<string, string> {
  const { names, standardWebhooks } = options;
  return (d) => {
    const headers = repeatedDeliveryHeaders(options.signingKey, names, d);
    if (standardWebhooks)
      Object.assign(
        headers,
        standardWebhookHeaders(standardWebhooks, d.id, Math.floor(options.wallClock() / 1000), d.body),
      );
    return headers;
  };
}
