/**
 * Names for the REST and webhook shapes of openapi.yaml, picked out of the types openapi-typescript generates.
 *
 * @module
 */
import type { components, operations, webhooks } from '../../generated/openapi.ts';

type Schemas = components['schemas'];

/** Access token, refresh token and expiry (spec 2.1 `data`). */
export type TokenPair = Schemas['TokenPair'];
/** Successful answer of generate-token and refresh-token: `{ status: "SUCCESS", data }`. */
export type TokenPairResponse = Schemas['TokenPairResponse'];
/** Body of refresh-token. */
export type RefreshTokenRequest = Schemas['RefreshTokenRequest'];
/** Answer of revoke-token (shape assumed by the kit). */
export type RevokeTokenResponse = Schemas['RevokeTokenResponse'];
/** Error answer of the REST endpoints: `{ status: "ERROR", message }` (spec 7.1). */
export type ErrorResponse = Schemas['ErrorResponse'];
/** Headers every token endpoint requires. */
export type TokenRequestHeaders = operations['generateToken']['parameters']['header'];
/** Payload of the payment status webhook: the payment's fields, status as a string, and the echoed metadata. */
export type PaymentStatusWebhookPayload = Schemas['PaymentStatusWebhookPayload'];
/** Headers of the payment status webhook, under the kit's default names (see ASSUMPTIONS.md). */
export type PaymentStatusWebhookHeaders = NonNullable<webhooks['paymentStatus']['post']>['parameters']['header'];
/**
 * The REST endpoints of openapi.yaml as openapi-typescript types them, for typed REST clients.
 *
 * @example
 * const rest = createClient<RestPaths>({ baseUrl }); // openapi-fetch
 */
export type RestPaths = import('../../generated/openapi.ts').paths;
/** REST paths of the service, as written in openapi.yaml. */
export type TokenEndpointPath = keyof import('../../generated/openapi.ts').paths;
