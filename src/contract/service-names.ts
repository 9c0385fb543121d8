/**
 * The service's names, written once (spec sections 4 and 5): paths, header names and the mock's reserved prefix.
 * Every part (mock, client, Pact entry, webhook helpers, pages, proxy, CLI) reads them from here; `src/spec-names.ts`
 * re-exports them for older imports.
 *
 * @module
 */
import type { TokenEndpointPath } from '../types/rest.ts';

/**
 * REST paths of the service (spec 4.1 to 4.3, typed against openapi.yaml's paths) and the GraphQL path (4.4 to 4.6).
 *
 * @example
 * await fetch(`${mock.url}${servicePaths.generateToken}`, { method: 'POST', headers });
 */
export const servicePaths = {
  generateToken: '/api/v2/accounting/token/generate-token',
  refreshToken: '/api/v2/accounting/token/refresh-token',
  revokeToken: '/api/v2/accounting/token/revoke-token',
  graphql: '/graphql',
} as const satisfies Record<string, TokenEndpointPath | '/graphql'>;

/**
 * Request header names of spec 5 (lower case, as HTTP/2 and node:http give them).
 *
 * @example
 * const headers = { [serviceHeaders.jwt]: token };
 */
export const serviceHeaders = {
  clientId: 'x-client-id',
  apiKey: 'x-api-key',
  jwt: 'x-jwt-token',
} as const;

/**
 * The two credential headers of spec 5 (token endpoints; `/graphql` too where the ledger says the service asks for
 * them), built in one place so no part spells the names again.
 *
 * @example
 * await fetch(url, { method: 'POST', headers: credentialHeaders('test-client', 'test-api-key') });
 */
export function credentialHeaders(
  clientId: string,
  apiKey: string,
): Record<(typeof serviceHeaders)['clientId'] | (typeof serviceHeaders)['apiKey'], string> {
  return { [serviceHeaders.clientId]: clientId, [serviceHeaders.apiKey]: apiKey };
}

/** Reserved path prefix of the mock's control API (not part of the service). */
export const controlPrefix = '/__pck/';

/**
 * The mock's default test credentials (decision 0001): the client, its API key and the webhook signing key a fresh
 * mock accepts and sends. The Pact examples, the CLI and the tests use the same values.
 *
 * @example
 * const headers = { [serviceHeaders.clientId]: defaultCredentials.clientId, [serviceHeaders.apiKey]: defaultCredentials.apiKey };
 */
export const defaultCredentials = {
  clientId: 'test-client',
  apiKey: 'test-api-key',
  webhookSigningKey: 'test-signing-key',
} as const;

/**
 * Control routes for Pact verifiers (Pact's provider-state and message conventions): point a verifier's state change
 * URL at `providerStates`, and its message transport at `messages`.
 *
 * @example
 * // pact-verifier --state-change-url http://127.0.0.1:4010/__pck/provider-states
 * await fetch(`${mock.url}${pactControlPaths.providerStates}`, { method: 'POST', body: JSON.stringify({ state: '', action: 'setup' }) });
 */
export const pactControlPaths = {
  providerStates: `${controlPrefix}provider-states`,
  messages: `${controlPrefix}messages`,
} as const;
