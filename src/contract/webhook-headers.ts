/**
 * The payment status webhook's headers (spec 6: one carries the signing key, one the client id; the names are "not
 * shown", so they come from the ledger's `webhook` keys, and the delivery id header is the kit's own). One set of
 * role names (`signingKey`, `clientId`, `deliveryId`), one builder and one reader: the mock's deliveries and Pact
 * messages, `buildTestWebhookRequest`, `verifyWebhook`, the Pact metadata matchers and `verify`'s message check all
 * go through them.
 *
 * @module
 */
import { type Assumptions, defaultAssumptions } from '../assumptions.ts';
import { type HeadersLike, readHeader } from '../internal/headers-like.ts';

/** Header names of the payment status webhook, by role. The service does not publish them; see the ledger. */
export interface WebhookHeaderNames {
  /** Header holding the webhook signing key; default `x-webhook-signing-key`. */
  readonly signingKey: string;
  /** Header holding the client id; default `x-client-id`. */
  readonly clientId: string;
  /** Header holding the delivery id (the kit's mock; stable across retries); default `x-webhook-delivery-id`. */
  readonly deliveryId: string;
}

/**
 * The header names a ledger's `webhook` section gives (`signingKeyHeader` and its siblings), by role: the one place
 * the ledger's key names meet the roles.
 *
 * @example
 * const names = webhookHeaderNamesOf(resolved.assumptions.webhook);
 */
export function webhookHeaderNamesOf(
  ledger: Pick<Assumptions['webhook'], 'signingKeyHeader' | 'clientIdHeader' | 'deliveryIdHeader'>,
): WebhookHeaderNames {
  return {
    signingKey: ledger.signingKeyHeader,
    clientId: ledger.clientIdHeader,
    deliveryId: ledger.deliveryIdHeader,
  };
}

/** The kit's default header names (ASSUMPTIONS.md), as the kit's mock sends them. */
export const DEFAULT_WEBHOOK_HEADER_NAMES: WebhookHeaderNames = webhookHeaderNamesOf(defaultAssumptions.webhook);

/** The values of a webhook's own headers; `V` is a string on the wire, a matcher in a Pact message's metadata. */
export interface WebhookHeaderValues<V = string> {
  readonly signingKey: V;
  readonly clientId: V;
  /** Left out where one event stands for every delivery of it (a Pact message). */
  readonly deliveryId?: V;
}

/**
 * Builds the webhook's own headers under `names`: signing key, client id and, when given, the delivery id.
 *
 * @example
 * webhookHeaders(DEFAULT_WEBHOOK_HEADER_NAMES, { signingKey: 'test-signing-key', clientId: 'test-client' });
 * // { 'x-webhook-signing-key': 'test-signing-key', 'x-client-id': 'test-client' }
 */
export function webhookHeaders<V = string>(
  names: Pick<WebhookHeaderNames, 'signingKey' | 'clientId'> & Partial<Pick<WebhookHeaderNames, 'deliveryId'>>,
  values: WebhookHeaderValues<V>,
): Record<string, V> {
  const headers: Record<string, V> = { [names.signingKey]: values.signingKey, [names.clientId]: values.clientId };
  if (values.deliveryId !== undefined && names.deliveryId !== undefined) headers[names.deliveryId] = values.deliveryId;
  return headers;
}

/** What {@link readWebhookHeaders} found: each header's value, `undefined` when absent. */
export interface ReadWebhookHeaders {
  readonly signingKey: string | undefined;
  readonly clientId: string | undefined;
  readonly deliveryId: string | undefined;
}

/**
 * Reads the webhook's own headers from a request's headers (Node, Fetch `Headers` or a plain record in any letter
 * case). A repeated header reads as its values joined with `, `, so a duplicated secret never equals one key.
 *
 * @example
 * const { signingKey, clientId } = readWebhookHeaders(req.headers, DEFAULT_WEBHOOK_HEADER_NAMES);
 */
export function readWebhookHeaders(headers: HeadersLike, names: WebhookHeaderNames): ReadWebhookHeaders {
  return {
    signingKey: readHeader(headers, names.signingKey),
    clientId: readHeader(headers, names.clientId),
    deliveryId: readHeader(headers, names.deliveryId),
  };
}

/**
 * A webhook receiver called in process: a consumer's handler in the Fetch API's terms. It gets a real `Request`
 * carrying the headers and body an HTTP delivery sends; its `Response` status counts as the receiver's answer (2xx
 * delivered, 410 gone, 429/503 with `Retry-After`, anything else retried); a thrown error or rejected promise is a
 * failed attempt, retried too.
 *
 * @example
 * const receiver: WebhookReceiver = async (request) => new Response(null, { status: 204 });
 */
export type WebhookReceiver = (request: Request) => Response | Promise<Response>;
