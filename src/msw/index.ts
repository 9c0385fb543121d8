/**
 * `payment-contract-kit/msw`: the mock as Mock Service Worker request handlers, for unit tests that cannot open a
 * port (component tests, browser tests, edge runtimes). The handlers answer the token paths, `/graphql` and the
 * control API under `/__pck/` on one base URL through the same core as `startMockServer`: the same state,
 * validation, outcomes and control handle. Webhooks go to in-process receivers (your own handler, called with a
 * real `Request`) and over HTTP to `webhookUrls`, with the same retry rules either way.
 *
 * msw is an optional peer dependency of this entry only: msw 2 (Node 20 and later) or msw 3 (Node 22.12 and later).
 * Under Node this entry runs on node:crypto, posts webhooks over node:http and opens `file:` and `redis://` stores
 * (the `store` option); bundlers and runtimes that ask for the `browser` or `worker` condition get the browser
 * build (browser.ts) of the same handlers for `setupWorker`.
 *
 * @example
 * import { setupServer } from 'msw/node';
 * import { createMockHandlers } from 'payment-contract-kit/msw';
 * const mock = createMockHandlers({ log: false });
 * const server = setupServer(...mock.handlers);
 * server.listen();
 * // fetch('http://localhost:4010/api/v2/accounting/token/generate-token', ...) is answered by the mock
 * server.close();
 * await mock.close();
 *
 * @module
 */
import { nodePlatform } from '../mock/node-platform.ts';
import { nodeStoreSeams } from '../mock/node-store.ts';
import { defaultBaseUrl } from './internal/base-url.ts';
import {
  createMockHandlersOn,
  type MockHandlers,
  type MockHandlersOptions,
  type WebhookReceiver,
} from './internal/mock-handlers.ts';

export type { MockHandlers, MockHandlersOptions, WebhookReceiver };
export { defaultBaseUrl };

/**
 * Creates the mock and its msw handlers. Requests to other origins or paths are left to msw's next handler.
 *
 * @example
 * const mock = createMockHandlers({ guide: 'both', webhookReceivers: [onWebhook] });
 * server.use(...mock.handlers);
 * mock.control.advanceClock(mock.control.assumptions.settleDelayMs); // settles and calls onWebhook
 */
export function createMockHandlers(options: MockHandlersOptions = {}): MockHandlers {
  return createMockHandlersOn(nodePlatform, options, nodeStoreSeams);
}
