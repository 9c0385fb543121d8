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
import { injected } from '../contract/provider-state-names.ts';
import { kitMessage } from '../internal/messages.ts';
import { exampleValues } from './example-values.ts';
import type {
  GraphqlInteraction,
  HeadersTemplate,
  HttpInteraction,
  HttpInteractionWithRequest,
} from './internal/pact-types.ts';
import { graphqlPath, headerNames } from './names.ts';
import { acceptHeader, contentTypeJson } from './request-header-matchers.ts';
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
 * its name, the variables (typed by the document) and the headers `x-jwt-token` (what the service checks) plus
 * matchers for `Content-Type` (`application/json`, parameters allowed) and `Accept` (any value a JSON-reading
 * client sends: graphql-request's and Apollo's `application/graphql-response+json, application/json`, urql's longer
 * list, `fetch`'s `*` + `/*`). A provider replays the spec's literal `application/json` for both.
 *
 * `interaction` is a GraphQL interaction (`pact.addGraphQLInteraction()`, whose query matcher is pact-js's own) or a
 * plain HTTP one (`pact.addInteraction()`), for which the kit writes the body with a query matcher that also accepts
 * the `__typename` fields Apollo Client adds to every selection set.
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
  interaction: GraphqlInteraction | HttpInteraction,
  document: TypedDocumentNode<TResult, TVariables>,
  options: GraphqlRequestOptions<TVariables>,
): HttpInteractionWithRequest {
  const operation = operationOf(document);
  const token =
    options.token === undefined ? MatchersV3.fromProviderState(injected.token, exampleValues.token) : options.token;
  const headers: Record<string, string | AnyMatcher> = {
    'Content-Type': contentTypeJson(),
    Accept: acceptHeader(),
    ...options.headers,
  };
  if (token !== null) headers[headerNames.jwt] = token;
  const text = print(document);
  const path = options.path ?? graphqlPath;
  if (!('withOperation' in interaction))
    // A plain HTTP interaction: the kit writes the body itself, with a query matcher that also accepts the
    // `__typename` fields Apollo Client adds to every selection set.
    return interaction.withRequest('POST', path, (b) => {
      b.headers(headers as HeadersTemplate);
      b.jsonBody({
        operationName: operation.name.value,
        query: MatchersV3.regex(graphqlQueryPattern(text), text),
        variables: options.variables as Record<string, unknown>,
      });
    });
  const request = interaction
    .withOperation(operation.name.value)
    .withVariables(options.variables as Record<string, unknown>)
    .withRequest('POST', path, (b) => {
      b.headers(headers as HeadersTemplate);
    });
  return operation.operation === 'mutation' ? request.withMutation(text) : request.withQuery(text);
}

/**
 * A pattern matching the GraphQL text `query` however it is spaced, with or without a `__typename` field at the end
 * of any selection set (what Apollo Client and urql's normalised cache add). Whitespace is optional between tokens,
 * as in pact-js's own GraphQL matcher.
 *
 * @example
 * new RegExp(graphqlQueryPattern('{ a { b } }')).test('{a{b __typename}}'); // true
 */
export function graphqlQueryPattern(query: string): string {
  const escaped = query.trim().replace(/[-[\]/{}()*+?.\\^$|]/g, '\\$&');
  return `^\\s*${escaped.replace(/\s+/g, '\\s*').replaceAll('\\}', '(?:\\s*__typename)?\\s*\\}')}\\s*$`;
}
