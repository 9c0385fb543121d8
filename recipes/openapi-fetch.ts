// Recipe: the REST token endpoints with openapi-fetch, typed by the kit's `RestPaths` (openapi.yaml as
// openapi-typescript types it). Paths, headers, bodies and answers are all checked by the compiler.

import createClient from 'openapi-fetch';
import type { RestPaths } from 'payment-contract-kit';

/** Credentials of one client of the service (spec 5: `x-client-id`, `x-api-key`). */
export interface ClientCredentials {
  readonly clientId: string;
  readonly apiKey: string;
}

/** A typed client for the token endpoints of the service at `baseUrl`. */
export function createRestClient(baseUrl: string) {
  return createClient<RestPaths>({ baseUrl });
}

/** Generates a token pair, refreshes it once and revokes the refreshed token; answers the tokens it saw. */
export async function tokenLifecycle(baseUrl: string, { clientId, apiKey }: ClientCredentials) {
  const rest = createRestClient(baseUrl);
  const header = { 'x-client-id': clientId, 'x-api-key': apiKey };
  const generated = await rest.POST('/api/v2/accounting/token/generate-token', { params: { header } });
  // A 7.1 error body is typed too: `{ status: 'ERROR', message }`.
  if (generated.error) throw new Error(`generate-token failed: ${generated.error.message}`);
  const refreshed = await rest.POST('/api/v2/accounting/token/refresh-token', {
    params: { header },
    body: { refresh_token: generated.data.data.refresh_token },
  });
  if (refreshed.error) throw new Error(`refresh-token failed: ${refreshed.error.message}`);
  const revoked = await rest.POST('/api/v2/accounting/token/revoke-token', {
    params: { header: { ...header, 'x-jwt-token': refreshed.data.data.token } },
  });
  if (revoked.error) throw new Error(`revoke-token failed: ${revoked.error.message}`);
  return { generated: generated.data.data, refreshed: refreshed.data.data, revoked: revoked.data };
}

/** Generates one access token; the other recipes use it to call `/graphql`. */
export async function generateToken(baseUrl: string, { clientId, apiKey }: ClientCredentials): Promise<string> {
  const { data, error } = await createRestClient(baseUrl).POST('/api/v2/accounting/token/generate-token', {
    params: { header: { 'x-client-id': clientId, 'x-api-key': apiKey } },
  });
  if (error) throw new Error(`generate-token failed: ${error.message}`);
  return data.data.token;
}
