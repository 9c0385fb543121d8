/**
 * payment-contract-kit/legacy: types and typed documents for the service's older guide.
 *
 * The legacy guide differs from the current one in four ways: the fee list has `total` and `card_location`,
 * the card number field is `number`, the payment input type is `ProcessPaymentInput`, and `description` and
 * `reference_no` sit in the contact. Operation and document names match the root entry's, so code moves between
 * guides by changing the import path.
 *
 * @module
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import {
  ProcessPaymentRequestDocument as GeneratedProcessPaymentRequestDocument,
  PaymentCreditCardFeeCalcDocument,
  PaymentGatewayFeesCalcDocument,
  type ProcessPaymentRequestMutation,
} from '../generated/legacy/graphql.ts';
import type { LegacyProcessPaymentRequestMutationVariables } from './types/card-input.ts';

export type {
  ContactInput,
  CreditCardFee,
  Payment,
  PaymentCreditCardFeeCalcQuery,
  PaymentCreditCardFeeCalcQueryVariables,
  PaymentGatewayFee,
  PaymentGatewayFeesCalcQuery,
  PaymentGatewayFeesCalcQueryVariables,
  PaymentStatus,
  ProcessPaymentRequestMutation,
  Scalars,
} from '../generated/legacy/graphql.ts';
export type {
  LegacyCardAccountReference as CardAccountReference,
  LegacyCardDetails as CardDetails,
  LegacyCreditCardInput as CreditCardInput,
  LegacyProcessPaymentRequestMutationVariables as ProcessPaymentRequestMutationVariables,
  ProcessPaymentInput,
} from './types/card-input.ts';

export { PaymentCreditCardFeeCalcDocument, PaymentGatewayFeesCalcDocument };

/** Typed document of the legacy `processPaymentRequest`; its variables accept full card details or a `card_account_uid`. */
export const ProcessPaymentRequestDocument = GeneratedProcessPaymentRequestDocument as unknown as TypedDocumentNode<
  ProcessPaymentRequestMutation,
  LegacyProcessPaymentRequestMutationVariables
>;
