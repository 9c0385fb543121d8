/**
 * The request pipeline: one request's whole life inside the core, as a named list of steps. Every transport (the
 * `node:http` listener, `app.fetch`, msw) calls the function this module builds and writes the reply it returns.
 *
 * A request goes down {@link askSteps} until one of them answers (the route always does); the answer then goes
 * through {@link answerSteps}, which every answer takes, refusals included. A step returns `undefined` to pass the
 * request on, or an answer (or a promise of either): those returns are the pipeline's only exits.
 *
 * @module
 */

import { maskDigits } from '../../../contract/card-masking.ts';
import { kitMessage } from '../../../internal/messages.ts';
import { controlPrefix, servicePaths } from '../../../spec-names.ts';
import type { Clock } from '../domain/clock.ts';
import type { EventBus } from '../domain/events.ts';
import type { SeededRandom } from '../domain/random.ts';
import type { MockLatency } from '../option-types.ts';
import type { ArmedFailure } from '../store/failure-state.ts';
import { asUnavailable, StoreUnavailableError } from '../store/store-errors.ts';
import {
  type ErrorMapper,
  graphqlFailure,
  injectedAnswer,
  type MockCore,
  type MockReply,
  type MockRequest,
  type Outcome,
  type RouteEntry,
  type RouteKind,
  toReply,
  verdictOfOutcome,
} from './exchange.ts';
import type { BrowserGuard, ControlTokenCheck } from './guards.ts';
import type { PageHandler, PageRoutes } from './pages.ts';
import type { RouteMatch, Router } from './routes.ts';

/** What the pipeline asks of a state store's sync layer (absent with memory). */
export interface PipelineSync {
  /**
   * Open, rebuild or read the store before the request runs; undefined when nothing to wait for. `readsShared` false
   * skips the read (a request that reads only configuration).
   */
  before(readsShared?: boolean): Promise<void> | undefined;
  /** The request's records made durable before its answer goes out; undefined when none is pending. */
  after(): Promise<void> | undefined;
}

/** The injected failures the pipeline answers before a route runs (domain/failure-injection.ts). */
export interface PipelineFailures {
  /** Whether any failure is pending: one size check on the hot path. */
  pending(): boolean;
  /** The next failure armed for `path`; a promise with a shared store (claimed or taken there). */
  take(path: string): ArmedFailure | Promise<ArmedFailure | undefined> | undefined;
}

/** What the pipeline works with; every part is built by the composition root. */
export interface PipelineDeps {
  readonly router: Router<RouteEntry>;
  readonly failures: PipelineFailures;
  readonly errors: ErrorMapper;
  readonly latency: MockLatency | undefined;
  readonly latencyRandom: SeededRandom;
  readonly clock: Clock;
  /** Nanoseconds from a fixed origin, for each request's duration (the platform's `monotonicNs`). */
  readonly monotonicNs: () => bigint;
  /** Host check, CORS preflights and headers, cross-origin refusals (guards.ts). */
  readonly guard: BrowserGuard;
  /** The pages route group; undefined when the pages are off (`ui: false`). */
  readonly pages: PageRoutes | undefined;
  /** The control token's check on `/__pck/` (guards.ts); undefined when no token is set. */
  readonly controlToken?: ControlTokenCheck | undefined;
  /** A state store's sync layer; undefined with memory (the pipeline then never waits on a store). */
  readonly sync?: PipelineSync | undefined;
  /** `extensions.reason` of the 503 a /graphql request gets when the store fails. */
  readonly storeUnavailableReason?: string;
  /**
   * Where every answered request is told, once, as `request.answered`: the request log, the journal and the coverage
   * report read it there (each its own share), as it is told, before the answer goes out.
   */
  readonly events: EventBus;
}

/** One request on its way through the steps: what the steps have learnt of it so far. */
export interface Exchange {
  readonly request: MockRequest;
  /** When the request's own work began (after any wait for the store), in the platform's nanoseconds. */
  started: bigint;
  /** The path as logged and journaled: card-like digit runs masked on paths the mock does not serve. */
  readonly path: string;
  readonly match: RouteMatch<RouteEntry>;
  /** The page answering a browser's navigation, when the pages are on and the request asks for one. */
  readonly page: PageHandler | undefined;
  readonly kind: RouteKind | undefined;
  clientId: string | undefined;
  /** False once the store failed this request: its 503 waits for no records. */
  waitsForRecords: boolean;
}

/** A step that may answer: `undefined` passes the request to the next step. */
export type AskStep = (x: Exchange) => Outcome | Promise<Outcome | undefined> | undefined;

/** A step every answer goes through, which may replace it (with the store's 503, or a 500 for a bug). */
export type AnswerStep = (x: Exchange, answer: Outcome) => Outcome | Promise<Outcome>;

const knownPaths = Object.values(servicePaths).join(', ');

/** A store's fault as its 503; anything else goes on to the error mapping (a spec-shaped refusal, or a bug). */
function storeFaultOf(storeDown: (x: Exchange, error: unknown) => Outcome) {
  return (x: Exchange) => (error: unknown) => {
    if (error instanceof StoreUnavailableError) return storeDown(x, error);
    throw error;
  };
}

/** The client a credentials check named, kept on the exchange; a refusal is the answer. */
function named(x: Exchange, who: string | Outcome | undefined): Outcome | undefined {
  if (typeof who === 'object') return who;
  x.clientId = who;
  return undefined;
}
const noRoute: RouteMatch<RouteEntry> = { found: 'none' };

/** Builds the core: `(request) => reply`, synchronous unless a step makes it wait (a store, a latency, a route). */
export function createPipeline(deps: PipelineDeps): MockCore {
  const { router, failures, errors, guard, pages, sync, controlToken, monotonicNs } = deps;
  const storeDown = (x: Exchange, error: unknown) => {
    x.waitsForRecords = false;
    return storeDownOutcome(errors, deps.storeUnavailableReason, x.kind, error);
  };

  /** The steps that may answer, in order; the route answers every request that gets that far. */
  const askSteps: readonly AskStep[] = [
    // Host check, CORS preflight, cross-origin refusal on the mock's own paths.
    function hostAndCors(x) {
      return guard.check(x.request, x.kind, x.match.found === 'none' ? undefined : x.match.route.allow);
    },
    // The control token on /__pck/ (page shells excepted: a navigation cannot send it; the data they fetch needs it).
    function controlTokenCheck(x) {
      return x.page === undefined ? controlToken?.(x.request) : undefined;
    },
    // With a store: open, rebuild or read the store first (a page shell reads no state); a store fault is its 503.
    ...(sync === undefined ? [] : [storeCatchUp(sync, storeDown, monotonicNs)]),
    // Injected failures (failNextRequest) answer before anything runs, as a failing service would; on Redis an armed
    // failure is taken there first (one replica uses each). A route whose credentials check
    // takes it in its own round trip (/graphql on Redis) leaves it to that check.
    function injectedFailure(x) {
      if (x.match.found !== 'handler' || x.kind === 'control' || !failures.pending()) return undefined;
      if (x.match.handler.takesFailure === true) return undefined;
      const taken = injectedAnswer(errors, failures.take(x.path), x.match.route.kind);
      return taken instanceof Promise ? taken.catch((error: unknown) => storeDown(x, error)) : taken;
    },
    // The route's credentials check names the client, or answers the failure in the route's shape. Over a shared
    // token state (Redis) the check is a read of the store, and a store fault is its 503.
    function auth(x) {
      if (x.match.found !== 'handler' || x.match.handler.auth === undefined) return undefined;
      const who = x.match.handler.auth(x.request);
      if (who instanceof Promise) return who.then((w) => named(x, w), storeFault(x));
      return named(x, who);
    },
    // The route's own work, from body bytes the transport has already read; 404 and 405 in the route's shape.
    function route(x) {
      if (x.page !== undefined) return x.page(x.request);
      if (x.match.found === 'handler') {
        const answer = x.match.handler.handle(x.request, x.clientId);
        return answer instanceof Promise ? answer.catch(storeFault(x)) : answer;
      }
      if (x.match.found === 'method') {
        const message = kitMessage(`${x.request.method} is not allowed on ${x.path}: use ${x.match.route.allow}.`);
        return errors.layer(x.kind, 405, message, { allow: x.match.route.allow });
      }
      const message = `No such path: ${x.path}. The mock serves ${knownPaths} and the control API under ${controlPrefix}.`;
      return errors.layer(undefined, 404, kitMessage(message));
    },
  ];

  const storeFault = storeFaultOf(storeDown);

  /** The steps every answer goes through, in order, before the reply is serialized and recorded. */
  const answerSteps: readonly AnswerStep[] = [
    // With a store: the answer waits until the request's records are durable, or becomes the store's 503.
    ...(sync === undefined ? [] : [recordsDurable(sync, storeDown)]),
    // Simulated network latency on service paths (the `latency` option).
    ...(deps.latency === undefined ? [] : [latencyStep(deps.latency, deps.latencyRandom)]),
    // CORS headers go on every answer to a cross-origin request, errors included, or the browser hides the error.
    function corsHeaders(x, answer) {
      const cors = x.request.headers.origin === undefined ? undefined : guard.answerHeaders(x.request, x.kind);
      if (cors === undefined || answer.headers?.['access-control-allow-origin'] !== undefined) return answer;
      return { ...answer, headers: { ...answer.headers, ...cors } };
    },
  ];
  const record = createRecordStep(deps);

  /** Runs `askSteps` from `i`: the first answer goes on to the answer steps; a throw is mapped to its answer. */
  function ask(x: Exchange, i: number): MockReply | Promise<MockReply> {
    let answer: Outcome | Promise<Outcome | undefined> | undefined;
    try {
      while (answer === undefined && i < askSteps.length) answer = askSteps[i++]!(x);
    } catch (error) {
      // A caller's mistake keeps its spec-shaped answer; anything else is a logged 500.
      answer = errors.fromError(error, x.request.method, x.path);
    }
    if (answer === undefined) throw new Error('the route step answers every request');
    if (!(answer instanceof Promise)) return finish(x, answer, 0);
    const next = i;
    return answer.then(
      (a) => (a === undefined ? ask(x, next) : finish(x, a, 0)),
      (error: unknown) => finish(x, errors.fromError(error, x.request.method, x.path), 0),
    );
  }

  /** Runs `answerSteps` from `i` on `answer`, then serializes and records it. */
  function finish(x: Exchange, answer: Outcome, i: number): MockReply | Promise<MockReply> {
    for (; i < answerSteps.length; i++) {
      const next = answerSteps[i]!(x, answer);
      if (next instanceof Promise) {
        const after = i + 1;
        return next.then((a) => finish(x, a, after));
      }
      answer = next;
    }
    return record(x, answer);
  }

  return (request) => {
    // Pages answer GET and HEAD only: any other request (every payment) skips their lookup.
    const page = request.method === 'GET' || request.method === 'HEAD' ? pages?.match(request) : undefined;
    const match = page === undefined ? router.match(request.method, request.path) : noRoute;
    const kind = page !== undefined ? 'control' : match.found === 'none' ? undefined : match.route.kind;
    // Unknown paths are the only place client text reaches the log and journal: mask card-like digit runs.
    const path = match.found === 'none' && page === undefined ? maskDigits(request.path) : request.path;
    const x: Exchange = {
      request,
      started: monotonicNs(),
      path,
      match,
      page,
      kind,
      clientId: undefined,
      waitsForRecords: true,
    };
    return ask(x, 0);
  };
}

/**
 * The store's step before a route: waits for the store to open or rebuild, and on Redis for its reading of the epoch
 * and the clock, unless the request reads nothing other replicas change. A page shell reads no state and is served
 * even when the store is down.
 */
function storeCatchUp(
  sync: PipelineSync,
  storeDown: (x: Exchange, error: unknown) => Outcome,
  monotonicNs: () => bigint,
): AskStep {
  const readsShared = (x: Exchange) =>
    x.match.found !== 'handler' || (x.match.handler.readsShared?.(x.request) ?? true);
  return function storeCatchUpStep(x) {
    if (x.page !== undefined) return undefined;
    const gate = sync.before(readsShared(x));
    if (gate === undefined) return undefined;
    return gate.then(
      () => {
        x.started = monotonicNs();
        return undefined;
      },
      (error: unknown) => {
        x.started = monotonicNs();
        return storeDown(x, error);
      },
    );
  };
}

/** The store's durability step: an answer goes out only once the records its request made are durable. */
function recordsDurable(sync: PipelineSync, storeDown: (x: Exchange, error: unknown) => Outcome): AnswerStep {
  return function recordsDurableStep(x, answer) {
    const waiting = x.waitsForRecords ? sync.after() : undefined;
    if (waiting === undefined) return answer;
    return waiting.then(
      () => answer,
      (error: unknown) => storeDown(x, error),
    );
  };
}

/** The latency step: a random delay between the option's bounds on service paths (control calls answer at once). */
function latencyStep(latency: MockLatency, random: SeededRandom): AnswerStep {
  return function latencyDelay(x, answer) {
    if (x.kind === 'control') return answer;
    const delay = latency.minMs + random.next() * (latency.maxMs - latency.minMs);
    return new Promise((resolve) => setTimeout(() => resolve(answer), delay));
  };
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

/** The last step of every request: the answer serialized, then told as one `request.answered` event. */
function createRecordStep(deps: PipelineDeps): (x: Exchange, answer: Outcome) => MockReply {
  const { errors, clock, monotonicNs, events } = deps;
  return function recordStep(x, answer) {
    const { method } = x.request;
    let reply: MockReply;
    try {
      reply = toReply(answer);
    } catch (error) {
      // An answer that cannot be serialized is a bug: answer it as one.
      answer = errors.internal(error, method, x.path);
      reply = toReply(answer);
    }
    // The GraphQL route reads its verdict off its answer object; other answers are read here.
    const verdict = answer.verdict ?? verdictOfOutcome(answer);
    // The request's one record, a plain literal: the log, the journal and the coverage report each read what they
    // need of it and keep none of it (the journal copies its fields into its ring).
    events.emit({
      kind: 'request.answered',
      route: x.kind,
      method,
      path: x.path,
      operationName: answer.operationName,
      status: answer.status,
      at: clock.now(),
      durationMs: Number(monotonicNs() - x.started) / 1e6,
      clientId: x.clientId,
      guide: answer.guide,
      rootFields: answer.rootFields,
      summary: answer.summary,
      verdict,
      outcome: verdict.outcome,
    });
    return reply;
  };
}
