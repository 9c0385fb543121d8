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
import { createBrowserGuard } from './internal/http/browser-guard.ts';
import { createFetchHandler } from './internal/http/fetch-adapter.ts';
import { createNodeListener } from './internal/http/node-adapter.ts';
import type { RouteEntry } from './internal/http/outcome.ts';
import { createPageRoutes } from './internal/http/pages.ts';
import { createRequestLog } from './internal/http/request-log.ts';
import { createRouter } from './internal/http/router.ts';
import { createJournal } from './internal/journal.ts';
import { createPipeline } from './internal/pipeline.ts';
import { createProviderStates } from './internal/provider-states.ts';
import { registerPublishedSources } from './internal/published-sources.ts';
import { createSeededRandom } from './internal/random.ts';
import { registerServiceRoutes } from './internal/service-routes.ts';
import { createSettlement } from './internal/settlement.ts';
import { createMockState } from './internal/state.ts';
import { createTokenService } from './internal/tokens.ts';
import { createAssetStore } from './internal/ui/assets.ts';
import { registerLandingPage } from './internal/ui/landing-page.ts';
import { registerUiRoutes } from './internal/ui/routes.ts';
import { closeWebhooks, createWebhookFanout } from './internal/webhooks/fanout.ts';
import { inProcessReceivers, type WebhookReceiver } from './internal/webhooks/in-process.ts';
import { type MockOptions, resolveMockOptions } from './options.ts';

/**
 * Creates the mock without listening: a request handler and the control handle. No sockets, no timers.
 *
 * @example
 * const app = createMockApp({ guide: 'both' });
 * const res = await app.fetch(new Request('http://mock/__pck/health'));
 */
export function createMockApp(options: MockOptions = {}): MockApp {
  return buildMockApp(options, {});
}

/**
 * Wiring only the kit's own entries pass, kept out of {@link MockOptions} (and so off `startMockServer` and the CLI):
 * the msw entry's in-process webhook receivers, each added to the default webhook URLs as a URL of its own.
 */
export interface MockAppSeams {
  readonly webhookReceivers?: readonly WebhookReceiver[];
}

/**
 * {@link createMockApp} with the kit-internal {@link MockAppSeams}.
 *
 * @example
 * const app = buildMockApp({ log: false }, { webhookReceivers: [(request) => new Response(null, { status: 204 })] });
 */
export function buildMockApp(options: MockOptions, seams: MockAppSeams): MockApp {
  const inProcess = inProcessReceivers(options, seams.webhookReceivers ?? []);
  const opts = resolveMockOptions(inProcess.options);
  const { assumptions, seed, clients } = opts;
  // The log's timestamps read the clock created below; it exists before anything can log a line.
  let now: () => number = Date.now;
  const log = createRequestLog(opts.log, opts.logFormat, () => now());
  // Scheduled work (settlement, webhook retries) runs in real timers: a failure there is logged as a bug, not thrown.
  const onTaskError = (e: unknown) =>
    log.line(kitMessage(`a scheduled task failed (a bug in the mock; please report it): ${errorDetail(e)}`));
  const clock = createClock({ realNow: opts.realNow, onTaskError });
  now = clock.now;
  const random = createSeededRandom(seed);
  const [paymentRandom, latencyRandom, webhookRandom] = [
    random.fork('graphql'),
    random.fork('latency'),
    random.fork('webhooks'),
  ];
  const state = createMockState({
    assumptions,
    seed,
    now: clock.now,
    maxPaymentsPerClient: assumptions.history.maxPaymentsPerClient,
  });
  const tokens = createTokenService({ assumptions, clients, clock, seed });
  const journal = createJournal(opts.journalSize);
  const webhooks = createWebhookFanout({
    ...{ assumptions, clock, clients, webhookUrls: opts.webhookUrls, signingKey: opts.webhookSigningKey },
    standardWebhooksSecret: opts.standardWebhooksSecret,
    random: () => webhookRandom.next(),
    onProblem: (line) => log.line(line),
    onAttempt: (report) => log.webhookAttempt(report),
    ...inProcess.fanout,
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
    journalSize: opts.journalSize,
    resettable: [...resettable, journal, webhooks, failures],
  });
  // Provider states make their payment through the pipeline itself, as a client would; it exists just below.
  const serve = (request: Request) => fetchHandler(request);
  const providerStates = createProviderStates({ control, clients, serve, webhookMessage: webhooks.message });
  registerControlRoutes(router, control, opts.guide, opts.maxBodyBytes, providerStates);
  registerPublishedSources(router, opts.guide);
  // The pages route group exists only with the pages on (`ui`); the browser pages register into it here too.
  const pages = opts.ui ? createPageRoutes() : undefined;
  if (pages) {
    registerLandingPage(pages, { guide: opts.guide, clients });
    registerUiRoutes(pages, { guide: opts.guide, clients, assumptions, errors, assets: createAssetStore() });
  }
  const guard = createBrowserGuard({ options: opts, host: opts.host, errors });
  const core = createPipeline({
    ...{ router, failures, errors, latency: opts.latency, latencyRandom, log, journal, clock },
    ...{ guard, pages },
  });
  const fetchHandler = createFetchHandler(core, opts.maxBodyBytes);
  const onWriteError = (e: unknown) =>
    log.line(kitMessage(`writing an answer failed (a bug in the mock; please report it): ${errorDetail(e)}`));
  return {
    handle: createNodeListener(core, opts.maxBodyBytes, onWriteError),
    fetch: fetchHandler,
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
