/**
 * The composition root (STYLE habit 10): {@link buildMockApp} builds each part once and wires them together. It
 * opens no socket and arms no timer; timers start only when work is scheduled. A request's life is in
 * `internal/http/pipeline.ts`; the routes are in `internal/http/routes.ts` and `internal/control/routes.ts`.
 *
 * Isomorphic: this module and everything it imports use only what browsers, workers and Node share. The
 * runtime's own pieces (hashing, webhook transport, package files, pages, graphql-jit) come in as a
 * {@link MockPlatform} chosen by the entry point: app.ts (`createMockApp`, Node), the msw entry, the browser build.
 *
 * @module
 */
import { kitMessage } from '../internal/messages.ts';
import type { MockFetchApp } from './control-types.ts';
import { createControl } from './internal/control/handle.ts';
import { registerControlRoutes } from './internal/control/routes.ts';
import { createClock } from './internal/domain/clock.ts';
import { createEventBus, type EventBus } from './internal/domain/events.ts';
import { createFailureInjection } from './internal/domain/failure-injection.ts';
import { createJournal, journalReader, localJournalReads } from './internal/domain/journal.ts';
import { createMockState } from './internal/domain/payments.ts';
import { createSeededRandom, switchableRandom } from './internal/domain/random.ts';
import { createSettlement } from './internal/domain/settlement.ts';
import type { sharedJournal } from './internal/domain/shared-journal.ts';
import type { SharedPayments } from './internal/domain/shared-payments.ts';
import { createTokenService, type SharedTokenOpsFactory } from './internal/domain/tokens.ts';
import { createEngineLoader } from './internal/graphql/engine-loader.ts';
import { createCoverageCollector } from './internal/http/coverage.ts';
import { createErrorMapper, errorDetail, type MockCore, type RouteEntry } from './internal/http/exchange.ts';
import { createFetchHandler } from './internal/http/fetch-adapter.ts';
import { createBrowserGuard, createControlTokenCheck } from './internal/http/guards.ts';
import { createPageRoutes } from './internal/http/pages.ts';
import { createPipeline } from './internal/http/pipeline.ts';
import { registerPublishedSources } from './internal/http/published-sources.ts';
import { createRequestLog, type RequestLog, requestLogReader } from './internal/http/request-log.ts';
import { createRouter, registerServiceRoutes } from './internal/http/routes.ts';
import { createProviderStates } from './internal/provider-states/setup.ts';
import type { StoreSync } from './internal/store/state-sync.ts';
import { StoreSetupError } from './internal/store/store-errors.ts';
import { parseStoreUrl } from './internal/store/store-url.ts';
import { controlApplier, type planStore, type StoreOpener, type StorePlan } from './internal/store/store-wiring.ts';
import { closeWebhooks, createWebhookFanout } from './internal/webhooks/fanout.ts';
import { inProcessReceivers, type WebhookReceiver } from './internal/webhooks/transport.ts';
import { createWebhookProgress, type WebhookProgress } from './internal/webhooks/webhook-progress.ts';
import { type MockOptions, resolveMockOptions } from './options.ts';
import type { MockPlatform } from './platform.ts';
import type { sharedSandboxParts } from './shared-parts.ts';

export type { MockPlatform } from './platform.ts';

/**
 * Wiring only the kit's own entries pass, kept out of {@link MockOptions} (and so off `startMockServer` and the CLI):
 * the runtime's {@link MockPlatform}, and the msw entry's in-process webhook receivers, each added to the default
 * webhook URLs as a URL of its own.
 */
export interface MockAppSeams {
  readonly platform: MockPlatform;
  readonly webhookReceivers?: readonly WebhookReceiver[];
  /** Opens `file:` and `redis://` stores; the Node entry passes it, the browser build does not. */
  readonly openStore?: StoreOpener;
  /**
   * The token operations over a store's shared token state (a Redis store): the Node entry passes them with
   * `openStore`, so the browser build, which never has such a store, does not carry them.
   */
  readonly sharedTokenOps?: SharedTokenOpsFactory;
  /** The journal over a store that holds it (a Redis store), passed with `openStore` for the same reason. */
  readonly sharedJournal?: typeof sharedJournal;
  /** Plans a state store and its sync layer (store-wiring.ts): the Node entries pass it; without it, memory only. */
  readonly planStore?: typeof planStore;
  /** The payments and webhooks over a store that holds them (Redis), passed with `openStore` for the same reason. */
  readonly sharedParts?: typeof sharedSandboxParts;
}

/** The built app, with the core the Node entry puts behind its `node:http` listener. */
export interface BuiltMockApp {
  readonly app: MockFetchApp;
  /** The request pipeline (transport-neutral). */
  readonly core: MockCore;
  /** Logs a reply that could not be written (a bug). */
  readonly onWriteError: (error: unknown) => void;
  /** Where every state change is told as a typed event: the kit's own readers (coverage, pages) subscribe here. */
  readonly events: EventBus;
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
  const log = createRequestLog(opts.log, opts.logFormat, () => now(), { requests: opts.requestLog });
  const events = createEventBus(listenerFailure(log.line));
  const clock = createClock({ realNow: opts.realNow, onTaskError: taskFailure(log.line) });
  now = clock.now;
  const coverage = createCoverageCollector(events, assumptions);
  const random = createSeededRandom(seed, platform.crypto.sha512Hex);
  const plan = storePlanOf(opts.store, seams);
  const [logPlan, sharedPlan] = plan?.kind === 'file' ? [plan, undefined] : [undefined, plan];
  const record = logPlan?.record;
  // With a store, payment ids fork by boot number once it is open (no two processes or restarts collide).
  const switchable = plan ? switchableRandom(random.fork('graphql')) : undefined;
  const paymentRandom = switchable ?? random.fork('graphql');
  const [latencyRandom, webhookRandom] = [random.fork('latency'), random.fork('webhooks')];
  let progress: WebhookProgress | undefined;
  const sharedAccept = sharedPlan && {
    accept: (...a: Parameters<SharedPayments['accept']>) => sharedPayments!.accept(...a),
  };
  const state = createMockState({
    ...{ record, events, sharedCards: sharedPlan?.cards, sharedPayments: sharedAccept },
    assumptions,
    seed,
    now: clock.now,
    sha256Hex: platform.crypto.sha256Hex,
    maxPaymentsPerClient: assumptions.history.maxPaymentsPerClient,
  });
  const tokens = createTokenService({
    ...{ assumptions, clients, clock, seed, crypto: platform.crypto, record, events, shared: sharedPlan?.tokens },
    sharedOps: seams.sharedTokenOps,
  });
  const { journal, journalReads, recordRequest, lostEntries } = journalOf(opts.journalSize, plan, seams, log.line);
  const webhooks = createWebhookFanout({
    ...{ assumptions, clock, clients, webhookUrls: opts.webhookUrls, signingKey: opts.webhookSigningKey },
    standardWebhooksSecret: opts.standardWebhooksSecret,
    random: () => webhookRandom.next(),
    onProblem: (line) => log.line(line),
    onAttempt: (report) => log.webhookAttempt(report),
    createTransport: inProcess.createTransport,
    ...{ hmacSha256Base64: platform.crypto.hmacSha256Base64, sha256Hex: platform.crypto.sha256Hex },
    onFinished: logPlan ? (d) => progress?.finished(d) : undefined,
    ...{ record, events },
  });
  if (logPlan) progress = createWebhookProgress({ state, webhooks, once: () => logPlan.once, record: logPlan.record });
  const settlement = createSettlement({
    ...{ assumptions, clock, state, settled: (p) => webhooks.deliver(p), events, onError: (line) => log.line(line) },
    once: logPlan?.once,
  });
  const shared =
    sharedPlan &&
    seams.sharedParts?.(sharedPlan.payments, {
      ...{ assumptions, clock, events, options: opts, platform, caps: state.caps, log },
      ...{ random: () => webhookRandom.next(), transport: inProcess.createTransport() },
    });
  const [sharedPayments, sharedDeliveries] = [shared?.payments, shared?.deliveries];
  const fencedOut = () => sharedDeliveries?.fencedOut() ?? 0;
  const failures = failuresOf(plan, events);
  const engine = createEngineLoader({
    assumptions,
    guide: opts.guide,
    state,
    clock,
    random: paymentRandom,
    onPaymentAccepted: sharedPayments ? () => undefined : settlement.onPaymentAccepted,
    jit: platform.jit,
  });
  // A failed early load is forgotten by the loader, so the first /graphql request loads again and answers its error.
  if (platform.loadGraphqlAtStart) engine.load().catch(() => undefined);
  const errors = createErrorMapper(assumptions, (line) => log.line(line));
  const router = createRouter<RouteEntry>();
  registerServiceRoutes(router, { assumptions, tokens, engine, errors, failures });
  const seeded = [random, paymentRandom, latencyRandom, webhookRandom];
  const parts = [journal, webhooks, failures, ...[progress, sharedPayments].filter((p) => p !== undefined)];
  const control = createControl({
    ...{ assumptions, clock, state, tokens, settlement, webhooks, failures, engine, router },
    ...{ sharedPayments, sharedDeliveries },
    ...{ journal: journalReads, journalSize: opts.journalSize },
    resettable: [clock, settlement, state, tokens, ...seeded, engine, ...parts],
    ...{ record, events, epoch: sharedPlan?.epoch },
    store: plan && (() => sync && { kind: plan.store.kind, ...sync, deferredLost: lostEntries(sync), fencedOut }),
    coverage: () => coverage.report(),
  });
  const sync =
    plan &&
    bindStore(plan, {
      ...{ clock, state, tokens, settlement, failures, journal, webhooks, engine, progress },
      ...{ opts, log: (line: string) => log.line(line), switchable, random },
    });
  // Provider states make their payment through the pipeline itself, as a client would; it exists just below.
  const serve = (request: Request) => fetchHandler(request);
  const providerStates = createProviderStates({ control, clients, serve, webhookMessage: webhooks.message });
  registerControlRoutes(router, control, opts.guide, assumptions.limits, providerStates);
  registerPublishedSources(router, opts.guide, platform.readPackageFile);
  const pages = pagesOf(opts, platform, errors);
  const guard = createBrowserGuard({ options: opts, host: opts.host, errors });
  const controlToken = createControlTokenCheck(opts.controlToken, platform.crypto.secretMatcher, errors);
  readAnswered(events, log, recordRequest);
  const core = createPipeline({
    ...{ router, failures, errors, latency: opts.latency, latencyRandom, clock, monotonicNs: platform.monotonicNs },
    ...{ guard, pages, controlToken, sync, storeUnavailableReason: assumptions.reasonCodes.storeUnavailable },
    events,
  });
  const fetchHandler = createFetchHandler(core, opts.maxBodyBytes);
  const onWriteError = writeFailure(log.line);
  const close = () => closeParts(recordRequest, webhooks, sync, clock, log, [sharedPayments, sharedDeliveries]);
  const app: MockFetchApp = {
    fetch: fetchHandler,
    control,
    options: opts,
    ...appLog(log),
    ready: readyOf(sync),
    close,
  };
  return { app, core, onWriteError, events };
}

/** The pages route group: only with the pages on (`ui`) and a platform that has them to serve. */
function pagesOf(
  opts: ReturnType<typeof resolveMockOptions>,
  platform: MockPlatform,
  errors: ReturnType<typeof createErrorMapper>,
) {
  const registerPages = opts.ui ? platform.registerPages : undefined;
  if (!registerPages) return undefined;
  const pages = createPageRoutes();
  const { guide, clients, assumptions } = opts;
  registerPages(pages, { guide, clients, assumptions, errors, controlTokenRequired: opts.controlToken !== undefined });
  return pages;
}

/** The request log and the journal reading each answered request off the bus: the log only when it writes lines. */
function readAnswered(events: EventBus, log: RequestLog, journal: Parameters<typeof journalReader>[0]): void {
  if (log.requestLines) events.on(requestLogReader(log), ['request.answered']);
  events.on(journalReader(journal), ['request.answered']);
}

/** The app's log methods. */
function appLog(log: { flush(): void; line(text: string): void }): Pick<MockFetchApp, 'flushLog' | 'logLine'> {
  return { flushLog: () => log.flush(), logLine: (text) => log.line(text) };
}

/** The app's `ready`: the store's, whose refusal says what to fix; at once without one. */
function readyOf(sync: StoreSync | undefined): MockFetchApp['ready'] {
  return () => (sync ? sync.ready().catch(storeRefusal) : Promise.resolve());
}

/** A reply that could not be written is logged as the mock's bug. */
function writeFailure(line: (text: string) => void): (error: unknown) => void {
  return (e) => line(kitMessage(`writing an answer failed (a bug in the mock; please report it): ${errorDetail(e)}`));
}

/** Scheduled work (settlement, webhook retries) runs in real timers: a failure there is logged as a bug, not thrown. */
function taskFailure(line: (text: string) => void): (error: unknown) => void {
  return (e) => line(kitMessage(`a scheduled task failed (a bug in the mock; please report it): ${errorDetail(e)}`));
}

/** A reader's throw must not undo or stop the change it was told about: it is logged as the reader's bug. */
function listenerFailure(line: (text: string) => void): (error: unknown) => void {
  return (e) => line(kitMessage(`an event listener failed (a bug in its reader): ${errorDetail(e)}`));
}

/** Stops the app's parts in order: the journal's waiters, the webhooks (undelivered ones kept), the store, the clock, the log. */
async function closeParts(
  journal: { close(): void },
  webhooks: Parameters<typeof closeWebhooks>[0],
  sync: StoreSync | undefined,
  clock: { dispose(): void },
  log: { line(text: string): void; close(): void },
  shared: readonly ({ close(): Promise<void> } | undefined)[],
): Promise<void> {
  journal.close();
  // The poller first, so no claim is taken while the senders close.
  for (const part of shared) await part?.close();
  await closeWebhooks(webhooks, (line) => log.line(line));
  await sync?.close();
  clock.dispose();
  log.close();
}

/** The injected failures: held by the store when it holds them (Redis), recorded with a file store. */
function failuresOf(plan: StorePlan | undefined, events: EventBus) {
  if (plan?.kind === 'redis') return createFailureInjection(undefined, events, plan.failures);
  return createFailureInjection(plan?.record, events);
}

/**
 * The request journal: this process's ring, which the file store records and replays; on Redis, the store's
 * (shared-journal.ts, from the Node entry's seam), which the answered requests are appended to and the handle reads.
 */
function journalOf(capacity: number, plan: StorePlan | undefined, seams: MockAppSeams, log: (line: string) => void) {
  const onStore = seams.sharedJournal;
  const shared = plan?.kind === 'redis' && onStore ? onStore({ port: plan.journal, capacity, log }) : undefined;
  const journal = createJournal(capacity, plan?.kind === 'file' ? plan.record : undefined);
  return {
    journal,
    journalReads: shared?.reads ?? localJournalReads(journal),
    recordRequest: shared ?? journal,
    /** Entries lost to failed appends: the sync layer's `jr` records, or the shared journal's. */
    lostEntries: (sync: StoreSync) => () => sync.deferredLost() + (shared?.lost() ?? 0),
  };
}

/**
 * The store plan of `option` through the Node entry's seam; the browser builds have none (and so carry no sync
 * layer), and refuse any store but memory.
 */
function storePlanOf(option: Parameters<typeof planStore>[0], seams: MockAppSeams): StorePlan | undefined {
  if (seams.planStore) {
    const plan = seams.planStore(option, seams.openStore);
    if (plan?.kind === 'redis' && !(seams.sharedParts && seams.sharedJournal && seams.sharedTokenOps))
      throw new TypeError(
        kitMessage(
          'this store holds the sandbox for every process (Redis), which needs Node: in a browser or worker the mock keeps its state in memory; leave the store option out.',
        ),
      );
    return plan;
  }
  if (typeof option === 'string' && parseStoreUrl(option).kind === 'memory') return undefined;
  const named = typeof option === 'string' ? `"${option}"` : 'object';
  throw new TypeError(
    kitMessage(
      `store ${named} needs Node (a file or a Redis connection): in a browser or worker the mock keeps its state in memory; leave the store option out.`,
    ),
  );
}

/** A store that cannot be opened, as the error `ready()` rejects with. */
function storeRefusal(error: unknown): never {
  // Its message already says what is missing and which store to take instead: wrapped, it would say it twice.
  if (error instanceof StoreSetupError) throw new Error(error.message, { cause: error });
  const reason = (error as { reason?: string }).reason ?? errorDetail(error);
  throw new Error(kitMessage(`the state store cannot be used (${reason}). Fix it, or start with --store memory:.`), {
    cause: error,
  });
}

/** The parts a state store replays into (a file) or empties at a new epoch (Redis). */
interface StoreParts {
  readonly clock: ReturnType<typeof createClock>;
  readonly state: ReturnType<typeof createMockState>;
  readonly tokens: ReturnType<typeof createTokenService>;
  readonly settlement: ReturnType<typeof createSettlement>;
  readonly failures: ReturnType<typeof createFailureInjection>;
  readonly journal: ReturnType<typeof createJournal>;
  readonly webhooks: ReturnType<typeof createWebhookFanout>;
  readonly engine: { reset(): void };
  /** The webhooks' progress: with a file store only. */
  readonly progress: WebhookProgress | undefined;
  readonly opts: ReturnType<typeof resolveMockOptions>;
  readonly log: (line: string) => void;
  /** The payment id source, which forks by boot number, and the seeded source it forks from. */
  readonly switchable: ReturnType<typeof switchableRandom> | undefined;
  readonly random: ReturnType<typeof createSeededRandom>;
}

/**
 * The store's layer over every part. A file: appliers in dependency order, the view reset a rebuild starts with,
 * the snapshot compaction writes. Redis: the view reset a new epoch starts with.
 */
function bindStore(plan: StorePlan, p: StoreParts): StoreSync {
  const { clock, state, tokens, settlement, failures, journal, webhooks, engine, progress } = p;
  // Everything reset() empties but the id sources: a replayed reset must not rewind this process's ids.
  const view = [clock, settlement, state, { reset: tokens.resetView }, engine, journal, webhooks, failures];
  if (progress) view.push(progress);
  const resetView = () => {
    for (const part of view) part.reset();
  };
  const store = p.opts.assumptions.store;
  const onBoot = (boot: number) => {
    tokens.setIdBase(boot - 1);
    // Boot 1 (a fresh store) draws the ids memory does: one process with --seed stays deterministic.
    if (boot > 1) p.switchable?.use(p.random.fork(`graphql\0boot ${boot}`));
  };
  if (plan.kind === 'redis') {
    plan.epoch.bind({ clock, resetView });
    return plan.bind({ onBoot, followMs: store.followIntervalMs, log: p.log });
  }
  const control = controlApplier(clock, resetView);
  // The settlement keeps no state of its own: it reschedules from the payments' records.
  const snapshots = [control, tokens, state, failures, journal, webhooks, progress!];
  return plan.bind({
    appliers: [control, tokens, state, settlement, failures, journal, webhooks, progress!],
    resetView,
    onBoot,
    followMs: store.followIntervalMs,
    log: p.log,
    snapshot: () => snapshots.flatMap((part) => part.snapshot()),
    compactAfter: { records: store.compactAfterRecords, bytes: store.compactAfterBytes },
  });
}
