/**
 * The web platform (one side of the seam in platform.ts): what browsers, service workers' pages, edge workers, Bun and Deno
 * share. Hashing from @noble/hashes (synchronous, audited), webhooks with `fetch`, no package files (the published
 * sources answer 404 saying how to import them) and no browser pages, and graphql-js without graphql-jit. Picked by
 * the `browser` and `worker` builds of `payment-contract-kit/msw` and `payment-contract-kit/mock`.
 *
 * @module
 */

import { webCrypto } from './internal/platform/web-crypto.ts';
import { createFetchTransport } from './internal/webhooks/transport.ts';
import type { MockPlatform } from './platform.ts';

/** The shared Web APIs' pieces for the mock's core. */
export const webPlatform: MockPlatform = {
  name: 'web',
  crypto: webCrypto,
  createNetworkTransport: () => createFetchTransport(),
  readPackageFile: undefined,
  registerPages: undefined,
  monotonicNs: () => BigInt(Math.round(performance.now() * 1e6)),
  jit: undefined,
  loadGraphqlAtStart: true,
};
