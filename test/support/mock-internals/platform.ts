/**
 * Test support: the names tests use from the mock's the platform seam's Node and web crypto (`src/mock/internal/platform/`).
 *
 * Tests reach `src/mock/internal/` only through `test/support/mock-internals/` (rule
 * `tests-reach-mock-internals-through-support`, `npm run check:architecture`), so a move inside the mock changes one
 * of these lists instead of every test that used the module. One module per part, not one for all: a test of the
 * clock should not load the GraphQL engine and ioredis: with a single entry for everything, every light test file
 * would pay for importing all of it.
 *
 * @module
 */
export { createHs256Signer, createSecretMatcher, nodeCrypto } from '../../../src/mock/internal/platform/node-crypto.ts';
export { webCrypto } from '../../../src/mock/internal/platform/web-crypto.ts';
