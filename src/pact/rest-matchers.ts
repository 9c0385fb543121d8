/**
 * Matchers for the REST answers of the token endpoints: the token pair (spec 2.1) and the error body (spec 7.1).
 *
 * @module
 */
import { MatchersV3 } from '@pact-foundation/pact';
import { restErrorBody as spec71Body } from '../contract/error-shapes.ts';
import type { ErrorResponse, TokenPairResponse } from '../types/rest.ts';
import { exampleValues } from './example-values.ts';
import { text } from './internal/primitives.ts';
import type { Template } from './template.ts';

/**
 * Example values of a token pair answer.
 *
 * @example
 * tokenPairResponse({ expiration: 1_767_261_000 } satisfies TokenPairExample);
 */
export interface TokenPairExample {
  token?: string;
  refreshToken?: string;
  expiration?: number;
}

/**
 * The 200 answer of generate-token and refresh-token (spec 2.1): `status` is the literal `"SUCCESS"` (fixed by
 * the spec); the tokens are any string (the spec gives no format); `expiration` is an integer (spec: integer; its
 * unit is the kit's assumption, so only the type is matched).
 *
 * @example
 * interaction
 *   .withRequest('POST', tokenPaths.generate, (b) => b.headers(tokenRequestHeaders()))
 *   .willRespondWith(200, (b) => b.jsonBody(tokenPairResponse()));
 */
export function tokenPairResponse(example: TokenPairExample = {}): Template<TokenPairResponse> {
  return {
    status: 'SUCCESS',
    data: {
      token: text(example.token ?? exampleValues.token),
      refresh_token: text(example.refreshToken ?? exampleValues.refreshToken),
      expiration: MatchersV3.integer(example.expiration ?? exampleValues.expiration),
    },
  };
}

/**
 * The error body of the REST endpoints (spec 7.1), for 401 and 500 alike: `status` is the literal `"ERROR"`
 * (fixed by the spec); `message` is any string (the spec gives no wording).
 *
 * @example
 * interaction
 *   .withRequest('POST', tokenPaths.generate, (b) => b.headers(tokenRequestHeaders({ apiKey: 'wrong-api-key' })))
 *   .willRespondWith(401, (b) => b.jsonBody(restErrorBody('The x-api-key is not valid for this client.')));
 */
export function restErrorBody(exampleMessage = 'The request failed.'): Template<ErrorResponse> {
  return spec71Body(text(exampleMessage));
}
