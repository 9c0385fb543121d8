/**
 * `payment-contract-kit/client`: a typed client of the payment service with the token lifecycle built in.
 *
 * - {@link createPaymentClient}: `feesFor`, `cardFee`, `processPayment` and `execute` in either guide; generates a
 *   token once, refreshes ahead of expiry (one refresh for any number of concurrent calls), recovers once from an
 *   expired or revoked token, and revokes on `close()`.
 * - Errors as classes keeping the raw response, each with a narrowing helper: {@link ValidationError} (spec 7.3),
 *   {@link InvalidCardError}, {@link AuthenticationError} (7.1 401, 7.2 reasons), {@link GraphqlError},
 *   {@link TransportError}.
 * - {@link TokenStore}: where the pair is kept (in memory by default).
 *
 * Runs on any `fetch` (Node, browsers, msw) and imports nothing at run time.
 *
 * @example
 * import { createPaymentClient, isValidationError } from 'payment-contract-kit/client';
 * const client = createPaymentClient({ baseUrl, clientId, apiKey });
 * try {
 *   await client.processPayment(input);
 * } catch (e) {
 *   if (isValidationError(e)) console.log(e.fields['input.credit_card.expiry_year']);
 * }
 *
 * @module
 */
export type { TokenPair } from '../types/rest.ts';
export {
  AuthenticationError,
  GraphqlError,
  type GraphqlErrorEntry,
  InvalidCardError,
  isAuthenticationError,
  isGraphqlError,
  isInvalidCardError,
  isPaymentClientError,
  isTransportError,
  isValidationError,
  PaymentClientError,
  type PaymentClientErrorKind,
  type RawResponse,
  TransportError,
  ValidationError,
  type ValidationFields,
} from './client-errors.ts';
export {
  createPaymentClient,
  type GuideOperations,
  type PaymentClient,
  type PaymentClientGuide,
  type PaymentClientOptions,
} from './create-payment-client.ts';
export type { FetchLike } from './internal/http.ts';
export { createMemoryTokenStore, type TokenStore } from './token-store.ts';
