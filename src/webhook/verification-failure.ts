/**
 * The failure values of webhook verification: one code per cause, and a message that says what failed and how to
 * fix it. Expected failures (a forged, stale or malformed request) are returned, never thrown.
 *
 * @module
 */
import { kitMessage } from '../internal/messages.ts';

/** Why a webhook request was not accepted. */
export type WebhookVerificationErrorCode =
  /** The signing key header is absent or empty. */
  | 'MISSING_SIGNING_KEY_HEADER'
  /** The client id header is absent or empty. */
  | 'MISSING_CLIENT_ID_HEADER'
  /** The signing key header does not match the key (or any of the keys) you passed. */
  | 'WRONG_SIGNING_KEY'
  /** The client id header does not match the client id you passed. */
  | 'WRONG_CLIENT_ID'
  /** The body is not valid JSON. */
  | 'MALFORMED_JSON'
  /** The body is JSON but not a payment status payload; `field` names the first offending field. */
  | 'INVALID_PAYLOAD'
  /** Standard Webhooks: `webhook-id`, `webhook-timestamp` or `webhook-signature` is absent. */
  | 'MISSING_STANDARD_WEBHOOKS_HEADER'
  /** Standard Webhooks: `webhook-timestamp` is not an integer number of seconds. */
  | 'INVALID_TIMESTAMP'
  /** Standard Webhooks: the timestamp is further from now than the tolerance (a replay, or a skewed clock). */
  | 'TIMESTAMP_OUT_OF_TOLERANCE'
  /** Standard Webhooks: no `v1` signature in `webhook-signature` matches the body under your secret. */
  | 'SIGNATURE_MISMATCH';

/** A verification failure: what failed (`code`), and a message saying how to fix it. */
export interface WebhookVerificationError {
  readonly code: WebhookVerificationErrorCode;
  /** Human-readable, prefixed with the kit's prefix (`kitMessage`); names the header or field and the likely fix. */
  readonly message: string;
  /** The header concerned, for header failures. */
  readonly header?: string;
  /** The payload field concerned, for `INVALID_PAYLOAD`. */
  readonly field?: string;
}

/** A rejected verification. */
export interface WebhookVerificationFailure {
  readonly ok: false;
  readonly error: WebhookVerificationError;
}

/** Builds a {@link WebhookVerificationFailure}; the prefix is added here so every message carries it. */
export function failure(
  code: WebhookVerificationErrorCode,
  message: string,
  extra: { header?: string; field?: string } = {},
): WebhookVerificationFailure {
  return { ok: false, error: { code, message: kitMessage(`${message}`), ...extra } };
}
