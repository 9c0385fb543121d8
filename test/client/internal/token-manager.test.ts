// The token manager with a stand-in fetch (any fetch works): the cases the mock cannot time on purpose, such as two
// processes sharing one token store, one of which read the old pair just before the other refreshed it.
import { describe, expect, it } from 'vitest';
import { createMemoryTokenStore, type TokenPair, type TokenStore } from '../../../src/client/index.ts';
import type { FetchLike } from '../../../src/client/internal/http.ts';
import { createTokenManager } from '../../../src/client/internal/token-manager.ts';

const now = 1_800_000_000_000;
const stale: TokenPair = { token: 't0', refresh_token: 'r0', expiration: now / 1000 - 1 };

/** A token service stand-in: every call issues pair n, valid for 600 s; `calls` lists the endpoints called. */
function standIn() {
  const calls: string[] = [];
  const fetch: FetchLike = async (url) => {
    calls.push(url.slice(url.lastIndexOf('/') + 1));
    const n = calls.length;
    const data = { token: `t${n}`, refresh_token: `r${n}`, expiration: now / 1000 + 600 };
    return new Response(JSON.stringify({ status: 'SUCCESS', data }), { status: 200 });
  };
  return { calls, fetch };
}

function manager(fetch: FetchLike, store: TokenStore) {
  return createTokenManager({
    baseUrl: 'http://service.test',
    clientId: 'c',
    apiKey: 'k',
    fetch,
    store,
    now: () => now,
    refreshSkewMs: 30_000,
    refusedRefresh: 'generate-again',
  });
}

describe('token manager', () => {
  it('reuses a refresh that finished after it read the old pair, instead of spending the refresh token again', async () => {
    const service = standIn();
    const shared = createMemoryTokenStore(stale);
    let release: () => void = () => undefined;
    let gate: Promise<void> | undefined = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Process B's first read returns the old pair, then waits until process A has refreshed.
    const slowStore: TokenStore = {
      get: async () => {
        const pair = shared.get();
        const wait = gate;
        gate = undefined;
        if (wait) await wait;
        return pair;
      },
      set: shared.set,
      clear: shared.clear,
    };
    const b = manager(service.fetch, slowStore).token();
    expect(await manager(service.fetch, shared).token()).toBe('t1');
    release();
    expect(await b).toBe('t1');
    expect(service.calls).toEqual(['refresh-token']);
  });

  it('recover() with a token that is no longer the stored one makes no call', async () => {
    const service = standIn();
    const tokens = manager(service.fetch, createMemoryTokenStore(stale));
    expect(await tokens.token()).toBe('t1');
    expect(await tokens.recover('t0')).toBe('t1');
    expect(service.calls).toEqual(['refresh-token']);
    expect(await tokens.recover('t1')).toBe('t2');
    expect(service.calls).toEqual(['refresh-token', 'refresh-token']);
  });

  it('generates only when the store is empty, once for concurrent callers', async () => {
    const service = standIn();
    const tokens = manager(service.fetch, createMemoryTokenStore());
    expect(await Promise.all([tokens.token(), tokens.token(), tokens.token()])).toEqual(['t1', 't1', 't1']);
    expect(service.calls).toEqual(['generate-token']);
    await tokens.close();
    expect(service.calls).toEqual(['generate-token', 'revoke-token']);
  });
});
