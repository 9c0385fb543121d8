/**
 * The token lifecycle: generate once, refresh ahead of expiry, one refresh at a time, one recovery from a token the
 * service refused, revoke on close.
 *
 * Single flight: while a refresh (or generate) is under way, every caller that needs a token waits for it instead
 * of starting its own, because a refresh token works once and a second refresh with it would be refused. A caller
 * that saw an old pair re-reads the store before refreshing, so a refresh that finished in the meantime (here or in
 * another process sharing the store) is used, not repeated.
 *
 * @module
 */
import type { TokenPair } from '../../types/rest.ts';
import { isAuthenticationError } from '../client-errors.ts';
import type { TokenStore } from '../token-store.ts';
import { generateToken, refreshToken, revokeToken, type TokenEndpointConfig } from './token-endpoints.ts';

/** Settings of {@link createTokenManager}. */
export interface TokenManagerConfig extends TokenEndpointConfig {
  readonly store: TokenStore;
  /** Current time in ms since the epoch, compared with `expiration` (Unix seconds, ASSUMPTIONS.md). */
  readonly now: () => number;
  /** Refresh this many ms before `expiration`. */
  readonly refreshSkewMs: number;
  /** What to do when refresh-token is refused (`Assumptions.clientRefusedRefresh`). */
  readonly refusedRefresh: 'generate-again' | 'fail';
}

/** The token lifecycle of one client. */
export interface TokenManager {
  /** A token that is not about to expire: the stored one, or a fresh one from generate or refresh. */
  token(): Promise<string>;
  /**
   * The service refused `failed` (expired or revoked): get a new token by refresh (or generate, when the refresh
   * token is refused). When the stored token is already another one, that one is returned without a call.
   */
  recover(failed: string): Promise<string>;
  /** Revokes the current token, if any, and clears the store. */
  close(): Promise<void>;
}

/** Creates the token manager of one client. */
export function createTokenManager(config: TokenManagerConfig): TokenManager {
  const { store } = config;
  let inFlight: Promise<string> | undefined;

  const fresh = (pair: TokenPair) => pair.expiration * 1000 - config.refreshSkewMs > config.now();

  async function keep(pair: TokenPair): Promise<string> {
    await store.set(pair);
    return pair.token;
  }

  async function renew(stale: TokenPair): Promise<string> {
    try {
      return await keep(await refreshToken(config, stale.refresh_token));
    } catch (error) {
      // The refresh token itself was refused (401): generating again is the only way back (ledger entry).
      if (!isAuthenticationError(error) || config.refusedRefresh === 'fail') throw error;
      return keep(await generateToken(config));
    }
  }

  /** Runs `work` unless a token call is already under way, in which case its result is shared. */
  function singleFlight(work: () => Promise<string>): Promise<string> {
    inFlight ??= work().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  }

  /** Replaces `seen` (undefined: no pair yet), unless the store already holds a newer usable pair. */
  function replace(seen: TokenPair | undefined, usable: (current: TokenPair) => boolean): Promise<string> {
    return singleFlight(async () => {
      const current = await store.get();
      if (current && current.token !== seen?.token && usable(current)) return current.token;
      if (current === undefined) return keep(await generateToken(config));
      return renew(current);
    });
  }

  return {
    async token() {
      if (inFlight) return inFlight;
      const pair = await store.get();
      if (pair && fresh(pair)) return pair.token;
      return replace(pair, fresh);
    },
    async recover(failed) {
      if (inFlight) return inFlight;
      const pair = await store.get();
      if (pair && pair.token !== failed) return pair.token;
      // Any other token than the refused one will do: its expiry is the service's to judge on the retry.
      return replace(pair, (current) => current.token !== failed);
    },
    async close() {
      if (inFlight) await inFlight.catch(() => undefined);
      const pair = await store.get();
      if (pair) await revokeToken(config, pair.token);
      await store.clear();
    },
  };
}
