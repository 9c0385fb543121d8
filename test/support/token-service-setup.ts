/**
 * The token service the auth unit tests build: two clients (`a`/`ka`, `b`/`kb`), 600 s tokens, seed `s`, on a
 * virtual clock whose real time the test moves with `tick`.
 *
 * @module
 */

import { createTokenService } from './mock-internals/domain.ts';
import { createClock } from './mock-internals/foundations.ts';
import { nodeCrypto } from './mock-internals/platform.ts';

/** What a test may change of the service: the repeat-generate rule and the refresh-token cap. */
export interface TokenServiceSetup {
  readonly repeatGenerateToken?: 'reissue' | 'reject';
  readonly maxRefreshTokensPerClient?: number;
}

/** A fresh token service, its clock, and `tick(ms)` moving the clock's real time on. */
export function tokenServiceSetup(setup: TokenServiceSetup = {}) {
  let real = 1_700_000_000_000;
  const clock = createClock({ realNow: () => real });
  const tokens = createTokenService({
    assumptions: { tokenTtlSeconds: 600, repeatGenerateToken: setup.repeatGenerateToken ?? 'reissue' },
    clients: [
      { clientId: 'a', apiKey: 'ka' },
      { clientId: 'b', apiKey: 'kb' },
    ],
    clock,
    seed: 's',
    crypto: nodeCrypto,
    ...(setup.maxRefreshTokensPerClient === undefined
      ? {}
      : { maxRefreshTokensPerClient: setup.maxRefreshTokensPerClient }),
  });
  return { tokens, clock, tick: (ms: number) => (real += ms) };
}
