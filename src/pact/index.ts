/**
 * payment-contract-kit/pact: building blocks for Pact contracts with the card-payment service.
 *
 * Shape matchers for both guides (token pair, REST error, fee entries, card fee, payment, validation and
 * authentication errors, webhook payload and headers), request builders for the token endpoints and for GraphQL
 * interactions from the kit's typed documents, the provider state names the kit's mock verifies, and
 * `stateHandlers` / `messageProviders` that point pact-js's `Verifier` at a running mock. Requires
 * `@pact-foundation/pact` 16 (an optional peer dependency of this entry only) and `graphql`.
 *
 * @example
 * import { PactV4, MatchersV3 } from '@pact-foundation/pact';
 * import { PaymentGatewayFeesCalcDocument } from 'payment-contract-kit';
 * import { feeEntry, graphqlData, providerName, providerStates, withGraphqlRequest } from 'payment-contract-kit/pact';
 *
 * const pact = new PactV4({ consumer: 'checkout-web', provider: providerName });
 * await withGraphqlRequest(
 *   pact.addGraphQLInteraction().given(providerStates.accessToken, { clientId: 'test-client' }).uponReceiving('a fee list request'),
 *   PaymentGatewayFeesCalcDocument,
 *   { variables: { amount: 100 } },
 * )
 *   .willRespondWith(200, (b) => b.jsonBody(graphqlData(PaymentGatewayFeesCalcDocument, { paymentGatewayFeesCalc: MatchersV3.eachLike(feeEntry()) })))
 *   .executeTest(async (server) => { ... });
 *
 * @module
 */

export {
  injected,
  type ProviderStateName,
  type ProviderStateParams,
  type ProviderStateValues,
  providerStates,
} from '../contract/provider-state-names.ts';
export { exampleValues } from './example-values.ts';
export {
  authErrorBody,
  creditCardFee,
  feeEntry,
  graphqlData,
  graphqlErrorStatus,
  graphqlErrorStatuses,
  legacyFeeEntry,
  payment,
  validationErrorBody,
} from './graphql-matchers.ts';
export { type GraphqlRequestOptions, operationOf, withGraphqlRequest } from './graphql-request.ts';
export { graphqlPath, headerNames, providerName, type TokenEndpoint, tokenPaths } from './names.ts';
export {
  acceptHeader,
  acceptHeaderPattern,
  contentTypeJson,
  contentTypeJsonPattern,
} from './request-header-matchers.ts';
export { restErrorBody, type TokenPairExample, tokenPairResponse } from './rest-matchers.ts';
export type { AnyMatcher, Template } from './template.ts';
export {
  type HeaderValue,
  refreshTokenBody,
  type TokenRequestCredentials,
  type TokenRequestOptions,
  tokenRequestHeaders,
  withTokenRequest,
} from './token-requests.ts';
export {
  type MockTarget,
  messageProviders,
  stateHandlers,
  type VerifierMessageProviders,
  type VerifierStateHandlers,
} from './verifier-handlers.ts';
export {
  paymentStatusWebhookPayload,
  type WebhookMetadataOptions,
  type WebhookPayloadExample,
  webhookMetadata,
} from './webhook-matchers.ts';
