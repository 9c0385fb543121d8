/**
 * Request builders for the REST token endpoints (spec 4.1 to 4.3): headers, the refresh body, and a one-call
 * request for an interaction. Credentials and tokens default to provider-state expressions, so a provider's
 * verification sends its own valid values while the consumer test sees the examples.
 *
 * @module
 */
import { MatchersV3 } from '@pact-foundation/pact';
import { injected } from '../contract/provider-state-names.ts';
import type { RefreshTokenRequest } from '../types/rest.ts';
import { exampleValues } from './example-values.ts';
import type { HeadersTemplate, HttpInteraction, HttpInteractionWithRequest } from './internal/pact-types.ts';
import { headerNames, type TokenEndpoint, tokenPaths } from './names.ts';
import { acceptHeader, contentTypeJson } from './request-header-matchers.ts';
import type { AnyMatcher, Template } from './template.ts';

/**
 * A header value: a literal, or a matcher such as `fromProviderState`.
 *
 * @example
 * const apiKey: HeaderValue = MatchersV3.fromProviderState(injected.apiKey, exampleValues.apiKey);
 */
export type HeaderValue = string | AnyMatcher;

/**
 * Credentials of a token request. Omitted values come from the provider state (`${clientId}`, `${apiKey}`).
 *
 * @example
 * const wrongKey: TokenRequestCredentials = { apiKey: 'wrong-api-key' };
 */
export interface TokenRequestCredentials {
  clientId?: HeaderValue;
  apiKey?: HeaderValue;
}

/**
 * Headers of a token request (spec 4, 5): the credentials `x-client-id` and `x-api-key`, which the service checks.
 * The credentials default to `fromProviderState('${clientId}')` and `fromProviderState('${apiKey}')`; pass a literal
 * to pin a value, such as a wrong API key for a 401. Nothing else is demanded: generate-token and revoke-token have no
 * body, so neither `Content-Type` nor `Accept` changes what the service does, and clients differ in what they send
 * (`fetch` sends no `Content-Type` without a body). {@link withTokenRequest} adds JSON matchers for refresh-token.
 *
 * @example
 * interaction.withRequest('POST', tokenPaths.generate, (b) => b.headers(tokenRequestHeaders()));
 * tokenRequestHeaders({ apiKey: 'wrong-api-key' }); // a request the service must refuse
 */
export function tokenRequestHeaders(credentials: TokenRequestCredentials = {}): Record<string, HeaderValue> {
  return {
    [headerNames.clientId]:
      credentials.clientId ?? MatchersV3.fromProviderState(injected.clientId, exampleValues.clientId),
    [headerNames.apiKey]: credentials.apiKey ?? MatchersV3.fromProviderState(injected.apiKey, exampleValues.apiKey),
  };
}

/**
 * Body of refresh-token (spec 4.2). The refresh token defaults to `fromProviderState('${refreshToken}')`; pass a
 * literal for a token the service does not know.
 *
 * @example
 * refreshTokenBody(); // { refresh_token: <injected by the provider> }
 * refreshTokenBody('unknown-refresh-token'); // answered with 401
 */
export function refreshTokenBody(refreshToken?: string | AnyMatcher): Template<RefreshTokenRequest> {
  return {
    refresh_token: refreshToken ?? MatchersV3.fromProviderState(injected.refreshToken, exampleValues.refreshToken),
  };
}

/**
 * Options of {@link withTokenRequest}.
 *
 * @example
 * const unknownRefresh: TokenRequestOptions = { refreshToken: 'unknown-refresh-token' };
 */
export interface TokenRequestOptions extends TokenRequestCredentials {
  /** refresh-token only: the refresh token; defaults to the provider state's `${refreshToken}`. */
  refreshToken?: string | AnyMatcher;
  /** Extra request headers. */
  headers?: Record<string, HeaderValue>;
}

/**
 * Adds the POST request of a token endpoint to an interaction: path, the credentials headers, and for refresh-token
 * the JSON body with matchers for `Content-Type` (`application/json`, parameters allowed) and `Accept` (anything a
 * JSON-reading client asks for: `application/json`, `*` + `/*`, ...). Replayed by a provider, the request carries
 * the spec's literal `application/json` for both.
 *
 * @example
 * await withTokenRequest(
 *   pact.addInteraction().given(providerStates.tokenPair, { clientId: 'test-client' }).uponReceiving('a token refresh'),
 *   'refresh',
 * )
 *   .willRespondWith(200, (b) => b.jsonBody(tokenPairResponse()))
 *   .executeTest(async (server) => { ... });
 */
export function withTokenRequest(
  interaction: HttpInteraction,
  endpoint: TokenEndpoint,
  options: TokenRequestOptions = {},
): HttpInteractionWithRequest {
  const json = endpoint === 'refresh' ? { 'Content-Type': contentTypeJson(), Accept: acceptHeader() } : {};
  const headers = { ...tokenRequestHeaders(options), ...json, ...options.headers } as HeadersTemplate;
  return interaction.withRequest('POST', tokenPaths[endpoint], (b) => {
    b.headers(headers);
    if (endpoint === 'refresh') b.jsonBody(refreshTokenBody(options.refreshToken));
  });
}
