/**
 * The request pipeline: one request's whole life inside the core, top to bottom. Every transport (the `node:http`
 * listener, `app.fetch`) calls the function this module builds and writes the reply it returns.
 *
 * @module
 */

import { maskDigits } from '../../../contract/card-masking.ts';
import { kitMessage } from '../../../internal/messages.ts';
import { controlPrefix, servicePaths } from '../../../spec-names.ts';
import type { MockLatency } from '../../options.ts';
import type { Clock } from '../clock.ts';
import type { FailureInjection } from '../control/failure-injection.ts';
import type { Journal } from '../control/journal.ts';
import type { EventBus } from '../events.ts';
import type { SeededRandom } from '../random.ts';
import { asUnavailable } from '../store/state-sync.ts';
import type { BrowserGuard } from './browser-guard.ts';
import type { ControlTokenCheck } from './control-token.ts';
import { type ErrorMapper, graphqlFailure } from './error-mapping.ts';
import type { MockCore, MockReply, MockRequest } from './exchange.ts';
import { type Outcome, type RouteEntry, toReply, verdictOfOutcome } from './outcome.ts';
import type { PageRoutes } from './pages.ts';
import type { RequestLog } from './request-log.ts';
import type { RouteKind, RouteMatch, Router } from './router.ts';

/** What the pipeline asks of a state store's sync layer (issue 23; absent with memory). */
export interface PipelineSync {
  /**
   * Open, rebuild or catch up before the request runs; undefined when nothing to wait for. `readsShared` false skips
   * the catch-up (a request that reads only configuration).
   */
  before(readsShared?: boolean): Promise<void> | undefined;
  /** The request's records made durable before its answer goes out; undefined when none is pending. */
  after(): Promise<void> | undefined;
}

/** What the pipeline works with; every part is built by the composition root. */
export interface PipelineDeps {
  readonly router: Router<RouteEntry>;
  readonly failures: FailureInjection;
  readonly errors: ErrorMapper;
  readonly latency: MockLatency | undefined;
  readonly latencyRandom: SeededRandom;
  readonly log: RequestLog;
  readonly journal: Journal;
  readonly clock: Clock;
  /** Milliseconds from a fixed origin, for each request's duration (the platform's `elapsedMs`). */
  readonly elapsedMs: () => number;
  /** Host check, CORS preflights and headers, cross-origin refusals (browser-guard.ts). */
  readonly guard: BrowserGuard;
  /** The pages route group; undefined when the pages are off (`ui: false`). */
  readonly pages: PageRoutes | undefined;
  /** The control token's check on `/__pck/` (control-token.ts); undefined when no token is set. */
  readonly controlToken?: ControlTokenCheck | undefined;
  /** A state store's sync layer; undefined with memory (the pipeline then never waits on a store). */
  readonly sync?: PipelineSync | undefined;
  /** `extensions.reason` of the 503 a /graphql request gets when the store fails. */
  readonly storeUnavailableReason?: string;
  /** Where each answered service request is told (`request.answered`); undefined tells nobody. */
  readonly events?: EventBus | undefined;
}

const knownPaths = Object.values(servicePaths).join(', ');
const noRoute: RouteMatch<RouteEntry> = { found: 'none' };

/** Builds the core: `(request) => reply`, synchronous unless the route or the latency option makes it wait. */
export function createPipeline(deps: PipelineDeps): MockCore {
  const { router, failures, errors, guard, pages, sync, controlToken, elapsedMs } = deps;

  const storeDown = (kind: RouteKind | undefined, error: unknown) =>
    storeDownOutcome(errors, deps.storeUnavailableReason, kind, error);

  /** With a store: the answer waits until the request's records are durable, or becomes the store's 503. */
  function durable(
    request: MockRequest,
    path: string,
    kind: RouteKind | undefined,
    clientId: string | undefined,
    outcome: Outcome,
    started: number,
  ): MockReply | Promise<MockReply> {
    const waiting = sync?.after();
    if (waiting === undefined) return complete(request, path, kind, clientId, outcome, started);
    return waiting.then(
      () => complete(request, path, kind, clientId, outcome, started),
      (error: unknown) => complete(request, path, kind, clientId, storeDown(kind, error), started),
    );
  }

  const complete = createCompleter(deps);

  // With a store, the request first waits for the store (open, rebuild, catch-up); a failure answers the 503,
  // but only to a caller the guard and the control token let through (a stranger learns nothing of the store), and
  // a page shell, which reads no state, is still served.
  const refuse = (request: MockRequest, error: unknown) => {
    const page = pages?.match(request);
    const m = page === undefined ? router.match(request.method, request.path) : noRoute;
    const kind = page !== undefined ? 'control' : m.found === 'none' ? undefined : m.route.kind;
    const path = m.found === 'none' && page === undefined ? maskDigits(request.path) : request.path;
    const guarded =
      guard.check(request, kind, m.found === 'none' ? undefined : m.route.allow) ??
      (page === undefined ? controlToken?.(request) : undefined);
    const outcome = guarded ?? (page === undefined ? storeDown(kind, error) : undefined);
    if (outcome !== undefined) return complete(request, path, kind, undefined, outcome, elapsedMs());
    return answerNow(request);
  };
  // Whether a request reads what other processes change: a pending injected failure is shared state for any route.
  const readsShared = (request: MockRequest) => {
    if (failures.pending()) return true;
    const m = router.match(request.method, request.path);
    return m.found !== 'handler' || (m.handler.readsShared?.(request) ?? true);
  };
  return sync === undefined ? answerNow : gated(sync, readsShared, answerNow, refuse);

  function answerNow(request: MockRequest): MockReply | Promise<MockReply> {
    const started = elapsedMs();
    const { method } = request;
    let path = request.path;
    let kind: RouteKind | undefined;
    let clientId: string | undefined;
    let outcome: Outcome | Promise<Outcome>;
    try {
      // 1. Route match: a page (browsers asking for HTML, when the pages are on), else exact path, then method (404
      // and 405 are answered here, in the route's error shape).
      const page = pages?.match(request);
      const m: RouteMatch<RouteEntry> = page === undefined ? router.match(method, path) : noRoute;
      const route = m.found === 'none' ? undefined : m.route;
      kind = page !== undefined ? 'control' : route?.kind;
      // 2. Browser guard: Host check, CORS preflight, cross-origin refusal on the mock's own paths; then the control
      // token on /__pck/ (page shells excepted: a navigation cannot send it, and the data they fetch needs it).
      const guarded =
        guard.check(request, kind, route?.allow) ?? (page === undefined ? controlToken?.(request) : undefined);
      if (guarded !== undefined) {
        if (route === undefined) path = maskDigits(path);
        outcome = guarded;
      } else if (page !== undefined) outcome = page(request);
      else if (m.found === 'handler') {
        const { auth, handle } = m.handler;
        // 3. Injected failures (failNextRequest) answer before anything runs, as a failing service would.
        const injected = failures.pending() && kind !== 'control' ? failures.take(path, m.route.kind) : undefined;
        const run = (): Outcome | Promise<Outcome> => {
          // 4. Auth: the route's credentials check names the client or answers the failure in the route's shape.
          const who = auth === undefined ? undefined : auth(request);
          if (typeof who === 'object') return who;
          clientId = who;
          // 5. Handler: the route's own work, from body bytes the transport has already read.
          return handle(request, clientId);
        };
        // With a shared store an armed failure is claimed first (one replica uses each); a store fault is its 503.
        const routeKind = m.route.kind;
        if (injected instanceof Promise)
          outcome = injected.then(
            (o) => o ?? run(),
            (error: unknown) => storeDown(routeKind, error),
          );
        else outcome = injected ?? run();
      } else if (m.found === 'method') {
        const message = kitMessage(`${method} is not allowed on ${path}: use ${m.route.allow}.`);
        outcome = errors.layer(kind, 405, message, { allow: m.route.allow });
      } else {
        // Unknown paths are the only place client text reaches the log and journal: mask card-like digit runs.
        path = maskDigits(path);
        const message = `No such path: ${path}. The mock serves ${knownPaths} and the control API under ${controlPrefix}.`;
        outcome = errors.layer(undefined, 404, kitMessage(message));
      }
    } catch (error) {
      // 6. Error mapping: a caller's mistake keeps its spec-shaped answer; anything else is a logged 500.
      outcome = errors.fromError(error, method, path);
    }
    // 7. Latency, then 8. CORS headers, journal and log (in complete).
    if (outcome instanceof Promise)
      return outcome.then(
        (o) => durable(request, path, kind, clientId, o, started),
        (error: unknown) => durable(request, path, kind, clientId, errors.fromError(error, method, path), started),
      );
    return durable(request, path, kind, clientId, outcome, started);
  }
}

/** The 503 of a store fault, in the shape of the path's kind: 7.2 on /graphql (its own reason), 7.1 elsewhere. */
function storeDownOutcome(
  errors: ErrorMapper,
  reason: string | undefined,
  kind: RouteKind | undefined,
  error: unknown,
): Outcome {
  const e = asUnavailable(error);
  const message = kitMessage(
    e.mayHaveApplied
      ? `The sandbox's state store did not confirm this request's change (${e.reason}): it went out but no acknowledgement came back, so it may have been kept. Check before you retry a payment (a retry can pay twice); the mock recovers by itself when the store is back.`
      : `The sandbox's state store is unavailable (${e.reason}), so nothing of this request was kept. Retry shortly: the mock recovers by itself when the store is back.`,
  );
  return kind === 'graphql'
    ? graphqlFailure(503, message, reason ?? 'STORE_UNAVAILABLE')
    : errors.layer(kind, 503, message);
}

/** `answer` behind the store's `before()`: open, rebuild or catch up first; `refuse` answers when that fails. */
function gated(
  sync: PipelineSync,
  readsShared: (request: MockRequest) => boolean,
  answer: (request: MockRequest) => MockReply | Promise<MockReply>,
  refuse: (request: MockRequest, error: unknown) => MockReply | Promise<MockReply>,
): (request: MockRequest) => MockReply | Promise<MockReply> {
  return (request) => {
    const gate = sync.before(readsShared(request));
    if (gate === undefined) return answer(request);
    return gate.then(
      () => answer(request),
      (error: unknown) => refuse(request, error),
    );
  };
}

/** The last step of every request: latency, CORS headers, serialization, the log and the journal. */
function createCompleter(deps: PipelineDeps) {
  const { errors, log, journal, clock, latency, latencyRandom, guard, elapsedMs, events } = deps;
  /**
   * Simulated network latency on service paths (the `latency` option), then the last step of every request: the
   * answer is serialized, logged and journaled.
   */
  function complete(
    request: MockRequest,
    path: string,
    kind: RouteKind | undefined,
    clientId: string | undefined,
    outcome: Outcome,
    started: number,
    delayed = latency !== undefined && kind !== 'control',
  ): MockReply | Promise<MockReply> {
    const { method } = request;
    if (delayed && latency) {
      const delay = latency.minMs + latencyRandom.next() * (latency.maxMs - latency.minMs);
      return new Promise((resolve) =>
        setTimeout(() => resolve(complete(request, path, kind, clientId, outcome, started, false)), delay),
      );
    }
    // CORS headers go on every answer to a cross-origin request, errors included, or the browser hides the error.
    const cors = request.headers.origin === undefined ? undefined : guard.answerHeaders(request, kind);
    if (cors !== undefined && outcome.headers?.['access-control-allow-origin'] === undefined)
      outcome = { ...outcome, headers: { ...outcome.headers, ...cors } };
    let reply: MockReply;
    try {
      reply = toReply(outcome);
    } catch (error) {
      // An answer that cannot be serialized is a bug: answer it as one.
      outcome = errors.internal(error, method, path);
      reply = toReply(outcome);
    }
    const durationMs = elapsedMs() - started;
    // The GraphQL route reads its verdict off its answer object; other answers are read here.
    const verdict = outcome.verdict ?? verdictOfOutcome(outcome);
    // A plain literal, not spreads of literals: copying a spread object cost microseconds per request, even with
    // the log off (measured), where the literal is optimised away.
    log.request({
      method,
      path,
      operationName: outcome.operationName,
      status: outcome.status,
      durationMs,
      clientId,
      verdict,
      at: clock.now(),
    });
    // Control calls (and pages, and CORS preflights) are not journaled, so waiting for "a request" never matches the
    // wait call itself or a browser's preflight before the request it waits for.
    if (kind === 'control' || (method === 'OPTIONS' && outcome.status === 204)) return reply;
    // Only requests of the service's own routes are behaviours of the service: an unknown path (no kind) is not.
    if (kind !== undefined && events?.listening)
      events.emit({
        kind: 'request.answered',
        method,
        path,
        rootFields: outcome.rootFields,
        guide: outcome.guide,
        status: outcome.status,
        verdict,
        clientId,
      });
    journal.record({
      method,
      path,
      status: outcome.status,
      at: clock.now(),
      durationMs,
      operationName: outcome.operationName,
      guide: outcome.guide,
      clientId,
      summary: outcome.summary,
      outcome: verdict.outcome,
    });
    return reply;
  }

  return complete;
}
