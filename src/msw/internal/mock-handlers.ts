/**
 * The msw handlers of one mock, on the platform the entry passes: `payment-contract-kit/msw` under Node (index.ts)
 * and its browser and worker build (browser.ts) differ only in that platform, so `setupServer` and `setupWorker` get
 * the same state, validation, outcomes, clock and control handle.
 *
 * @module
 */
import type { HttpHandler } from 'msw';
import type { WebhookReceiver } from '../../contract/webhook-headers.ts';
import { kitMessage } from '../../internal/messages.ts';
import type { MockControl, MockCoverageReport } from '../../mock/control-types.ts';
import { buildMockApp, type MockAppSeams, type MockPlatform } from '../../mock/core-app.ts';
import type { MockOptions } from '../../mock/options.ts';
import { answeringOrigins, resolveBaseUrl } from './base-url.ts';
import { createHandlerList } from './handler-list.ts';

// The receiver's type is the contract layer's (the mock's in-process transport takes the same one).
export type { WebhookReceiver };

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
  /** The origin the handlers answer on. */
  readonly baseUrl: string;
  /**
   * Which behaviours of the service the handlers' mock exercised so far (`control.coverage()`): write it after a run
   * with `coverageAfterAll` from `payment-contract-kit/coverage` (docs/coverage.md).
   */
  coverage(): MockCoverageReport;
  /**
   * Resolves once the state store (the `store` option) is open and the sandbox read from it; at once in memory.
   * Rejects saying why a store cannot be used. Requests wait for it anyway; await it before reading `control`.
   */
  ready(): Promise<void>;
  /** Stops timers and webhook deliveries (each one not delivered is kept as `failed`, reason `closed`). */
  close(): Promise<void>;
}

/**
 * Creates the mock on `platform` and its msw handlers (the entries pass Node's or the web's platform, and the Node
 * entry its store seams: the `file:`/`redis://` opener and the Redis token operations). Requests to other origins
 * or paths are left to msw's next handler.
 *
 * @example
 * const mock = createMockHandlersOn(webPlatform, { guide: 'both', webhookReceivers: [onWebhook] });
 */
export function createMockHandlersOn(
  platform: MockPlatform,
  options: MockHandlersOptions = {},
  stores: Pick<MockAppSeams, 'openStore' | 'sharedTokenOps' | 'sharedJournal' | 'planStore'> = {},
): MockHandlers {
  const { baseUrl: rawBaseUrl, webhookReceivers = [], ...mockOptions } = options;
  const baseUrl = resolveBaseUrl(rawBaseUrl);
  if (!Array.isArray(webhookReceivers) || !webhookReceivers.every((r) => typeof r === 'function'))
    throw new TypeError(
      kitMessage('msw option "webhookReceivers" must be an array of functions (request: Request) => Response.'),
    );
  const { app } = buildMockApp(mockOptions, { platform, webhookReceivers, ...stores });
  const webhookUrls = [...(mockOptions.webhookUrls ?? []), ...app.options.clients.flatMap((c) => c.webhookUrls ?? [])];
  return {
    handlers: createHandlerList({ origins: answeringOrigins(baseUrl), fetch: app.fetch, webhookUrls }),
    control: app.control,
    baseUrl,
    coverage: () => app.control.coverage(),
    ready: () => app.ready(),
    close: () => app.close(),
  };
}
