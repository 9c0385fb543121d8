/**
 * `payment-contract-kit/msw` in browsers and workers: the same handlers as under Node, for msw's `setupWorker` (a
 * front-end app in its dev server, Storybook, Vitest's browser mode, Playwright component tests) or an edge
 * runtime. Package.json's `browser` and `worker` conditions pick this build; it holds no Node built-in. Hashing
 * comes from @noble/hashes (bundled), webhooks to URLs go out with `fetch`, and in-process `webhookReceivers` are
 * called in the page. The published sources (`/__pck/schema.graphql`, `/__pck/openapi.yaml`) and the browser pages
 * are not served here: import `payment-contract-kit/schema.graphql` with your bundler instead.
 *
 * @example
 * import { setupWorker } from 'msw/browser';
 * import { createMockHandlers } from 'payment-contract-kit/msw';
 * const mock = createMockHandlers({ log: false });
 * await setupWorker(...mock.handlers).start({ onUnhandledRequest: 'bypass' });
 * // fetch('http://localhost:4010/api/v2/accounting/token/generate-token', ...) is answered in the page
 *
 * @module
 */
import { webPlatform } from '../mock/web-platform.ts';
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
 * Creates the mock and its msw handlers, on the Web APIs every browser and worker has. Requests to other origins or
 * paths are left to msw's next handler.
 *
 * @example
 * const mock = createMockHandlers({ webhookReceivers: [onWebhook] });
 * worker.use(...mock.handlers);
 * mock.control.advanceClock(mock.control.assumptions.settleDelayMs); // settles and calls onWebhook
 */
export function createMockHandlers(options: MockHandlersOptions = {}): MockHandlers {
  return createMockHandlersOn(webPlatform, options);
}
