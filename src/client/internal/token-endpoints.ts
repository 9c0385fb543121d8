/**
 * The three REST token endpoints (spec 4.1 to 4.3), typed from the generated OpenAPI types: paths, headers, body and
 * answers all come from `openapi.yaml`, so a change there breaks this file at compile time. Plain `fetch` rather
 * than openapi-fetch: three POSTs need no router, and the entry stays free of run-time dependencies.
 *
 * @module
 */
import type { operations, paths } from '../../../generated/openapi.ts';
import { readRestError } from '../../contract/error-shapes.ts';
import { credentialHeaders, serviceHeaders, servicePaths } from '../../contract/service-names.ts';
import { isPlainObject } from '../../internal/plain-object.ts';
import type { TokenPair, TokenPairResponse } from '../../types/rest.ts';
import { AuthenticationError, type RawResponse, TransportError } from '../client-errors.ts';
import { type FetchLike, postJson } from './http.ts';

/** The REST paths, checked against openapi.yaml's `paths`. */
export const tokenPaths = {
  generate: servicePaths.generateToken,
  refresh: servicePaths.refreshToken,
  revoke: servicePaths.revokeToken,
} as const satisfies Record<string, keyof paths>;

type Endpoint = keyof typeof tokenPaths;
type RevokeHeaders = operations['revokeToken']['parameters']['header'];
type RefreshBody = NonNullable<operations['refreshToken']['requestBody']>['content']['application/json'];

/** Where and as whom the token calls are made. */
export interface TokenEndpointConfig {
  readonly baseUrl: string;
  readonly clientId: string;
  readonly apiKey: string;
  readonly fetch: FetchLike;
}

/** What a refused call (401, spec 7.1) tells the caller to do next. */
const hints: Record<Endpoint, string> = {
  generate: 'Check clientId and apiKey (x-client-id, x-api-key) against your integration settings.',
  refresh: 'The refresh token is unknown, used or revoked; a new pair needs generate-token.',
  revoke: 'Check clientId and apiKey; the token may already be gone.',
};

function credentials(config: TokenEndpointConfig): RevokeHeaders {
  return credentialHeaders(config.clientId, config.apiKey);
}

function isTokenPairResponse(body: unknown): body is TokenPairResponse {
  if (!isPlainObject(body) || body.status !== 'SUCCESS' || !isPlainObject(body.data)) return false;
  const { token, refresh_token, expiration } = body.data;
  return typeof token === 'string' && typeof refresh_token === 'string' && typeof expiration === 'number';
}

function serviceMessage(body: unknown): string {
  return readRestError(body)?.message ?? 'no message';
}

/** Turns a non-2xx answer into the error it stands for: 401 is authentication (7.1), anything else transport. */
function refusal(endpoint: Endpoint, response: RawResponse): Error {
  const what = `${endpoint}-token`;
  if (response.status === 401)
    return new AuthenticationError(what, undefined, serviceMessage(response.body), response, hints[endpoint]);
  return new TransportError(
    what,
    `the service answered HTTP ${response.status} (${serviceMessage(response.body)}). Try again later; a 5xx is the service's fault, not the request's.`,
    response,
  );
}

async function pairFrom(endpoint: 'generate' | 'refresh', response: RawResponse): Promise<TokenPair> {
  if (response.status !== 200) throw refusal(endpoint, response);
  if (!isTokenPairResponse(response.body))
    throw new TransportError(
      `${endpoint}-token`,
      'the answer is not a token pair { status: "SUCCESS", data: { token, refresh_token, expiration } } (spec 2.1).',
      response,
    );
  return response.body.data;
}

/** generate-token (spec 4.1): a new pair for the client's credentials. */
export async function generateToken(config: TokenEndpointConfig): Promise<TokenPair> {
  const url = config.baseUrl + tokenPaths.generate;
  return pairFrom('generate', await postJson(config.fetch, 'generate-token', url, { ...credentials(config) }));
}

/** refresh-token (spec 4.2): exchanges a refresh token for a new pair. */
export async function refreshToken(config: TokenEndpointConfig, refresh_token: string): Promise<TokenPair> {
  const url = config.baseUrl + tokenPaths.refresh;
  const body: RefreshBody = { refresh_token };
  return pairFrom('refresh', await postJson(config.fetch, 'refresh-token', url, { ...credentials(config) }, body));
}

/** revoke-token (spec 4.3) for the access token `token`: the current token of the client, not every token. */
export async function revokeToken(config: TokenEndpointConfig, token: string): Promise<void> {
  const headers: RevokeHeaders = { ...credentials(config), [serviceHeaders.jwt]: token };
  const response = await postJson(config.fetch, 'revoke-token', config.baseUrl + tokenPaths.revoke, { ...headers });
  if (response.status < 200 || response.status > 299) throw refusal('revoke', response);
}
