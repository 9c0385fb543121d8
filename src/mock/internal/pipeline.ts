/**
 * The request pipeline: one request's whole life inside the core, top to bottom. Every transport (the `node:http`
 * listener, `app.fetch`) calls the function this module builds and writes the reply it returns.
 *
 * @module
 */

import { kitMessage } from '../../internal/messages.ts';
import { controlPrefix, servicePaths } from '../../spec-names.ts';
import type { MockLatency } from '../options.ts';
import type { Clock } from './clock.ts';
import type { ErrorMapper } from './error-mapping.ts';
import type { FailureInjection } from './failure-injection.ts';
import type { MockReply, MockRequest } from './http/exchange.ts';
import type { MockCore } from './http/node-adapter.ts';
import { type Outcome, type RouteEntry, reasonOf, toReply } from './http/outcome.ts';
import { maskDigits, type RequestLog } from './http/request-log.ts';
import type { RouteKind, Router } from './http/router.ts';
import type { Journal } from './journal.ts';
import type { SeededRandom } from './random.ts';

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
}

const knownPaths = Object.values(servicePaths).join(', ');

/** Builds the core: `(request) => reply`, synchronous unless the route or the latency option makes it wait. */
export function createPipeline(deps: PipelineDeps): MockCore {
  const { router, failures, errors, log, journal, clock, latency, latencyRandom } = deps;

  /**
   * Simulated network latency on service paths (the `latency` option), then the last step of every request: the
   * answer is serialized, logged and journaled.
   */
  function complete(
    method: string,
    path: string,
    kind: RouteKind | undefined,
    clientId: string | undefined,
    outcome: Outcome,
    started: number,
    delayed = latency !== undefined && kind !== 'control',
  ): MockReply | Promise<MockReply> {
    if (delayed && latency) {
      const delay = latency.minMs + latencyRandom.next() * (latency.maxMs - latency.minMs);
      return new Promise((resolve) =>
        setTimeout(() => resolve(complete(method, path, kind, clientId, outcome, started, false)), delay),
      );
    }
    let reply: MockReply;
    try {
      reply = toReply(outcome);
    } catch (error) {
      // An answer that cannot be serialized is a bug: answer it as one.
      outcome = errors.internal(error, method, path);
      reply = toReply(outcome);
    }
    const durationMs = performance.now() - started;
    log.request({
      ...{ method, path, operationName: outcome.operationName, status: outcome.status, durationMs, clientId },
      reason: log.format === 'json' ? reasonOf(outcome) : undefined,
      at: clock.now(),
    });
    // Control calls are not journaled, so waiting for "a request" never matches the wait call itself.
    if (kind !== 'control')
      journal.record(
        method,
        path,
        outcome.status,
        clock.now(),
        durationMs,
        outcome.operationName,
        outcome.guide,
        clientId,
        outcome.summary,
      );
    return reply;
  }

  return function answer(request: MockRequest): MockReply | Promise<MockReply> {
    const started = performance.now();
    const { method } = request;
    let path = request.path;
    let kind: RouteKind | undefined;
    let clientId: string | undefined;
    let outcome: Outcome | Promise<Outcome>;
    try {
      // 1. Route match: exact path, then method (404 and 405 are answered here, in the route's error shape).
      const m = router.match(method, path);
      if (m.found === 'handler') {
        kind = m.route.kind;
        const { auth, handle } = m.handler;
        // 2. Injected failures (failNextRequest) answer before anything runs, as a failing service would.
        const injected = failures.pending() && kind !== 'control' ? failures.take(path, kind) : undefined;
        if (injected !== undefined) outcome = injected;
        else {
          // 3. Auth: the route's credentials check names the client or answers the failure in the route's shape.
          const who = auth === undefined ? undefined : auth(request);
          if (typeof who === 'object') outcome = who;
          else {
            clientId = who;
            // 4. Handler: the route's own work, from body bytes the transport has already read.
            outcome = handle(request, clientId);
          }
        }
      } else if (m.found === 'method') {
        kind = m.route.kind;
        const message = kitMessage(`${method} is not allowed on ${path}: use ${m.route.allow}.`);
        outcome = errors.layer(kind, 405, message, { allow: m.route.allow });
      } else {
        // Unknown paths are the only place client text reaches the log and journal: mask card-like digit runs.
        path = maskDigits(path);
        const message = `No such path: ${path}. The mock serves ${knownPaths} and the control API under ${controlPrefix}.`;
        outcome = errors.layer(undefined, 404, kitMessage(message));
      }
    } catch (error) {
      // 5. Error mapping: a caller's mistake keeps its spec-shaped answer; anything else is a logged 500.
      outcome = errors.fromError(error, method, path);
    }
    // 6. Latency, then 7. journal and log (in complete).
    if (outcome instanceof Promise)
      return outcome.then(
        (o) => complete(method, path, kind, clientId, o, started),
        (error: unknown) => complete(method, path, kind, clientId, errors.fromError(error, method, path), started),
      );
    return complete(method, path, kind, clientId, outcome, started);
  };
}
