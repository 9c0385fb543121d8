/**
 * Where the client keeps its token pair. generate-token is meant to be called once per client (spec 4.1, 8), so a
 * process that restarts should find the pair it had: give the client a store that persists it (a file, a cache,
 * a secret store). Every method may be synchronous or return a promise.
 *
 * @module
 */
import type { TokenPair } from '../types/rest.ts';

/** Keeps the current token pair (`token`, `refresh_token`, `expiration` of spec 2.1). */
export interface TokenStore {
  /** The stored pair, or `undefined` when there is none yet. */
  get(): TokenPair | undefined | Promise<TokenPair | undefined>;
  /** Replaces the stored pair (after generate-token or refresh-token). */
  set(pair: TokenPair): void | Promise<void>;
  /** Forgets the pair (after revoke-token on `close()`). */
  clear(): void | Promise<void>;
}

/**
 * A store that keeps the pair in memory: the default. The pair is lost when the process ends, so the next process
 * calls generate-token again; use a persistent store where that matters.
 *
 * @example
 * const store = createMemoryTokenStore();
 * const client = createPaymentClient({ baseUrl, clientId, apiKey, tokenStore: store });
 */
export function createMemoryTokenStore(initial?: TokenPair): TokenStore {
  let pair = initial;
  return {
    get: () => pair,
    set: (next) => {
      pair = next;
    },
    clear: () => {
      pair = undefined;
    },
  };
}
