// The wiring every consumer interaction shares, so a test declares only what makes its interaction different:
// provider state, description, request (document and variables, or token endpoint and overrides), expected answer,
// and its assertions. The helpers record the interaction with the kit's request builders, then run the consumer
// (payment-service-client.ts) against the real Pact mock server, sending the same values the contract's examples
// show, so the test fails when the client's request or its reading of the answer does not fit the contract. They run
// through executeRecorded (execute-recorded.ts): pact-js would otherwise judge before the server recorded the request.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { MatchersV3, type PactV4 } from '@pact-foundation/pact';
import type { ErrorResponse, TokenPairResponse } from '../../../src/index.ts';
import {
  type authErrorBody,
  exampleValues,
  graphqlData,
  graphqlErrorStatus,
  injected,
  type ProviderStateName,
  type ProviderStateParams,
  type Template,
  type TokenEndpoint,
  type validationErrorBody,
  withGraphqlRequest,
  withTokenRequest,
} from '../../../src/pact/index.ts';
import { executeRecorded } from './execute-recorded.ts';
import { type Answer, createPaymentServiceClient, type GraphqlAnswer } from './payment-service-client.ts';

/** A provider state with its parameters, typed per state. */
export type Given = {
  [S in ProviderStateName]: readonly [state: S, params: ProviderStateParams[S]];
}[ProviderStateName];

/** A card given by its `card_account_uid` instead of card details (spec 4.6 rule 3), for both guides' variables. */
export const cardAccountReference = {
  // Injected: the provider hands out the uid of a card account it created in the provider state.
  card_account_uid: MatchersV3.fromProviderState(injected.cardAccountUid, exampleValues.cardAccountUid),
};

/** A GraphQL interaction, declared by its differences. */
export interface GraphqlInteraction<TResult, TVariables> {
  /** Left out for a request that needs no provider state (one without a token). */
  given?: Given;
  uponReceiving: string;
  document: TypedDocumentNode<TResult, TVariables>;
  /** Recorded variables (matchers allowed); the client sends their examples. */
  variables: Template<TVariables>;
  /** `null`: no `x-jwt-token`, in the contract and in the client's request. Otherwise the provider state's token. */
  token?: null;
  /**
   * `{ data }` is answered with 200, as GraphQL over HTTP answers data. `{ error }` (spec 7.2, 7.3) with
   * `graphqlErrorStatus()`, since the spec does not publish the status of an error answer.
   */
  willRespondWith:
    | { data: Template<TResult> }
    | { error: ReturnType<typeof validationErrorBody> | ReturnType<typeof authErrorBody> };
  /** Assertions on what the client got back: what the consumer's code relies on. */
  verify(answer: Answer<GraphqlAnswer<TResult>>): void;
}

/**
 * Records a GraphQL interaction from a typed document and runs the client's request against the Pact mock server.
 *
 * @example
 * it('lists fees', () =>
 *   testGraphqlInteraction(contract.pact(), {
 *     given: [providerStates.accessToken, { clientId }],
 *     uponReceiving: 'a request for the fee list of an amount',
 *     document: PaymentGatewayFeesCalcDocument,
 *     variables: { amount },
 *     willRespondWith: { data: { paymentGatewayFeesCalc: MatchersV3.eachLike(feeEntry()) } },
 *     verify: (answer) => expect(answer.status).toBe(200),
 *   }));
 */
export async function testGraphqlInteraction<TResult, TVariables>(
  pact: PactV4,
  interaction: GraphqlInteraction<TResult, TVariables>,
): Promise<void> {
  const { given, document, variables, token, willRespondWith: answer } = interaction;
  const unconfigured = given ? pact.addGraphQLInteraction().given(given[0], given[1]) : pact.addGraphQLInteraction();
  const recorded = withGraphqlRequest(unconfigured.uponReceiving(interaction.uponReceiving), document, {
    variables,
    token,
  }).willRespondWith('data' in answer ? 200 : graphqlErrorStatus(), (b) =>
    b.jsonBody('data' in answer ? graphqlData(document, answer.data) : answer.error),
  );
  await executeRecorded(recorded, async (server) => {
    const sent = MatchersV3.reify(variables) as TVariables;
    const jwt = token === null ? null : exampleValues.token;
    interaction.verify(await createPaymentServiceClient(server.url).graphql(document, sent, jwt));
  });
}

/** A token endpoint interaction, declared by its differences. */
export interface TokenInteraction {
  given: Given;
  uponReceiving: string;
  endpoint: TokenEndpoint;
  /**
   * Literal values in place of the provider state's, such as a wrong API key or an unknown refresh token; the
   * client sends the same. The rest are injected by the provider state, and the client sends their examples.
   */
  request?: { apiKey?: string; refreshToken?: string };
  status: number;
  /** Left out when the consumer reads only the status. */
  body?: Template<TokenPairResponse> | Template<ErrorResponse>;
  /** Assertions on what the client got back: what the consumer's code relies on. */
  verify(answer: Answer<unknown>): void;
}

/**
 * Records a token endpoint interaction (spec 4.1 to 4.3) and runs the client's request against the Pact mock
 * server.
 *
 * @example
 * it('revokes the token', () =>
 *   testTokenInteraction(contract.pact(), {
 *     given: [providerStates.tokenPair, { clientId }],
 *     uponReceiving: 'a request to revoke the current token',
 *     endpoint: 'revoke',
 *     status: 200,
 *     verify: (answer) => expect(answer.status).toBe(200),
 *   }));
 */
export async function testTokenInteraction(pact: PactV4, interaction: TokenInteraction): Promise<void> {
  const { endpoint, request = {}, status, body } = interaction;
  const recorded = withTokenRequest(
    pact.addInteraction().given(interaction.given[0], interaction.given[1]).uponReceiving(interaction.uponReceiving),
    endpoint,
    request,
  );
  // Without a builder when there is no body: the contract then says nothing about it.
  const answering =
    body === undefined ? recorded.willRespondWith(status) : recorded.willRespondWith(status, (b) => b.jsonBody(body));
  await executeRecorded(answering, async (server) => {
    const client = createPaymentServiceClient(server.url);
    const credentials = { clientId: exampleValues.clientId, apiKey: request.apiKey ?? exampleValues.apiKey };
    const refreshToken = request.refreshToken ?? exampleValues.refreshToken;
    const calls = {
      generate: () => client.generateToken(credentials),
      refresh: () => client.refreshToken(credentials, refreshToken),
      revoke: () => client.revokeToken(credentials),
    } satisfies Record<TokenEndpoint, () => Promise<Answer<unknown>>>;
    interaction.verify(await calls[endpoint]());
  });
}
