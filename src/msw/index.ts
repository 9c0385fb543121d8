/**
 * `payment-contract-kit/msw`: the mock as Mock Service Worker request handlers, for unit tests that cannot open a
 * port (component tests, browser tests, edge runtimes). The handlers answer the token paths, `/graphql` and the
 * control API under `/__pck/` on one base URL through the same core as `startMockServer`: the same state,
 * validation, outcomes and control handle. Webhooks go to in-process receivers (your own handler, called with a
 * real `Request`) and over HTTP to `webhookUrls`, with the same retry rules either way.
 *
 * msw is an optional peer dependency of this entry only: msw 2 (Node 20 and later) or msw 3 (Node 22.12 and later).
 *
 * @example
 * import { setupServer } from 'msw/node';
 * import { createMockHandlers } from 'payment-contract-kit/msw';
 * const mock = createMockHandlers({ log: false });
 * const server = setupServer(...mock.handlers);
 * server.listen();
 * // fetch('http://127.0.0.1:4010/api/v2/accounting/token/generate-token', ...) is answered by the mock (so is localhost)
 * server.close();
 * await mock.close();
 *
 * @module
 */
import type { HttpHandler } from 'msw';
import { kitMessage } from '../internal/messages.ts';
import { buildMockApp } from '../mock/app.ts';
import type { MockControl } from '../mock/control-types.ts';
import type { MockOptions } from '../mock/options.ts';
import { answeringOrigins, defaultBaseUrl, resolveBaseUrl } from './internal/base-url.ts';
import { createHandlerList } from './internal/handler-list.ts';

export { defaultBaseUrl };

/**
 * A webhook receiver called in process with each attempt: a real `Request` carrying the headers and body an HTTP
 * delivery sends. Its `Response` status counts as the receiver's answer (2xx delivered, 410 gone, 429/503 with
 * `Retry-After`, anything else retried); a thrown error or rejected promise is a failed attempt, retried too.
 */
export type WebhookReceiver = (request: Request) => Response | Promise<Response>;

/** Options of {@link createMockHandlers}: the mock's options (no port or host: nothing listens) and these. */
export interface MockHandlersOptions extends Omit<MockOptions, 'port' | 'host'> {
  /**
   * Origin the handlers answer on. Default `http://127.0.0.1:4010` ({@link defaultBaseUrl}), the address the CLI
   * mock prints. A loopback origin is also answered under the other loopback name (`localhost` or `127.0.0.1`) on
   * the same port.
   */
  readonly baseUrl?: string;
  /**
   * Webhook receivers called in process, each as one more webhook URL of the default list (it shows in the delivery
   * log as `http://in-process.invalid/webhook-receivers/<n>`). Clients with their own `webhookUrls` do not use them.
   */
  readonly webhookReceivers?: readonly WebhookReceiver[];
}

/** What {@link createMockHandlers} returns. */
export interface MockHandlers {
  /** The msw request handlers: pass them to `setupServer(...handlers)` or `setupWorker(...handlers)`. */
  readonly handlers: HttpHandler[];
  /** The control handle, the same as `startMockServer`'s: clock, payments, journal, deliveries, reset, fail-next. */
  readonly control: MockControl;
  /** The origin the handlers answer on (loopback aliases of it are answered too). */
  readonly baseUrl: string;
  /** Stops timers and webhook deliveries (each one not delivered is kept as `failed`, reason `closed`). */
  close(): Promise<void>;
}

/**
 * Creates the mock and its msw handlers. Requests to other origins or paths are left to msw's next handler.
 *
 * @example
 * const mock = createMockHandlers({ guide: 'both', webhookReceivers: [onWebhook] });
 * server.use(...mock.handlers);
 * mock.control.advanceClock(mock.control.assumptions.settleDelayMs); // settles and calls onWebhook
 */
export function createMockHandlers(options: MockHandlersOptions = {}): MockHandlers {
  const { baseUrl: rawBaseUrl, webhookReceivers = [], ...mockOptions } = options;
  const baseUrl = resolveBaseUrl(rawBaseUrl);
  if (!Array.isArray(webhookReceivers) || !webhookReceivers.every((r) => typeof r === 'function'))
    throw new TypeError(
      kitMessage('msw option "webhookReceivers" must be an array of functions (request: Request) => Response.'),
    );
  const app = buildMockApp(mockOptions, { webhookReceivers });
  const webhookUrls = [...(mockOptions.webhookUrls ?? []), ...app.options.clients.flatMap((c) => c.webhookUrls ?? [])];
  return {
    handlers: createHandlerList({ origins: answeringOrigins(baseUrl), fetch: app.fetch, webhookUrls }),
    control: app.control,
    baseUrl,
    close: () => app.close(),
  };
}
