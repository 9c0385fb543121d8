/**
 * Test support: the names tests use from the mock's the shared state stores: file and Redis (`src/mock/internal/store/`).
 *
 * Tests reach `src/mock/internal/` only through `test/support/mock-internals/` (rule
 * `tests-reach-mock-internals-through-support`, `npm run check:architecture`), so a move inside the mock changes one
 * of these lists instead of every test that used the module. One module per part, not one for all: a test of the
 * clock should not load the GraphQL engine and ioredis: with a single entry for everything, every light test file
 * would pay for importing all of it.
 *
 * @module
 */

export type {
  AttemptVerdict,
  DeliveryCaps,
  DeliveryStatePort,
  NewDelivery,
} from '../../../src/mock/internal/store/delivery-state.ts';
export { createFileStore, lineChecksum } from '../../../src/mock/internal/store/file-store.ts';
export type { AcceptedPayment, PaymentCaps, PaymentStatePort } from '../../../src/mock/internal/store/payment-state.ts';
export { createRedisStore, type RedisStoreOptions } from '../../../src/mock/internal/store/redis-store.ts';
export { createSandboxEpoch, type SandboxEpoch } from '../../../src/mock/internal/store/sandbox-epoch.ts';
export type {
  PositionedRecord,
  RecordLogStore,
  SandboxStore,
  SharedStateStore,
  StoreRecord,
} from '../../../src/mock/internal/store/sandbox-store.ts';
export { createStateSync, type StateSync } from '../../../src/mock/internal/store/state-sync.ts';
export { StoreSetupError, StoreUnavailableError } from '../../../src/mock/internal/store/store-errors.ts';
export { parseStoreUrl } from '../../../src/mock/internal/store/store-url.ts';
