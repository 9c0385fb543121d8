/**
 * payment-contract-kit: types and typed documents for the card-payment service, current guide.
 *
 * This entry has no runtime dependency: it holds types and the typed GraphQL documents (plain objects) for
 * `operations/current`. Old-guide equivalents live in `payment-contract-kit/legacy`; the mock, webhook helpers and
 * Pact building blocks in their own entries.
 *
 * @example
 * import { ProcessPaymentRequestDocument, type ProcessPaymentRequestInput } from 'payment-contract-kit';
 *
 * @module
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import {
  ProcessPaymentRequestDocument as GeneratedProcessPaymentRequestDocument,
  PaymentCreditCardFeeCalcDocument,
  PaymentGatewayFeesCalcDocument,
  type ProcessPaymentRequestMutation,
} from '../generated/current/graphql.ts';
import type { ProcessPaymentRequestMutationVariables } from './types/card-input.ts';

// Exact, Incremental, InputMaybe, Make* and Maybe are the helper types GraphQL Code Generator's operation types refer
// to: a team's own codegen can then take every input type from this package (`namespacedImportName`, see the
// codegen recipe) and keep the card choice.
export type {
  ContactInput,
  CreditCardFee,
  Exact,
  Incremental,
  InputMaybe,
  MakeEmpty,
  MakeMaybe,
  MakeOptional,
  Maybe,
  Payment,
  PaymentCreditCardFeeCalcQuery,
  PaymentCreditCardFeeCalcQueryVariables,
  PaymentGatewayFee,
  PaymentGatewayFeesCalcQuery,
  PaymentGatewayFeesCalcQueryVariables,
  PaymentReferenceInput,
  PaymentStatus,
  ProcessPaymentRequestMutation,
  Scalars,
} from '../generated/current/graphql.ts';
export type {
  CardAccountReference,
  CardDetails,
  CreditCardInput,
  ProcessPaymentRequestInput,
  ProcessPaymentRequestMutationVariables,
} from './types/card-input.ts';
export type {
  ErrorResponse,
  PaymentStatusWebhookHeaders,
  PaymentStatusWebhookPayload,
  RefreshTokenRequest,
  RestPaths,
  RevokeTokenResponse,
  TokenEndpointPath,
  TokenPair,
  TokenPairResponse,
  TokenRequestHeaders,
} from './types/rest.ts';

export { PaymentCreditCardFeeCalcDocument, PaymentGatewayFeesCalcDocument };

/** Typed document of `processPaymentRequest`; its variables accept full card details or a `card_account_uid`. */
export const ProcessPaymentRequestDocument = GeneratedProcessPaymentRequestDocument as unknown as TypedDocumentNode<
  ProcessPaymentRequestMutation,
  ProcessPaymentRequestMutationVariables
>;
