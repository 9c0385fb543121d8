/**
 * The checks an access token passes before the GraphQL engine runs (spec 5, 8), in the order the reasons are
 * reported: present, signed by this mock, not revoked, not expired on the virtual clock, of a configured client, and
 * of the client in `x-client-id` when the request sent one.
 *
 * @module
 */
import { kitMessage } from '../../../internal/messages.ts';
import { serviceHeaders } from '../../../spec-names.ts';
import type { AccessClaims } from './access-token-codec.ts';

/** Why a token was not accepted; keys of `Assumptions.reasonCodes`. */
export type TokenRejection = 'missingToken' | 'invalidToken' | 'expiredToken' | 'revokedToken' | 'clientMismatch';

/** Outcome of a token check: the token's client, or why it was refused and a message that says so. */
export type TokenCheck =
  | { readonly ok: true; readonly clientId: string }
  | { readonly ok: false; readonly reason: TokenRejection; readonly message: string };

/** What {@link checkAccessToken} asks of the token service. */
export interface AccessTokenContext {
  /** The verified claims of a token this mock signed, or undefined. */
  decode(token: string): AccessClaims | undefined;
  isRevoked(claims: AccessClaims): boolean;
  /** Virtual-clock time in ms. */
  now(): number;
  isClient(clientId: string): boolean;
}

function refuse(reason: TokenRejection, text: string): TokenCheck {
  return { ok: false, reason, message: kitMessage(text) };
}

/**
 * Checks `token` (from x-jwt-token); `clientIdHeader` is x-client-id when the request sent one.
 *
 * @example
 * const check = checkAccessToken(headers['x-jwt-token'], headers['x-client-id'], context);
 * if (!check.ok) return graphqlFailure(401, check.message, reasons[check.reason]);
 */
export function checkAccessToken(
  token: string | undefined,
  clientIdHeader: string | undefined,
  context: AccessTokenContext,
): TokenCheck {
  const jwt = serviceHeaders.jwt;
  if (!token)
    return refuse('missingToken', `Missing header ${jwt}: send the token from generate-token or refresh-token.`);
  const claims = context.decode(token);
  if (!claims)
    return refuse(
      'invalidToken',
      `${jwt} is not a valid token of this mock (malformed or bad signature): send the token from generate-token or refresh-token.`,
    );
  if (context.isRevoked(claims))
    return refuse(
      'revokedToken',
      `The token in ${jwt} was revoked: call refresh-token or generate-token for a new one.`,
    );
  if (context.now() >= claims.exp * 1000)
    return refuse(
      'expiredToken',
      `The token in ${jwt} has expired: call refresh-token with your refresh_token for a new one.`,
    );
  if (!context.isClient(claims.sub))
    return refuse(
      'clientMismatch',
      `The token in ${jwt} belongs to client "${claims.sub}", which is not configured on this mock.`,
    );
  if (clientIdHeader !== undefined && clientIdHeader !== claims.sub)
    return refuse(
      'clientMismatch',
      `The token in ${jwt} was issued to another client than the one in ${serviceHeaders.clientId}: use a token generated with the same client id.`,
    );
  return { ok: true, clientId: claims.sub };
}
