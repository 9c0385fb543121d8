/**
 * The one check of client credentials (spec 4: `x-client-id` + `x-api-key`): the token endpoints use it through the
 * token service, and the GraphQL endpoint's optional client-header check (graphqlRequiresClientHeaders) uses the same
 * matcher and the same message, so the two can never disagree on what a wrong key is.
 *
 * @module
 */
import { kitMessage } from '../../../internal/messages.ts';
import { serviceHeaders } from '../../../spec-names.ts';
import { restError } from '../http-error.ts';
import type { MockClientConfig } from '../option-types.ts';

/** Credential checks against the configured clients of one mock instance. */
export interface CredentialCheck {
  /** Returns the client id, or throws a 401 `MockHttpError` (7.1 body) naming the missing or wrong header. */
  authenticate(clientIdHeader: string | undefined, apiKeyHeader: string | undefined): string;
  /**
   * Whether `apiKey` is the key of `clientId`, compared in constant time; false for an unknown client. For checks
   * outside {@link CredentialCheck.authenticate}, such as the GraphQL endpoint's optional client-header check.
   */
  apiKeyMatches(clientId: string, apiKey: string): boolean;
  /** True when `clientId` is a configured client. */
  isClient(clientId: string): boolean;
}

/**
 * The message for an API key that is not the one configured for `clientId`.
 *
 * @example
 * wrongApiKeyMessage('shop-1'); // '… Wrong x-api-key for client "shop-1": send the API key configured for it.'
 */
export function wrongApiKeyMessage(clientId: string): string {
  return kitMessage(`Wrong ${serviceHeaders.apiKey} for client "${clientId}": send the API key configured for it.`);
}

/**
 * Makes the credential check for `clients` with the platform's constant-time `secretMatcher`: each configured key is
 * digested once here, a check digests only what the request sent.
 *
 * @example
 * const credentials = createCredentialCheck([{ clientId: 'shop-1', apiKey: 'key-1' }], platform.crypto.secretMatcher);
 * credentials.authenticate('shop-1', 'key-1'); // 'shop-1'
 */
export function createCredentialCheck(
  clients: readonly MockClientConfig[],
  secretMatcher: (secret: string) => (candidate: string) => boolean,
): CredentialCheck {
  const apiKeys = new Map(clients.map((c) => [c.clientId, secretMatcher(c.apiKey)] as const));
  return {
    authenticate(clientIdHeader, apiKeyHeader) {
      if (!clientIdHeader)
        throw restError(401, kitMessage(`Missing header ${serviceHeaders.clientId}: send your client id.`));
      if (!apiKeyHeader)
        throw restError(401, kitMessage(`Missing header ${serviceHeaders.apiKey}: send your API key.`));
      const matches = apiKeys.get(clientIdHeader);
      if (matches === undefined)
        throw restError(
          401,
          kitMessage(
            `Unknown client in ${serviceHeaders.clientId}: "${clientIdHeader}" is not configured on this mock (see --client-id or --config).`,
          ),
        );
      if (!matches(apiKeyHeader)) throw restError(401, wrongApiKeyMessage(clientIdHeader));
      return clientIdHeader;
    },
    apiKeyMatches(clientId, apiKey) {
      return apiKeys.get(clientId)?.(apiKey) ?? false;
    },
    isClient(clientId) {
      return apiKeys.has(clientId);
    },
  };
}
