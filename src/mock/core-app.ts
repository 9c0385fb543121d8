/**
 * The composition root (STYLE habit 10): {@link buildMockApp} builds each part once and wires them together. It
 * opens no socket and arms no timer; timers start only when work is scheduled. A request's life is in
 * `internal/pipeline.ts`; the routes are in `internal/service-routes.ts` and `internal/control-api.ts`.
 *
 * Isomorphic (issue 28): this module and everything it imports use only what browsers, workers and Node share. The
 * runtime's own pieces (hashing, webhook transport, package files, pages, graphql-jit) come in as a
 * {@link MockPlatform} chosen by the entry point: app.ts (`createMockApp`, Node), the msw entry, the browser build.
 *
 * @module
 */
import { kitMessage } from '../internal/messages.ts';
import type { MockFetchApp } from './control-types.ts';
import { createClock } from './internal/clock.ts';
import { registerControlRoutes } from './internal/control-api.ts';
import { createControl } from './internal/control-handle.ts';
import { createEngineLoader } from './internal/engine-loader.ts';
import { createErrorMapper, errorDetail } from './internal/error-mapping.ts';
import { createFailureInjection } from './internal/failure-injection.ts';
import { createBrowserGuard } from './internal/http/browser-guard.ts';
import { createControlTokenCheck } from './internal/http/control-token.ts';
import type { MockCore } from './internal/http/exchange.ts';
import { createFetchHandler } from './internal/http/fetch-adapter.ts';
import type { RouteEntry } from './internal/http/outcome.ts';
import { createPageRoutes } from './internal/http/pages.ts';
import { createRequestLog } from './internal/http/request-log.ts';
import { createRouter } from './internal/http/router.ts';
import { createJournal } from './internal/journal.ts';
import { createPipeline } from './internal/pipeline.ts';
import type { MockPlatform } from './internal/platform/platform.ts';
import { createProviderStates } from './internal/provider-state-setup.ts';
import { registerPublishedSources } from './internal/published-sources.ts';
import { createSeededRandom } from './internal/random.ts';
import { registerServiceRoutes } from './internal/service-routes.ts';
import { createSettlement } from './internal/settlement.ts';
import { createMockState } from './internal/state.ts';
import { createTokenService } from './internal/tokens.ts';
import { closeWebhooks, createWebhookFanout } from './internal/webhooks/fanout.ts';
import { inProcessReceivers, type WebhookReceiver } from './internal/webhooks/in-process.ts';
import { type MockOptions, resolveMockOptions } from './options.ts';

export type { MockPlatform } from './internal/platform/platform.ts';

/**
 * Wiring only the kit's own entries pass, kept out of {@link MockOptions} (and so off `startMockServer` and the CLI):
 * the runtime's {@link MockPlatform}, and the msw entry's in-process webhook receivers, each added to the default
 * webhook URLs as a URL of its own.
 */
export interface MockAppSeams {
  readonly platform: MockPlatform;
  readonly webhookReceivers?: readonly WebhookReceiver[];
}

/** The built app, with the core the Node entry puts behind its `node:http` listener. */
export interface BuiltMockApp {
  readonly app: MockFetchApp;
  /** The request pipeline (transport-neutral). */
  readonly core: MockCore;
  /** Logs a reply that could not be written (a bug). */
  readonly onWriteError: (error: unknown) => void;
}

/**
 * Builds the mock on `seams.platform`, without listening.
 *
 * @example
 * const { app } = buildMockApp({ log: false }, { platform: webPlatform, webhookReceivers: [(request) => new Response(null, { status: 204 })] });
 */
export function buildMockApp(options: MockOptions, seams: MockAppSeams): BuiltMockApp {
  const { platform } = seams;
  const inProcess = inProcessReceivers(options, seams.webhookReceivers ?? [], platform.createNetworkTransport);
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
  const random = createSeededRandom(seed, platform.crypto.sha512Hex);
  const [paymentRandom, latencyRandom, webhookRandom] = [
    random.fork('graphql'),
    random.fork('latency'),
    random.fork('webhooks'),
  ];
  const state = createMockState({
    assumptions,
    seed,
    now: clock.now,
    sha256Hex: platform.crypto.sha256Hex,
    maxPaymentsPerClient: assumptions.history.maxPaymentsPerClient,
  });
  const tokens = createTokenService({ assumptions, clients, clock, seed, crypto: platform.crypto });
  const journal = createJournal(opts.journalSize);
  const webhooks = createWebhookFanout({
    ...{ assumptions, clock, clients, webhookUrls: opts.webhookUrls, signingKey: opts.webhookSigningKey },
    standardWebhooksSecret: opts.standardWebhooksSecret,
    random: () => webhookRandom.next(),
    onProblem: (line) => log.line(line),
    onAttempt: (report) => log.webhookAttempt(report),
    createTransport: inProcess.createTransport,
    hmacSha256Base64: platform.crypto.hmacSha256Base64,
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
    jit: platform.jit,
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
  registerPublishedSources(router, opts.guide, platform.readPackageFile);
  // The pages route group exists only with the pages on (`ui`) and a platform that has them to serve.
  const registerPages = opts.ui ? platform.registerPages : undefined;
  const pages = registerPages ? createPageRoutes() : undefined;
  const controlTokenRequired = opts.controlToken !== undefined;
  if (pages) registerPages?.(pages, { guide: opts.guide, clients, assumptions, errors, controlTokenRequired });
  const guard = createBrowserGuard({ options: opts, host: opts.host, errors });
  const controlToken = createControlTokenCheck(opts.controlToken, platform.crypto.secretMatcher, errors);
  const core = createPipeline({
    ...{ router, failures, errors, latency: opts.latency, latencyRandom, log, journal, clock },
    ...{ guard, pages, controlToken },
  });
  const fetchHandler = createFetchHandler(core, opts.maxBodyBytes);
  const onWriteError = (e: unknown) =>
    log.line(kitMessage(`writing an answer failed (a bug in the mock; please report it): ${errorDetail(e)}`));
  const app: MockFetchApp = {
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
  return { app, core, onWriteError };
}
