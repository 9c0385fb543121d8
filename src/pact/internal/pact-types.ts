/**
 * Names for pact-js V4 builder types that its root entry does not export, derived from `PactV4`'s methods so they
 * follow the installed version.
 *
 * @module
 */
import type { PactV4 } from '@pact-foundation/pact';

/** `V4UnconfiguredInteraction`: an HTTP interaction before its request. */
export type HttpInteraction = ReturnType<PactV4['addInteraction']>;
/** `V4InteractionWithRequest`: an HTTP interaction with its request, awaiting `willRespondWith`. */
export type HttpInteractionWithRequest = ReturnType<HttpInteraction['withRequest']>;
/** `V4UnconfiguredGraphQLInteraction`: a GraphQL interaction before its request. */
export type GraphqlInteraction = ReturnType<PactV4['addGraphQLInteraction']>;
/** The request builder handed to `withRequest`'s callback. */
export type HttpRequestBuilder = Parameters<NonNullable<Parameters<HttpInteraction['withRequest']>[2]>>[0];
/** Headers template accepted by the request builders. */
export type HeadersTemplate = Parameters<HttpRequestBuilder['headers']>[0];
