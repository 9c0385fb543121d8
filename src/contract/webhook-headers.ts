/**
 * The payment status webhook's own headers (spec 6: one carries the signing key, one the client id; the names are
 * "not shown", so they come from the ledger's `webhook` keys, and the delivery id header is the kit's own), listed
 * once in {@link webhookHeaderRoles}: for each role its ledger key, how its value is made from one delivery, and
 * what the checker needs to recognise it. One builder ({@link webhookHeaders}) and one reader
 * ({@link readWebhookHeaders}) follow the table: the mock's deliveries and Pact messages, `buildTestWebhookRequest`,
 * `checkWebhookSignature`, the Pact metadata matchers and the checker (proxy, `verify`) all go through them, so a new
 * header is a row here and its ledger key.
 *
 * @module
 */
import { type Assumptions, defaultAssumptions } from '../assumptions.ts';
import { type HeadersLike, readHeader } from '../internal/headers-like.ts';
import type { PaymentStatusWebhookPayload } from '../types/rest.ts';

/** Header names of the payment status webhook, by role. The service does not publish them; see the ledger. */
export interface WebhookHeaderNames {
  /** Header holding the webhook signing key; default `x-webhook-signing-key`. */
  readonly signingKey: string;
  /** Header holding the client id; default `x-client-id`. */
  readonly clientId: string;
  /** Header holding the delivery id (the kit's mock; stable across retries); default `x-webhook-delivery-id`. */
  readonly deliveryId: string;
}

/** A role of the webhook's own headers: `signingKey`, `clientId`, `deliveryId`. */
export type WebhookHeaderRole = keyof WebhookHeaderNames;

/** What a webhook's headers are made from: one event, as one delivery sends it. */
export interface WebhookHeaderSource {
  /** The signing key of the client the event is for. */
  readonly signingKey: string;
  readonly clientId: string;
  /** Left out where one event stands for every delivery of it (a Pact message). */
  readonly deliveryId?: string | undefined;
  /** The payload the body carries. */
  readonly payload?: PaymentStatusWebhookPayload | undefined;
}

/** The ledger's keys under `webhook` that name a header. */
type HeaderLedgerKey = {
  [K in keyof Assumptions['webhook']]: K extends `${string}Header` ? K : never;
}[keyof Assumptions['webhook']];

/** One row of {@link webhookHeaderRoles}. */
export interface WebhookHeaderRow {
  /** The ledger key (`assumptions.webhook.<key>`) holding the header's name. */
  readonly ledgerKey: HeaderLedgerKey;
  /** The value sent, from the delivery; undefined leaves the header out. */
  readonly value: (source: WebhookHeaderSource) => string | undefined;
  /** What the header holds, in the checker's words ("signing key"). */
  readonly label: string;
  /** Header names that look like this one, so the checker can name the header a service uses instead. */
  readonly looksLike: RegExp;
  /**
   * Set for a header the spec does not promise (the kit's own assumption): the checker reports its absence as an
   * assumption to revisit with this advice, instead of as a contract drift.
   */
  readonly whenAbsent?: string;
}

/**
 * The webhook's own headers, in the order they are sent and checked: the one list every builder, reader and check
 * follows.
 */
export const webhookHeaderRoles: Readonly<Record<WebhookHeaderRole, WebhookHeaderRow>> = {
  signingKey: {
    ledgerKey: 'signingKeyHeader',
    value: (s) => s.signingKey,
    label: 'signing key',
    looksLike: /(sign|secret|webhook-key|hmac)/i,
  },
  clientId: {
    ledgerKey: 'clientIdHeader',
    value: (s) => s.clientId,
    label: 'client id',
    looksLike: /client/i,
  },
  deliveryId: {
    ledgerKey: 'deliveryIdHeader',
    value: (s) => s.deliveryId,
    label: 'delivery id',
    looksLike: /(delivery|event-id|webhook-id|idempot|request-id)/i,
    whenAbsent:
      'The service sends no delivery id the kit can see: recognise a duplicate webhook by its uuid and status in your receiver.',
  },
};

const roles = Object.keys(webhookHeaderRoles) as readonly WebhookHeaderRole[];

/**
 * The header names a ledger's `webhook` section gives (`signingKeyHeader` and its siblings), by role: the one place
 * the ledger's key names meet the roles.
 *
 * @example
 * const names = webhookHeaderNamesOf(resolved.assumptions.webhook);
 */
export function webhookHeaderNamesOf(ledger: Pick<Assumptions['webhook'], HeaderLedgerKey>): WebhookHeaderNames {
  const names = {} as Record<WebhookHeaderRole, string>;
  for (const role of roles) names[role] = ledger[webhookHeaderRoles[role].ledgerKey];
  return names;
}

/** The kit's default header names (ASSUMPTIONS.md), as the kit's mock sends them. */
export const DEFAULT_WEBHOOK_HEADER_NAMES: WebhookHeaderNames = webhookHeaderNamesOf(defaultAssumptions.webhook);

/**
 * Builds the webhook's own headers under `names`, each role's value made from `source` as its row says; a role
 * whose value is undefined (the delivery id of a Pact message) or whose name is not given is left out.
 *
 * @example
 * webhookHeaders(DEFAULT_WEBHOOK_HEADER_NAMES, { signingKey: 'test-signing-key', clientId: 'test-client' });
 * // { 'x-webhook-signing-key': 'test-signing-key', 'x-client-id': 'test-client' }
 */
export function webhookHeaders(
  names: Partial<WebhookHeaderNames>,
  source: WebhookHeaderSource,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const role of roles) {
    const name = names[role];
    const value = webhookHeaderRoles[role].value(source);
    if (name !== undefined && value !== undefined) headers[name] = value;
  }
  return headers;
}

/** What {@link readWebhookHeaders} found: each role's header value, `undefined` when absent. */
export type ReadWebhookHeaders = { readonly [R in WebhookHeaderRole]: string | undefined };

/**
 * Reads the webhook's own headers from a request's headers (Node, Fetch `Headers` or a plain record in any letter
 * case). A repeated header reads as its values joined with `, `, so a duplicated secret never equals one key.
 *
 * @example
 * const { signingKey, clientId } = readWebhookHeaders(req.headers, DEFAULT_WEBHOOK_HEADER_NAMES);
 */
export function readWebhookHeaders(headers: HeadersLike, names: WebhookHeaderNames): ReadWebhookHeaders {
  const found = {} as Record<WebhookHeaderRole, string | undefined>;
  for (const role of roles) found[role] = readHeader(headers, names[role]);
  return found;
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
