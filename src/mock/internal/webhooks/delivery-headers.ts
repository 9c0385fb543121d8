/**
 * The headers of a webhook attempt: JSON content type, the signing key and client id headers of the ledger, the
 * delivery id (the same on every attempt, so receivers recognise duplicates) and, when opted in, the Standard
 * Webhooks headers, signed afresh with each attempt's own time as that specification asks.
 *
 * @module
 */
import { standardWebhookHeaders } from '../../../webhook/standard-webhooks.ts';
import type { Delivery } from './delivery-record.ts';

/**
 * The headers that say whose event a webhook is, the same on every attempt and every delivery of it: the signing key
 * and the client id. Pact message verification reports them as the message's metadata.
 *
 * @example
 * eventHeaders({ signingKey: 'x-webhook-signing-key', clientId: 'x-client-id' }, 'test-signing-key', 'test-client');
 */
export function eventHeaders(
  names: { readonly signingKey: string; readonly clientId: string },
  signingKey: string,
  clientId: string,
): Record<string, string> {
  return { [names.signingKey]: signingKey, [names.clientId]: clientId };
}

/** What the headers are made of. */
export interface DeliveryHeaderOptions {
  /** Value sent in the signing key header. */
  readonly signingKey: string;
  /** Header names: signing key, client id, delivery id. */
  readonly names: { readonly signingKey: string; readonly clientId: string; readonly deliveryId: string };
  readonly standardWebhooks?: { readonly secret: string } | undefined;
  /** Wall clock (ms) for `webhook-timestamp`: receivers check it against their own clock. */
  readonly wallClock: () => number;
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
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
      'user-agent': 'payment-contract-kit-mock',
      ...eventHeaders(names, options.signingKey, d.clientId),
      [names.deliveryId]: d.id,
    };
    if (standardWebhooks)
      Object.assign(
        headers,
        standardWebhookHeaders({
          secret: standardWebhooks.secret,
          id: d.id,
          timestamp: Math.floor(options.wallClock() / 1000),
          body: d.body,
        }),
      );
    return headers;
  };
}
