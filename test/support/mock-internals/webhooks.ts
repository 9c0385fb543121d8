/**
 * Test support: the names tests use from the mock's webhook delivery: dispatcher, attempts and retry timing, the
 * delivery record, transports (`src/mock/internal/webhooks/`).
 *
 * Tests reach `src/mock/internal/` only through `test/support/mock-internals/` (rule
 * `tests-reach-mock-internals-through-support`, `npm run check:architecture`), so a move inside the mock changes one
 * of these lists instead of every test that used the module. One module per part, not one for all: a test of the
 * clock should not load the GraphQL engine and ioredis: with a single entry for everything, every light test file
 * would pay for importing all of it.
 *
 * @module
 */

export type { DeliveryCaps } from '../../../src/mock/internal/store/stored.ts';
export { retryAfterMs, retryDelayMs } from '../../../src/mock/internal/webhooks/delivery-attempts.ts';
export {
  createDeliveryHeaders,
  type Delivery,
  type DeliveryRecord,
  newDelivery,
  paymentStatusPayload,
  recordAttempt,
  restartRound,
  settledEvent,
  snapshot,
  storeDeliveryId,
  type WebhookEvent,
} from '../../../src/mock/internal/webhooks/delivery-record.ts';
export {
  createDeliveryStore,
  type DeliveryFilter,
  type DeliveryStore,
  deliveryMatches,
} from '../../../src/mock/internal/webhooks/delivery-store.ts';
export { createWebhookDispatcher } from '../../../src/mock/internal/webhooks/dispatcher.ts';
export type {
  WebhookDispatcher,
  WebhookDispatcherOptions,
} from '../../../src/mock/internal/webhooks/dispatcher-rules.ts';
export { createWebhookFanout, type WebhookFanoutDeps } from '../../../src/mock/internal/webhooks/fanout.ts';
export { createHttpTransport } from '../../../src/mock/internal/webhooks/http-post.ts';
export {
  createSharedDeliveries,
  type SharedDeliveries,
  type SharedDeliveriesDeps,
} from '../../../src/mock/internal/webhooks/shared-deliveries.ts';
export {
  type AttemptAbort,
  createAttemptAbort,
  createFetchTransport,
  createInProcessTransport,
  inProcessReceivers,
  PostError,
  receiverUrl,
  type WebhookTransport,
} from '../../../src/mock/internal/webhooks/transport.ts';
