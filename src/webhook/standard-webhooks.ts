/**
 * Opt-in Standard Webhooks signatures (https://www.standardwebhooks.com, spec version 1.0.0): `webhook-id`,
 * `webhook-timestamp` and `webhook-signature` = `v1,` + base64 HMAC-SHA256 over `${id}.${timestamp}.${body}`, keyed
 * with the base64 secret after its `whsec_` prefix.
 *
 * Unlike the service's own signing-key header, this signature binds the body, the id and the time, so a receiver that
 * checks it (and remembers ids within the tolerance) rejects tampered bodies and replays.
 *
 * @module
 */
import { Buffer } from 'node:buffer';
import { createHmac } from 'node:crypto';
import { type HeadersLike, isHeadersLike, readHeader } from '../internal/headers-like.ts';
import { kitMessage } from '../internal/messages.ts';
import { constantTimeEqual } from './internal/constant-time.ts';
import { type RawBody, rawBodyBytes } from './internal/raw-body.ts';
import { failure, type WebhookVerificationFailure } from './verification-failure.ts';

/** Header names fixed by the Standard Webhooks specification. */
export const STANDARD_WEBHOOKS_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;

/** Default tolerance between `webhook-timestamp` and the receiver's clock: 5 minutes, as the specification suggests. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

const SECRET_PREFIX = 'whsec_';

function secretKey(secret: unknown, fn: string): Buffer {
  if (typeof secret !== 'string' || secret.length === 0)
    throw new TypeError(
      kitMessage(
        `${fn}: secret must be the Standard Webhooks secret ("whsec_" + base64), got ${secret === '' ? 'an empty string' : typeof secret}.`,
      ),
    );
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0)
    throw new TypeError(
      kitMessage(
        `${fn}: the secret holds no key bytes after the "whsec_" prefix; pass the full secret, e.g. "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw".`,
      ),
    );
  return key;
}

/** What {@link signStandardWebhook} signs. */
export interface StandardWebhookSignInput {
  /** Secret, `whsec_` + base64 (the prefix may be left off). */
  readonly secret: string;
  /** Message id (`webhook-id`); the same on every retry. Must not contain a `.`. */
  readonly id: string;
  /** Attempt time in whole seconds since the epoch (`webhook-timestamp`). */
  readonly timestamp: number;
  /** The exact body bytes sent. */
  readonly body: RawBody;
}

/**
 * The `webhook-signature` value (`v1,<base64>`) for one attempt.
 *
 * @example
 * signStandardWebhook({ secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', id: 'msg_1', timestamp: 1614265330, body: '{}' });
 */
export function signStandardWebhook(input: StandardWebhookSignInput): string {
  if (!Number.isInteger(input.timestamp))
    throw new TypeError(
      kitMessage(`signStandardWebhook: timestamp must be whole seconds since the epoch, got ${input.timestamp}.`),
    );
  // The id and timestamp are delimited by full stops; an id with a "." could shift bytes between the parts.
  if (input.id.includes('.'))
    throw new TypeError(kitMessage(`signStandardWebhook: id must not contain ".", got "${input.id}".`));
  return v1Signature(secretKey(input.secret, 'signStandardWebhook'), input.id, input.timestamp, input.body);
}

function v1Signature(key: Buffer, id: string, timestamp: number, body: RawBody): string {
  const mac = createHmac('sha256', key)
    .update(`${id}.${timestamp}.`)
    .update(rawBodyBytes(body, 'signStandardWebhook'))
    .digest('base64');
  return `v1,${mac}`;
}

/**
 * The three Standard Webhooks headers for one attempt.
 *
 * @example
 * const headers = standardWebhookHeaders({ secret, id: deliveryId, timestamp: Math.floor(Date.now() / 1000), body });
 */
export function standardWebhookHeaders(input: StandardWebhookSignInput): Record<string, string> {
  return {
    [STANDARD_WEBHOOKS_HEADERS.id]: input.id,
    [STANDARD_WEBHOOKS_HEADERS.timestamp]: String(input.timestamp),
    [STANDARD_WEBHOOKS_HEADERS.signature]: signStandardWebhook(input),
  };
}

/** Input of {@link checkStandardWebhookSignature}. */
export interface CheckStandardWebhookSignatureInput {
  /** Request headers: Node `IncomingHttpHeaders`, Fetch `Headers`, or a plain record. */
  readonly headers: HeadersLike;
  /** The raw request body, byte for byte as received. */
  readonly rawBody: RawBody;
  /** Secret, `whsec_` + base64. */
  readonly secret: string;
  /** Largest accepted distance between `webhook-timestamp` and now, in seconds; default 300 (5 minutes). */
  readonly toleranceSeconds?: number;
  /** The receiver's clock in milliseconds since the epoch; tests inject one. Defaults to `Date.now`. */
  readonly now?: () => number;
}

/** A Standard Webhooks signature that checked out. */
export interface StandardWebhookVerified {
  readonly ok: true;
  /** `webhook-id`: remember it for the tolerance window to reject replays and duplicates. */
  readonly id: string;
  /** `webhook-timestamp`, whole seconds since the epoch. */
  readonly timestamp: number;
}

/**
 * Checks the Standard Webhooks signature of a request over its raw bytes. Returns a value for every expected
 * failure; throws only on misuse (no secret, a body that is not raw).
 *
 * @example
 * const result = checkStandardWebhookSignature({ headers: req.headers, rawBody, secret: process.env.WEBHOOK_SECRET! });
 * if (!result.ok) return res.writeHead(400).end(result.error.message);
 */
export function checkStandardWebhookSignature(
  input: CheckStandardWebhookSignatureInput,
): StandardWebhookVerified | WebhookVerificationFailure {
  const fn = 'checkStandardWebhookSignature';
  if (!input || !isHeadersLike(input.headers))
    throw new TypeError(kitMessage(`${fn}: pass { headers, rawBody, secret }; headers are missing.`));
  const key = secretKey(input.secret, fn);
  const body = rawBodyBytes(input.rawBody, fn);
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = input.now ?? Date.now;

  const id = readHeader(input.headers, STANDARD_WEBHOOKS_HEADERS.id);
  const ts = readHeader(input.headers, STANDARD_WEBHOOKS_HEADERS.timestamp);
  const signatures = readHeader(input.headers, STANDARD_WEBHOOKS_HEADERS.signature);
  for (const [name, value] of [
    [STANDARD_WEBHOOKS_HEADERS.id, id],
    [STANDARD_WEBHOOKS_HEADERS.timestamp, ts],
    [STANDARD_WEBHOOKS_HEADERS.signature, signatures],
  ] as const) {
    if (!value)
      return failure(
        'MISSING_STANDARD_WEBHOOKS_HEADER',
        `the ${name} header is missing. Standard Webhooks verification needs webhook-id, webhook-timestamp and webhook-signature; is the sender configured with a Standard Webhooks secret, and does a proxy strip these headers?`,
        { header: name },
      );
  }
  if (!/^\d+$/.test(ts!))
    return failure(
      'INVALID_TIMESTAMP',
      `the webhook-timestamp header must be whole seconds since the epoch, got "${ts}".`,
      { header: STANDARD_WEBHOOKS_HEADERS.timestamp },
    );
  const timestamp = Number(ts);
  const nowSeconds = Math.floor(now() / 1000);
  if (Math.abs(nowSeconds - timestamp) > tolerance)
    return failure(
      'TIMESTAMP_OUT_OF_TOLERANCE',
      `the webhook-timestamp ${timestamp} is ${nowSeconds - timestamp} s from now, more than the ${tolerance} s tolerance. A replayed request, or a clock that is off: check the receiver's clock (NTP).`,
      { header: STANDARD_WEBHOOKS_HEADERS.timestamp },
    );
  const expected = v1Signature(key, id!, timestamp, body);
  // The header is a space-separated list (several during secret rotation); other schemes (v1a) are skipped.
  let matched = false;
  for (const candidate of signatures!.split(' ')) {
    if (!candidate.startsWith('v1,')) continue;
    // No early exit: the loop's time must not reveal which entry matched.
    if (constantTimeEqual(candidate, expected)) matched = true;
  }
  if (!matched)
    return failure(
      'SIGNATURE_MISMATCH',
      'no v1 signature in webhook-signature matches the body under your secret. Are you passing the raw request body? A body parsed and serialised again differs byte for byte. Otherwise check that the secret is the one configured for this endpoint.',
      { header: STANDARD_WEBHOOKS_HEADERS.signature },
    );
  return { ok: true, id: id!, timestamp };
}
