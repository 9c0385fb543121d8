/**
 * Test support: the names tests use from the mock's events (`src/mock/internal/domain/events.ts`): the bus and the typed
 * vocabulary every reader (journal, log, coverage) listens to, and the coverage collector that reads them.
 *
 * @module
 */

export {
  createEventBus,
  type EventBus,
  type MockEvent,
  type MockEventKind,
} from '../../../src/mock/internal/domain/events.ts';
export { createCoverageCollector } from '../../../src/mock/internal/http/coverage.ts';
