/**
 * Test support: the names tests use from what every part of the mock builds on: the virtual clock, the seeded random
 * source and the ordered lists (the base of `domain/`), the background writes and the HTTP error (the root modules)
 * and the paged histories (`history/`).
 *
 * Tests reach `src/mock/internal/` only through `test/support/mock-internals/` (rule
 * `tests-reach-mock-internals-through-support`, `npm run check:architecture`), so a move inside the mock changes one
 * of these lists instead of every test that used the module. One module per part, not one for all: a test of the
 * clock should not load the GraphQL engine and ioredis: with a single entry for everything, every light test file
 * would pay for importing all of it.
 *
 * @module
 */

export { afterIdle, backgroundWrites } from '../../../src/mock/internal/background-writes.ts';
export { type Clock, createClock, maxClockTime } from '../../../src/mock/internal/domain/clock.ts';
export { SeqList } from '../../../src/mock/internal/domain/ordered-lists.ts';
export { createSeededRandom, uuidV4FromHex } from '../../../src/mock/internal/domain/random.ts';
export { checkPageQuery, collectPage, parseListQuery, readAllPages } from '../../../src/mock/internal/history/page.ts';
export { MockHttpError } from '../../../src/mock/internal/http-error.ts';
