/**
 * Test support: the names tests use from the mock's the HTTP side: browser and host checks, the control token, error mapping, pages, published sources (`src/mock/internal/http/`).
 *
 * Tests reach `src/mock/internal/` only through `test/support/mock-internals/` (rule
 * `tests-reach-mock-internals-through-support`, `npm run check:architecture`), so a move inside the mock changes one
 * of these lists instead of every test that used the module. One module per part, not one for all: a test of the
 * clock should not load the GraphQL engine and ioredis: with a single entry for everything, every light test file
 * would pay for importing all of it.
 *
 * @module
 */
export {
  defaultBrowserOptions,
  parseAllowedHosts,
  parseCorsOrigins,
  resolveBrowserOptions,
} from '../../../src/mock/internal/http/browser-options.ts';
export { createCoverageCollector } from '../../../src/mock/internal/http/coverage.ts';
export { createErrorMapper, type MockRequest, type RouteEntry } from '../../../src/mock/internal/http/exchange.ts';
export { inProcessAddress } from '../../../src/mock/internal/http/fetch-adapter.ts';
export {
  bearerToken,
  controlTokenRefusal,
  createHostCheck,
  hostName,
  isLoopbackHost,
} from '../../../src/mock/internal/http/guards.ts';
export { createPageRoutes } from '../../../src/mock/internal/http/pages.ts';
export { createPipeline, type PipelineDeps, type PipelineSync } from '../../../src/mock/internal/http/pipeline.ts';
export { publishedSourcePaths } from '../../../src/mock/internal/http/published-sources.ts';
export { createRequestLog, type RequestLogEntry, safeUrl } from '../../../src/mock/internal/http/request-log.ts';
export { createRouter, maxKeptBodyBytes } from '../../../src/mock/internal/http/routes.ts';
export type { WebhookAttemptReport } from '../../../src/mock/internal/webhooks/delivery-attempts.ts';
