/**
 * The 401 messages of generate-token and refresh-token, in the kit's voice: what went wrong and what to call. One
 * place for the in-process token service (tokens.ts) and the one over a shared token state (shared-tokens.ts).
 *
 * @module
 */

/** generate-token called again for a client when the ledger says a repeat is refused. */
export const generatedAlready =
  'generate-token was already called for this client: call it only once and use refresh-token with your refresh_token to get new tokens.';

/** refresh-token with a token that is not an unused refresh token of the client. */
export const refreshUnknown =
  'refresh_token is unknown or already used: send the refresh_token of the latest token pair (each one works once), or call generate-token.';

/** refresh-token with a refresh token issued before a revoke-all. */
export const refreshRevoked = 'refresh_token was revoked with revoke-token: call generate-token for a new pair.';
