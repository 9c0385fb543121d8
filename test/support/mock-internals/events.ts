/**
 * Test support: the names tests use from the mock's event vocabulary and its bus (`src/mock/internal/events.ts`).
 *
 * Tests reach `src/mock/internal/` only through `test/support/mock-internals/` (rule
 * `tests-reach-mock-internals-through-support`, `npm run check:architecture`).
 *
 * @module
 */
export { createEventBus, type MockEvent, type MockEventKind } from '../../../src/mock/internal/events.ts';
