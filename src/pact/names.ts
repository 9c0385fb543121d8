/**
 * Names the contracts share with the service interface: the provider's Pact name, the REST paths, the GraphQL
 * path and the header names. Paths and header names are fixed by the spec (sections 4 and 5), so contracts use
 * them as literals. Only `providerName` is part of `payment-contract-kit/pact`: the request builders write the
 * paths and headers, so a consumer has no need to spell them.
 *
 * @module
 */
import { serviceHeaders, servicePaths } from '../contract/service-names.ts';
import type { TokenEndpointPath } from '../types/rest.ts';

/**
 * The provider name every contract of the kit uses. Keep it when you publish your own consumer pacts, so the
 * provider's verification and `can-i-deploy` see one integration per consumer.
 *
 * @example
 * const pact = new PactV4({ consumer: 'checkout-web', provider: providerName });
 */
export const providerName = 'card-payment-service';

/**
 * REST paths of the token endpoints (spec 4.1 to 4.3), typed against openapi.yaml's paths.
 *
 * @example
 * interaction.withRequest('POST', tokenPaths.generate, (b) => b.headers(tokenRequestHeaders()));
 */
export const tokenPaths = {
  generate: servicePaths.generateToken,
  refresh: servicePaths.refreshToken,
  revoke: servicePaths.revokeToken,
} as const satisfies Record<string, TokenEndpointPath>;

/**
 * Which token endpoint: a key of {@link tokenPaths}.
 *
 * @example
 * const endpoint: TokenEndpoint = 'refresh';
 * withTokenRequest(interaction, endpoint);
 */
export type TokenEndpoint = keyof typeof tokenPaths;

/**
 * The GraphQL path (spec 4.4 to 4.6); it carries no version segment (spec 9).
 *
 * @example
 * interaction.withRequest('POST', graphqlPath);
 */
export const graphqlPath = servicePaths.graphql;

/**
 * Request header names of spec 5.
 *
 * @example
 * const headers = { [headerNames.jwt]: 'eyJ...' };
 */
export const headerNames = {
  clientId: serviceHeaders.clientId,
  apiKey: serviceHeaders.apiKey,
  jwt: serviceHeaders.jwt,
} as const;
