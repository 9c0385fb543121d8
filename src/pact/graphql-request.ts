/**
 * Builds the request of a GraphQL interaction from one of the kit's typed documents: the printed operation (so the
 * contract carries exactly the shipped query text), its operation name, typed variables and the `x-jwt-token`
 * header. Uses pact-js's V4 GraphQL interaction, which matches the query text ignoring whitespace.
 *
 * @module
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { MatchersV3 } from '@pact-foundation/pact';
import { type DocumentNode, type OperationDefinitionNode, print } from 'graphql';
import { kitMessage } from '../internal/messages.ts';
import { exampleValues } from './example-values.ts';
import type { GraphqlInteraction, HeadersTemplate, HttpInteractionWithRequest } from './internal/pact-types.ts';
import { graphqlPath, headerNames } from './names.ts';
import { injected } from './provider-states.ts';
import type { AnyMatcher, Template } from './template.ts';

/**
 * Options of {@link withGraphqlRequest}.
 *
 * @example
 * const noToken: GraphqlRequestOptions<{ amount: number }> = { variables: { amount: 100 }, token: null };
 */
export interface GraphqlRequestOptions<TVariables> {
  /** The operation's variables; any value may be a matcher (such as `fromProviderState` for a card account uid). */
  variables: Template<TVariables>;
  /**
   * The `x-jwt-token` header: defaults to `fromProviderState('${token}')`, so the provider's verification sends a
   * token it issued. `null` leaves the header out (a request without a token).
   */
  token?: string | AnyMatcher | null;
  /** Extra request headers. */
  headers?: Record<string, string | AnyMatcher>;
  /** Request path; defaults to `/graphql`. */
  path?: string;
}

/**
 * The one named operation of a document, or a kit error (`kitMessage`) naming the fix.
 *
 * @example
 * operationOf(PaymentGatewayFeesCalcDocument).name?.value // 'PaymentGatewayFeesCalc'
 */
export function operationOf(document: DocumentNode): OperationDefinitionNode & { name: { value: string } } {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
  const [operation] = operations;
  if (operations.length !== 1 || !operation)
    throw new Error(
      kitMessage(
        `A Pact GraphQL interaction needs a document with exactly one operation; this one has ${operations.length}. Pass one of the kit's typed documents, such as PaymentGatewayFeesCalcDocument.`,
      ),
    );
  if (!operation.name)
    throw new Error(
      kitMessage(
        'A Pact GraphQL interaction needs a named operation (it is sent as operationName); give the operation a name.',
      ),
    );
  if (operation.operation === 'subscription')
    throw new Error(kitMessage('Subscriptions cannot be recorded as Pact HTTP interactions.'));
  return operation as OperationDefinitionNode & { name: { value: string } };
}

/**
 * Completes a GraphQL interaction's request from a typed document: `POST /graphql` with the printed operation,
 * its name, the variables (typed by the document) and the headers `x-jwt-token` and `Accept: application/json`.
 *
 * @example
 * import { PaymentGatewayFeesCalcDocument } from 'payment-contract-kit';
 *
 * await withGraphqlRequest(
 *   pact.addGraphQLInteraction().given(providerStates.accessToken, { clientId: 'test-client' }).uponReceiving('a fee list request'),
 *   PaymentGatewayFeesCalcDocument,
 *   { variables: { amount: 100 } },
 * )
 *   .willRespondWith(200, (b) => b.jsonBody(graphqlData(PaymentGatewayFeesCalcDocument, {
 *     paymentGatewayFeesCalc: MatchersV3.eachLike(feeEntry()),
 *   })))
 *   .executeTest(async (server) => { ... });
 */
export function withGraphqlRequest<TResult, TVariables>(
  interaction: GraphqlInteraction,
  document: TypedDocumentNode<TResult, TVariables>,
  options: GraphqlRequestOptions<TVariables>,
): HttpInteractionWithRequest {
  const operation = operationOf(document);
  const token =
    options.token === undefined ? MatchersV3.fromProviderState(injected.token, exampleValues.token) : options.token;
  const headers: Record<string, string | AnyMatcher> = { Accept: 'application/json', ...options.headers };
  if (token !== null) headers[headerNames.accessToken] = token;
  const request = interaction
    .withOperation(operation.name.value)
    .withVariables(options.variables as Record<string, unknown>)
    .withRequest('POST', options.path ?? graphqlPath, (b) => {
      b.headers(headers as HeadersTemplate);
    });
  const text = print(document);
  return operation.operation === 'mutation' ? request.withMutation(text) : request.withQuery(text);
}
