/**
 * The shape of the token operations over a shared token state, apart from their code (shared-tokens.ts): the token
 * service and the composition root name them here, and the Node entries pass the operations in, so the browser
 * builds, which never have a shared token state (a Redis store), do not carry them.
 *
 * @module
 */
import type { Assumptions } from '../../../assumptions.ts';
import type { TokenPair, TokenPairResponse } from '../../../types/rest.ts';
import type { Clock } from '../clock.ts';
import type { EventBus } from '../domain/events.ts';
import type { SharedTokenState, TokenStanding } from '../store/token-state.ts';
import type { AccessTokenContext, TokenCheck } from './access-token-check.ts';
import type { AccessTokenCodec } from './access-token-codec.ts';
import type { ClientTokens } from './client-tokens.ts';

/** What the shared operations need of their token service. */
export interface SharedTokenContext {
  readonly shared: SharedTokenState;
  readonly codec: AccessTokenCodec;
  readonly clock: Clock;
  readonly assumptions: Pick<Assumptions, 'tokenTtlSeconds' | 'repeatGenerateToken'> &
    Partial<Pick<Assumptions, 'expirationUnit'>>;
  readonly maxRefresh: number;
  /** A client's in-process part: its ordinal, its refresh counter and the generation last read. */
  readonly state: (clientId: string) => ClientTokens;
  readonly ids: { next: number; readonly base: number };
  readonly jtiHead: string;
  readonly refreshHead: string;
  readonly events: EventBus | undefined;
  /** The checks of a token that need no store (signature, clock, client). */
  readonly local: Omit<AccessTokenContext, 'isRevoked'>;
  /** Empties what the process keeps (its counters and the codec's cache), as a control reset does with memory. */
  readonly resetLocal: () => void;
}

/** A token check over a shared state, with the use of the failure armed for the request's path it took, if any. */
export type StoreTokenCheck = TokenCheck & { readonly failure?: TokenStanding['failure'] };

/** The token operations that differ over a shared state; tokens.ts keeps the rest. */
export interface SharedTokenOps {
  generate(clientId: string): Promise<TokenPairResponse>;
  refresh(clientId: string, refreshToken: string): Promise<TokenPairResponse>;
  revoke(clientId: string, token: string | undefined): Promise<{ revoked: 'client' | 'token'; refresh_tokens: number }>;
  issue(clientId: string): TokenPair;
  /** With `failPath`, the store's check also takes a use of the failure armed for that path. */
  verify(
    token: string | undefined,
    clientIdHeader: string | undefined,
    failPath?: string,
  ): TokenCheck | Promise<StoreTokenCheck>;
  reset(): void;
}

/** Builds the shared operations over a context: `sharedTokenOps` of shared-tokens.ts, passed in by the Node entries. */
export type SharedTokenOpsFactory = (c: SharedTokenContext) => SharedTokenOps;
