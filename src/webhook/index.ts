/**
 * `payment-contract-kit/webhook`: helpers for receivers of the payment status webhook. Node built-ins only.
 *
 * - {@link checkWebhookSignature}: check the signing key and client id headers in constant time, then parse and check the
 *   payload; failures are values with a code and a message that says how to fix it.
 * - {@link checkStandardWebhookSignature}: the opt-in Standard Webhooks signature, over the raw bytes, with a tolerance.
 * - {@link buildTestWebhookRequest}: a genuine request for your receiver's own tests.
 *
 * In this kit "verify" names Pact provider verification (the `verify` command) only; the webhook helpers check.
 *
 * @module
 */

export type { HeadersLike } from '../internal/headers-like.ts';
export type { PaymentStatusWebhookPayload } from '../types/rest.ts';
export {
  type CheckWebhookSignatureInput,
  type CheckWebhookSignatureResult,
  checkWebhookSignature,
  DEFAULT_WEBHOOK_HEADER_NAMES,
  type WebhookHeaderNames,
  type WebhookVerified,
} from './check-webhook-signature.ts';
export type { RawBody } from './internal/raw-body.ts';
export {
  type CheckStandardWebhookSignatureInput,
  checkStandardWebhookSignature,
  DEFAULT_TOLERANCE_SECONDS,
  STANDARD_WEBHOOKS_HEADERS,
  type StandardWebhookVerified,
} from './standard-webhooks.ts';
export { type BuildTestWebhookRequestInput, buildTestWebhookRequest, type TestWebhookRequest } from './test-request.ts';
export type {
  WebhookVerificationError,
  WebhookVerificationErrorCode,
  WebhookVerificationFailure,
} from './verification-failure.ts';
