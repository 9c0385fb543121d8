/**
 * Test support: the names tests use from the mock's the control plane: the control API's routes (`src/mock/internal/control/`).
 *
 * Tests reach `src/mock/internal/` only through `test/support/mock-internals/` (rule
 * `tests-reach-mock-internals-through-support`, `npm run check:architecture`), so a move inside the mock changes one
 * of these lists instead of every test that used the module. One module per part, not one for all: a test of the
 * clock should not load the GraphQL engine and ioredis (measured on 8 light test files on the loaded host: one entry
 * for everything added about 1.5 s of import time per file, one module per part about 0.15 s).
 *
 * @module
 */
export { controlRoutes } from '../../../src/mock/internal/control/routes.ts';
