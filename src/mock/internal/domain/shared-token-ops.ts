/**
 * What the two token implementations share: the context of the operations over a shared token state, apart from
 * their code (shared-tokens.ts), and the refusals both answer. The Node entries pass those operations in, so the
 * browser builds, which never have a shared token state (a Redis store), do not carry them.
 *
 * @module
 */
import type { Assumptions } from '../../../assumptions.ts';
import { kitMessage } from '../../../internal/messages.ts';
import { serviceHeaders } from '../../../spec-names.ts';
import type { TokenPair } from '../../../types/rest.ts';
import { restError } from '../http-error.ts';
import type { SharedTokenState, TokenStanding } from '../store/token-state.ts';
import type { AccessTokenContext, TokenCheck } from './access-tokens.ts';
import type { ClientTokens } from './client-tokens.ts';
import type { EventBus, TokenIssued } from './events.ts';

/** The 401 refusals of the token calls, in the kit's voice: what went wrong and what to call instead. */
export const tokenRefusals = {
  /** generate-token called again for a client when the ledger says a repeat is refused. */
  generatedAlready: () =>
    restError(
      401,
      kitMessage(
        'generate-token was already called for this client: call it only once and use refresh-token with your refresh_token to get new tokens.',
      ),
    ),
  /** refresh-token with a token that is not an unused refresh token of the client. */
  refreshUnknown: () =>
    restError(
      401,
      kitMessage(
        'refresh_token is unknown or already used: send the refresh_token of the latest token pair (each one works once), or call generate-token.',
      ),
    ),
  /** refresh-token with a refresh token issued before a revoke-all. */
  refreshRevoked: () =>
    restError(401, kitMessage('refresh_token was revoked with revoke-token: call generate-token for a new pair.')),
  /** revoke-token with an x-jwt-token that is not an access token of the client. */
  notClientToken: (clientId: string) =>
    restError(
      401,
      kitMessage(
        `${serviceHeaders.jwt} is not a token issued to client "${clientId}": send one of its access tokens, or leave the header out to revoke all of them.`,
      ),
    ),
};

/** What the shared operations need of their token service. */
export interface SharedTokenContext {
  readonly shared: SharedTokenState;
  readonly assumptions: Pick<Assumptions, 'tokenTtlSeconds' | 'repeatGenerateToken'> &
    Partial<Pick<Assumptions, 'expirationUnit'>>;
  readonly maxRefresh: number;
  /** A client's in-process part: its ordinal, its refresh counter and the generation last read. */
  readonly state: (clientId: string) => ClientTokens;
  readonly ids: { next: number; readonly base: number };
  /** The jti of token number `j`. */
  readonly jti: (j: number) => string;
  /** Signs the next token id of a client in generation `gen` with refresh number `n`, expiring at `exp` (seconds). */
  readonly signed: (clientId: string, via: TokenIssued['via'], gen: number, n: number, exp: number) => TokenPair;
  readonly refreshHead: string;
  readonly events: EventBus | undefined;
  /** The checks of a token that need no store (decoding, the virtual clock, the clients). */
  readonly local: Omit<AccessTokenContext, 'isRevoked'>;
  /** Empties what the process keeps (its counters and the codec's cache), as a control reset does with memory. */
  readonly resetLocal: () => void;
}

/** A token check over a shared state, with the use of the failure armed for the request's path it took, if any. */
export type StoreTokenCheck = TokenCheck & { readonly failure?: TokenStanding['failure'] };
