/**
 * payment-contract-kit/pact: building blocks for Pact contracts with the card-payment service, in four groups.
 *
 * - **Who and in which state**: {@link providerName}, {@link providerStates} (with {@link injected} for
 *   `fromProviderState`) and {@link exampleValues}, the values the kit's matchers put in pact files.
 * - **Requests**: {@link withTokenRequest} and {@link withGraphqlRequest} write what the service reads (paths, headers,
 *   bodies, the query of one of the kit's typed documents); {@link acceptHeader} and {@link contentTypeJson} for
 *   interactions built by hand.
 * - **Answers**: a matcher per shape of both guides ({@link tokenPairResponse}, {@link restErrorBody},
 *   {@link feeEntry}, {@link legacyFeeEntry}, {@link creditCardFee}, {@link payment}, {@link validationErrorBody},
 *   {@link authErrorBody}), {@link graphqlData} around a document's data and {@link graphqlErrorStatus}; the webhook as
 *   a message: {@link paymentStatusWebhookPayload} and {@link webhookMetadata}.
 * - **Provider verification against the mock**: {@link stateHandlers} and {@link messageProviders} point pact-js's
 *   `Verifier` at a running mock.
 *
 * Requires `@pact-foundation/pact` 16 or 17 (an optional peer dependency of this entry only) and `graphql`.
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
  legacyFeeEntry,
  payment,
  validationErrorBody,
} from './graphql-matchers.ts';
export { type GraphqlRequestOptions, withGraphqlRequest } from './graphql-request.ts';
export { providerName, type TokenEndpoint } from './names.ts';
export { acceptHeader, contentTypeJson } from './request-header-matchers.ts';
export { restErrorBody, type TokenPairExample, tokenPairResponse } from './rest-matchers.ts';
export type { AnyMatcher, Template } from './template.ts';
export {
  type HeaderValue,
  type TokenRequestCredentials,
  type TokenRequestOptions,
  withTokenRequest,
} from './token-requests.ts';
export {
  type MockControlAccess,
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
