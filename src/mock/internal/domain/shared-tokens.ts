/**
 * The token service's operations over a shared token state (a Redis store; decision 0040): the state lives in the
 * store, changed by one atomic script per call, and every token check reads it in one round trip, so a generate,
 * refresh or revocation through one replica holds for the very next request through any other. Signing, the token
 * strings and the ids stay in process (tokens.ts makes them as with memory); the store keeps which refresh numbers
 * are unused, the generations and the single revocations.
 *
 * `issue` (the control API's `issueToken()`) is a synchronous call: its write goes in the background, and the token
 * calls of this process wait for it first (so do the next answer and `control.durable()`). A reset here empties only
 * what the process keeps: the store's reset is the sandbox's new epoch (store/sandbox-epoch.ts). A check also reads
 * the sandbox's epoch and clock, and the token's expiry is judged on that clock; given the request's path, it takes
 * a use of the failure armed for it too (the route answers that failure instead).
 *
 * Only the Node entries import this module (they pass {@link sharedTokenOps} to the composition root): the browser
 * builds never have a Redis store, so they leave it out.
 *
 * @module
 */

import { afterIdle } from '../background-writes.ts';
import { checkAccessToken, revocationKey, tokenIdKey } from './access-tokens.ts';
import { type ClientTokens, refreshNumber } from './client-tokens.ts';
import type { TokenIssued } from './events.ts';
import { type SharedTokenContext, tokenRefusals } from './shared-token-ops.ts';
import type { SharedTokenOps } from './tokens.ts';

/** The key of one token in the store: client, jti and exp (see {@link revocationKey}). */
const tokenKey = (clientId: string, jti: string, exp: number) => revocationKey(tokenIdKey(clientId, jti), exp);

/**
 * The shared operations over `c`.
 *
 * @example
 * const ops = sharedTokenOps({ shared, signed, local, ... });
 * const answer = await ops.generate('test-client');
 */
export function sharedTokenOps(c: SharedTokenContext): SharedTokenOps {
  const { port } = c.shared;
  const afterOwn = <T>(work: () => Promise<T>): Promise<T> => afterIdle(c.shared.idle, work);
  const nextNumber = (s: ClientTokens) => c.ids.base + s.issued++;
  // A number the store refused goes back when nothing took the next one, so one process draws what memory draws.
  const giveBack = (s: ClientTokens, n: number) => {
    if (c.ids.base + s.issued - 1 === n) s.issued--;
  };

  const ttl = c.assumptions.tokenTtlSeconds;
  const expiryNow = () => Math.floor(c.local.now() / 1000) + ttl;

  // Expiring from the time of signing: after the store's answer, as with memory right away.
  const signed = (clientId: string, via: TokenIssued['via'], gen: number, n: number, exp = expiryNow()) =>
    c.signed(clientId, via, gen, n, exp);

  return {
    generate(clientId) {
      const s = c.state(clientId);
      const n = nextNumber(s);
      const how = {
        tokenKey: '',
        via: c.assumptions.repeatGenerateToken === 'reject' ? 'generate-once' : 'generate',
        maxRefresh: c.maxRefresh,
      } as const;
      return afterOwn(() => port.issue(clientId, n, how)).then((gen) => {
        if (gen < 0) {
          giveBack(s, n);
          throw tokenRefusals.generatedAlready();
        }
        s.generated = true;
        return { status: 'SUCCESS', data: signed(clientId, 'generate', gen, n) };
      });
    },
    refresh(clientId, refreshToken) {
      const s = c.state(clientId);
      const spent = refreshNumber(s, c.refreshHead, refreshToken);
      if (spent < 0) return Promise.reject(tokenRefusals.refreshUnknown());
      const n = nextNumber(s);
      return afterOwn(() => port.refresh(clientId, spent, n, c.maxRefresh)).then((gen) => {
        if (gen !== -1) c.events?.emit({ kind: 'token.refreshed', clientId, refreshNumber: spent });
        if (gen < 0) giveBack(s, n);
        if (gen === -1) throw tokenRefusals.refreshUnknown();
        if (gen === -2) throw tokenRefusals.refreshRevoked();
        return { status: 'SUCCESS', data: signed(clientId, 'refresh', gen, n) };
      });
    },
    revoke(clientId, token) {
      if (token === undefined || token === '')
        return afterOwn(() => port.revokeAll(clientId)).then(({ generation, unused }) => {
          c.state(clientId).gen = generation;
          c.events?.emit({ kind: 'token.revoked', clientId, tokenId: undefined, expiresAt: undefined });
          return { revoked: 'client' as const, refresh_tokens: unused };
        });
      const claims = c.local.decode(token);
      if (!claims || claims.sub !== clientId) return Promise.reject(tokenRefusals.notClientToken(clientId));
      const nowSec = c.local.now() / 1000;
      return afterOwn(() => port.revokeOne(tokenKey(clientId, claims.jti, claims.exp), claims.exp, nowSec)).then(() => {
        c.events?.emit({ kind: 'token.revoked', clientId, tokenId: claims.jti, expiresAt: claims.exp });
        return { revoked: 'token' as const, refresh_tokens: 0 };
      });
    },
    issue(clientId) {
      // Signed with the generation last read here; the store counts the pair as current should it have moved on.
      const s = c.state(clientId);
      const n = nextNumber(s);
      const exp = expiryNow();
      const key = tokenKey(clientId, c.jti(c.ids.base + c.ids.next), exp);
      const how = { tokenKey: key, via: 'control', signedGeneration: s.gen, maxRefresh: c.maxRefresh } as const;
      const pair = signed(clientId, 'control', s.gen, n, exp);
      c.shared.background(afterOwn(() => port.issue(clientId, n, how)));
      return pair;
    },
    verify(token, clientIdHeader, failPath) {
      const claims = token ? c.local.decode(token) : undefined;
      if (!claims) return checkAccessToken(token, clientIdHeader, { ...c.local, isRevoked: () => false });
      const key = tokenKey(claims.sub, claims.jti, claims.exp);
      return afterOwn(() => port.check(claims.sub, key, failPath)).then((standing) => {
        c.shared.seen(standing.sandbox);
        const isRevoked = () =>
          Math.max(claims.gen, standing.issuedAs) < standing.generation || standing.revokedExp === claims.exp;
        const check = checkAccessToken(token, clientIdHeader, { ...c.local, isRevoked });
        return standing.failure ? { ...check, failure: standing.failure } : check;
      });
    },
    reset: c.resetLocal,
  };
}
