/**
 * The composition root (STYLE habit 10): `createMockApp(options)` builds each part once and wires them together. It
 * opens no socket and arms no timer; timers start only when work is scheduled. A request's life is in
 * `internal/pipeline.ts`; the routes are in `internal/service-routes.ts` and `internal/control-api.ts`.
 *
 * @module
 */
import { kitMessage } from '../internal/messages.ts';
import type { MockApp } from './control-types.ts';
import { createClock } from './internal/clock.ts';
import { registerControlRoutes } from './internal/control-api.ts';
import { createControl } from './internal/control-handle.ts';
import { createEngineLoader } from './internal/engine-loader.ts';
import { createErrorMapper, errorDetail } from './internal/error-mapping.ts';
import { createFailureInjection } from './internal/failure-injection.ts';
import { createFetchHandler } from './internal/http/fetch-adapter.ts';
import { createNodeListener } from './internal/http/node-adapter.ts';
import type { RouteEntry } from './internal/http/outcome.ts';
import { createRequestLog } from './internal/http/request-log.ts';
import { createRouter } from './internal/http/router.ts';
import { createJournal } from './internal/journal.ts';
import { createPipeline } from './internal/pipeline.ts';
import { createSeededRandom } from './internal/random.ts';
import { registerServiceRoutes } from './internal/service-routes.ts';
import { createSettlement } from './internal/settlement.ts';
import { createMockState } from './internal/state.ts';
import { createTokenService } from './internal/tokens.ts';
import { createAssetStore } from './internal/ui/assets.ts';
import { registerUiRoutes } from './internal/ui/routes.ts';
import { closeWebhooks, createWebhookFanout } from './internal/webhooks/fanout.ts';
import { type MockOptions, resolveMockOptions } from './options.ts';

/**
 * Creates the mock without listening: a request handler and the control handle. No sockets, no timers.
 *
 * @example
 * const app = createMockApp({ guide: 'both' });
 * const res = await app.fetch(new Request('http://mock/__pck/health'));
 */
export function createMockApp(options: MockOptions = {}): MockApp {
  const opts = resolveMockOptions(options);
  const { assumptions, seed, clients } = opts;
  const log = createRequestLog(opts.log);
  // Scheduled work (settlement, webhook retries) runs in real timers: a failure there is logged as a bug, not thrown.
  const onTaskError = (e: unknown) =>
    log.line(kitMessage(`a scheduled task failed (a bug in the mock; please report it): ${errorDetail(e)}`));
  const clock = createClock({ realNow: opts.realNow, onTaskError });
  const random = createSeededRandom(seed);
  const [paymentRandom, latencyRandom, webhookRandom] = [
    random.fork('graphql'),
    random.fork('latency'),
    random.fork('webhooks'),
  ];
  const state = createMockState({ assumptions, seed, now: clock.now });
  const tokens = createTokenService({ assumptions, clients, clock, seed });
  const journal = createJournal(opts.journalSize);
  const webhooks = createWebhookFanout({
    ...{ assumptions, clock, clients, webhookUrls: opts.webhookUrls, signingKey: opts.webhookSigningKey },
    standardWebhooksSecret: opts.standardWebhooksSecret,
    random: () => webhookRandom.next(),
    onProblem: (line) => log.line(line),
  });
  const settled = (p: Parameters<typeof webhooks.deliver>[0]) => webhooks.deliver(p);
  const settlement = createSettlement({ assumptions, clock, state, settled, onError: (line) => log.line(line) });
  const failures = createFailureInjection(assumptions);
  const onPaymentAccepted = settlement.onPaymentAccepted;
  const engine = createEngineLoader({
    assumptions,
    guide: opts.guide,
    state,
    clock,
    random: paymentRandom,
    onPaymentAccepted,
  });
  const errors = createErrorMapper(assumptions, (line) => log.line(line));
  const router = createRouter<RouteEntry>();
  registerServiceRoutes(router, { assumptions, tokens, engine, errors, maxBodyBytes: opts.maxBodyBytes });
  const resettable = [clock, settlement, state, tokens, random, paymentRandom, latencyRandom, webhookRandom, engine];
  const control = createControl({
    ...{ assumptions, clock, state, tokens, settlement, webhooks, journal, failures, engine, router },
    resettable: [...resettable, journal, webhooks, failures],
  });
  registerControlRoutes(router, control, opts.guide, opts.maxBodyBytes);
  // The browser pages (GraphiQL, API reference, dashboard); after the service routes, whose GET /graphql they wrap.
  registerUiRoutes(router, { guide: opts.guide, clients, assumptions, errors, assets: createAssetStore() });
  const core = createPipeline({ router, failures, errors, latency: opts.latency, latencyRandom, log, journal, clock });
  const onWriteError = (e: unknown) =>
    log.line(kitMessage(`writing an answer failed (a bug in the mock; please report it): ${errorDetail(e)}`));
  return {
    handle: createNodeListener(core, opts.maxBodyBytes, onWriteError),
    fetch: createFetchHandler(core, opts.maxBodyBytes),
    control,
    options: opts,
    flushLog: () => log.flush(),
    logLine: (text) => log.line(text),
    async close() {
      journal.close();
      await closeWebhooks(webhooks, (line) => log.line(line));
      clock.dispose();
      log.flush();
    },
  };
}
