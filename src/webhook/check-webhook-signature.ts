/**
 * `checkWebhookSignature`: checks that a payment status webhook comes from the payment service for your client, and hands
 * back its typed payload.
 *
 * What the check proves: the service sends the signing key itself in a header (spec section 6), so a match proves the
 * sender knows the key. It does not bind the body (anyone who saw one request can send another body with the same
 * headers) and does not stop replays. Serve the endpoint over HTTPS only, and treat the payload as a hint to fetch
 * or reconcile where money is at stake; the opt-in Standard Webhooks signature (`standardWebhooks`) binds body, id
 * and time.
 *
 * @module
 */
import {
  DEFAULT_WEBHOOK_HEADER_NAMES,
  readWebhookHeaders,
  type WebhookHeaderNames,
} from '../contract/webhook-headers.ts';
import { checkPayload } from '../contract/webhook-payload.ts';
import { type HeadersLike, isHeadersLike } from '../internal/headers-like.ts';
import { kitMessage } from '../internal/messages.ts';
import type { PaymentStatusWebhookPayload } from '../types/rest.ts';
import { constantTimeEqual } from './internal/constant-time.ts';
import { type RawBody, rawBodyBytes } from './internal/raw-body.ts';
import { type CheckStandardWebhookSignatureInput, checkStandardWebhookSignature } from './standard-webhooks.ts';
import { failure, type WebhookVerificationFailure } from './verification-failure.ts';

// The header names by role and their defaults are the contract layer's; re-exported for this module's importers.
export { DEFAULT_WEBHOOK_HEADER_NAMES, type WebhookHeaderNames };

/** Input of {@link checkWebhookSignature}. */
export interface CheckWebhookSignatureInput {
  /** Request headers: Node `IncomingHttpHeaders`, Fetch `Headers`, or a plain record (any letter case). */
  readonly headers: HeadersLike;
  /** The raw request body as received: string, Buffer or Uint8Array, never a parsed object. */
  readonly rawBody: RawBody;
  /** Your webhook signing key; a list accepts any of them (while a key is being rotated). */
  readonly signingKey: string | readonly string[];
  /** Your client id; webhooks for another client are rejected. */
  readonly clientId: string;
  /** Header names, when yours differ from the kit's defaults. */
  readonly headerNames?: Partial<WebhookHeaderNames>;
  /** Also require a valid Standard Webhooks signature (when the sender is configured with a `whsec_` secret). */
  readonly standardWebhooks?: Omit<CheckStandardWebhookSignatureInput, 'headers' | 'rawBody'>;
}

/** An accepted webhook. */
export interface WebhookVerified {
  readonly ok: true;
  /** The payload, checked against spec section 6. */
  readonly payload: PaymentStatusWebhookPayload;
  /**
   * The delivery id: the same on every retry of one event, so store it and skip ids already handled (delivery is
   * at least once). It is the delivery id header; when a sender leaves that header out, it is
   * `<payload.uuid>:<payload.status>` instead, which also names one event (a payment reaches one final status once).
   */
  readonly deliveryId: string;
}

/** What {@link checkWebhookSignature} returns: the payload, or why the request was rejected. */
export type CheckWebhookSignatureResult = WebhookVerified | WebhookVerificationFailure;

function requireString(value: unknown, name: string, hint: string): void {
  if (typeof value !== 'string' || value.length === 0)
    throw new TypeError(
      kitMessage(
        `checkWebhookSignature: ${name} is required and must be a non-empty string, got ${value === '' ? 'an empty string' : typeof value}. ${hint}`,
      ),
    );
}

/**
 * Checks a payment status webhook's signature: both headers (compared in constant time), then the body. Expected failures
 * are returned as `{ ok: false, error: { code, message } }`; only misuse (no signing key, a parsed body) throws.
 *
 * @example
 * // node:http
 * const chunks: Buffer[] = [];
 * for await (const chunk of req) chunks.push(chunk);
 * const result = checkWebhookSignature({
 *   headers: req.headers, rawBody: Buffer.concat(chunks),
 *   signingKey: process.env.WEBHOOK_SIGNING_KEY!, clientId: process.env.CLIENT_ID!,
 * });
 * if (!result.ok) return res.writeHead(401).end(result.error.message);
 * await markPayment(result.payload.uuid, result.payload.status);
 * res.writeHead(204).end();
 */
export function checkWebhookSignature(input: CheckWebhookSignatureInput): CheckWebhookSignatureResult {
  if (!input || typeof input !== 'object')
    throw new TypeError(
      kitMessage('checkWebhookSignature: pass one object { headers, rawBody, signingKey, clientId }.'),
    );
  const keys = typeof input.signingKey === 'string' ? [input.signingKey] : input.signingKey;
  if (!Array.isArray(keys) || keys.length === 0) requireString(undefined, 'signingKey', signingKeyHint);
  for (const key of keys as readonly unknown[]) requireString(key, 'signingKey', signingKeyHint);
  requireString(input.clientId, 'clientId', 'Pass the client id the service operator issued to you.');
  if (!isHeadersLike(input.headers))
    throw new TypeError(
      kitMessage(
        `checkWebhookSignature: headers must be the request's headers (req.headers, request.headers or a plain object), got ${typeof input.headers}.`,
      ),
    );
  const body = rawBodyBytes(input.rawBody, 'checkWebhookSignature');
  const names = { ...DEFAULT_WEBHOOK_HEADER_NAMES, ...input.headerNames };

  const sent = readWebhookHeaders(input.headers, names);
  const sentKey = sent.signingKey;
  const sentClient = sent.clientId;
  if (!sentKey)
    return failure(
      'MISSING_SIGNING_KEY_HEADER',
      `the ${names.signingKey} header is missing or empty. The payment service sends your webhook signing key in it; if your deployment uses another header name, pass headerNames.signingKey, and check that no proxy strips the header.`,
      { header: names.signingKey },
    );
  if (!sentClient)
    return failure(
      'MISSING_CLIENT_ID_HEADER',
      `the ${names.clientId} header is missing or empty. The payment service sends your client id in it; if your deployment uses another header name, pass headerNames.clientId.`,
      { header: names.clientId },
    );
  // Every configured key is compared, so the time taken does not tell which one (or whether any) matched.
  let keyMatches = false;
  for (const key of keys as readonly string[]) if (constantTimeEqual(sentKey, key)) keyMatches = true;
  const clientMatches = constantTimeEqual(sentClient, input.clientId);
  if (!keyMatches)
    return failure(
      'WRONG_SIGNING_KEY',
      `the ${names.signingKey} header does not match your signing key. Check that signingKey is the webhook signing key the service operator issued for this client (not the API key), and that it has no stray whitespace.`,
      { header: names.signingKey },
    );
  if (!clientMatches)
    return failure(
      'WRONG_CLIENT_ID',
      `the ${names.clientId} header (${JSON.stringify(sentClient)}) does not match your clientId (${JSON.stringify(input.clientId)}). This webhook is for another client; check which client's URL it was sent to.`,
      { header: names.clientId },
    );

  if (input.standardWebhooks) {
    const signed = checkStandardWebhookSignature({ ...input.standardWebhooks, headers: input.headers, rawBody: body });
    if (!signed.ok) return signed;
  }

  const text = body.toString('utf8');
  if (text.trim().length === 0)
    return failure(
      'MALFORMED_JSON',
      'the webhook body is empty. Are you passing the raw request body? A framework that already consumed the stream leaves nothing to read; read the body raw before anything else does.',
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return failure(
      'MALFORMED_JSON',
      `the webhook body is not valid JSON (${(error as Error).message}). Are you passing the raw request body? Pass the bytes as received, not String(parsedBody).`,
    );
  }
  const checked = checkPayload(parsed);
  if (!checked.ok) return failure('INVALID_PAYLOAD', checked.message, { field: checked.field });
  const deliveryId = sent.deliveryId || `${checked.payload.uuid}:${checked.payload.status}`;
  return { ok: true, payload: checked.payload, deliveryId };
}

const signingKeyHint =
  'Pass the webhook signing key the service operator issued to you, e.g. signingKey: process.env.WEBHOOK_SIGNING_KEY; an unset environment variable is the usual cause.';
