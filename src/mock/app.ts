/**
 * The mock as a request handler, apart from any listener (STYLE habit 10): `createMockApp(options)` builds the clock,
 * state, tokens, journal, settlement, webhook dispatchers and routes, and returns a `node:http` request listener
 * plus the control handle. It opens no socket and arms no timer; timers start only when work is scheduled.
 *
 * The GraphQL engine (graphql-js, graphql-jit, @graphql-tools/mock) is imported on the first `/graphql` request, not
 * at start-up: the CLI's cold start is benchmarked, and token calls never need it.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Assumptions } from '../assumptions.ts';
import type { TokenPair } from '../types/rest.ts';
import { type Clock, createClock, maxClockTime } from './internal/clock.ts';
import { registerControlRoutes } from './internal/control-api.ts';
import { detectCardType, expiryProblems, isDigits, luhnValid } from './internal/domain/cards.ts';
import { graphqlError, MockHttpError, restError, restErrorBody } from './internal/errors.ts';
import type { GraphqlEngine } from './internal/graphql/engine.ts';
import { readJsonBody } from './internal/http/body.ts';
import { createRequestLog, maskDigits, type RequestLog } from './internal/http/request-log.ts';
import { type Reply, writeReply } from './internal/http/respond.ts';
import { createRouter, type RouteKind, type Router } from './internal/http/router.ts';
import { createJournal, type Journal, type JournalEntry, summarizeVariables } from './internal/journal.ts';
import { createSeededRandom } from './internal/random.ts';
import { createSettlement, createWebhookFanout } from './internal/settlement.ts';
import { createMockState, type SettlementOutcome, type StoredPayment } from './internal/state.ts';
import { createTokenService, tokenHeaders, tokenPairJson } from './internal/tokens.ts';
import type { DeliveryRecord } from './internal/webhooks/dispatcher.ts';
import { type MockOptions, type ResolvedMockOptions, resolveMockOptions } from './options.ts';

/** REST paths of the service (spec 4.1-4.3) and the GraphQL path (4.4-4.6). */
export const servicePaths = {
  generateToken: '/api/v2/accounting/token/generate-token',
  refreshToken: '/api/v2/accounting/token/refresh-token',
  revokeToken: '/api/v2/accounting/token/revoke-token',
  graphql: '/graphql',
} as const;

/** Reserved prefix of the control API. */
export const controlPrefix = '/__pck/';

/** A request the mock answered, as the journal keeps it (no bodies; masked variables summary only). */
export type MockRequestRecord = JournalEntry;

/** A payment as the mock stores it (card number masked, no CVV). */
export type MockPayment = Readonly<StoredPayment>;

/** A webhook delivery with its attempts, as the dispatcher logs it. */
export type MockDelivery = DeliveryRecord;

/** Matches requests by field equality; every given field must match. The HTTP control API takes this form. */
export interface MockRequestMatcher {
  readonly method?: string;
  readonly path?: string;
  readonly operationName?: string;
  readonly status?: number;
  readonly clientId?: string;
  readonly guide?: 'current' | 'legacy';
}

/** Card details for {@link MockControl.registerCardAccount}; the CVV is not needed and not taken. */
export interface MockCardInput {
  readonly card_number: string;
  readonly expiry_month: string;
  readonly expiry_year: string;
}

/** Options of {@link MockControl.failNextRequest}. */
export interface FailNextOptions {
  /** Message of the error body; default says the failure was injected. */
  readonly message?: string;
  /** How many following requests fail. Default 1. */
  readonly times?: number;
}

/**
 * The control handle: drives the mock from tests (STYLE habit 9). Every operation is also served over HTTP under
 * `/__pck/` (see `registerControlRoutes`).
 */
export interface MockControl {
  /** Forgets tokens, payments, card accounts, journal, deliveries and injected failures; rewinds the clock offset and every seeded sequence. */
  reset(): void;
  /** Virtual time, ms since the epoch. */
  now(): number;
  /** Moves the virtual clock forward (token expiry, due settlements and webhook retries happen at once); returns the new time. */
  advanceClock(ms: number): number;
  /** Payments of one client, or of all, oldest first. */
  payments(clientId?: string): MockPayment[];
  /**
   * Settles a payment now with `outcome` (default: its card's) and sends its webhook. Throws when the payment is
   * unknown or already settled.
   */
  settlePayment(uuid: string, outcome?: SettlementOutcome): MockPayment;
  /** Requests answered (control API calls excluded), oldest first; `since` is a cursor from {@link MockControl.cursor}. */
  requests(options?: { since?: number }): MockRequestRecord[];
  /** The journal position of the latest request: pass it as `since` to wait only for later ones. */
  cursor(): number;
  /** Resolves with the first request matching, already answered (after `since`) or still to come. */
  waitForRequest(
    match: ((request: MockRequestRecord) => boolean) | MockRequestMatcher,
    options?: { timeoutMs?: number; since?: number },
  ): Promise<MockRequestRecord>;
  /** Issues a token pair for a configured client, bypassing the generate-once rule (tests, Pact provider states). */
  issueToken(clientId: string): TokenPair;
  /** Registers a card for a client as a fee calculation would, and returns its `card_account_uid`. */
  registerCardAccount(clientId: string, card: MockCardInput): string;
  /** Webhook deliveries with their attempts. */
  deliveries(): MockDelivery[];
  /** Resolves with the first delivery matching, now or later. */
  waitForDelivery(
    predicate: (delivery: MockDelivery) => boolean,
    options?: { timeoutMs?: number },
  ): Promise<MockDelivery>;
  /**
   * Sends a finished delivery (`failed`, `gone` or `delivered`) again, with the same delivery id. Throws the 7.1
   * error the HTTP route answers: 404 for an unknown id, 409 while the delivery is still queued, sending or waiting
   * for a retry (wait for it, advancing the clock), when its payload could not be built, or once the mock is closed.
   */
  redeliver(id: string): void;
  /**
   * Makes the next request(s) to `path` (a service path such as the generate-token path, or `/graphql`) fail with
   * `status` and the spec's error body (7.1 on REST paths, 7.2 on /graphql), e.g. to see the 500 body of spec 7.1.
   */
  failNextRequest(path: string, status: number, options?: FailNextOptions): void;
  /**
   * Loads the GraphQL engine now instead of on the first /graphql request (benchmarks, first-request timing). With
   * `scope: 'all'` (default) it also builds the schema of every served guide and loads the query compiler; with
   * `'first-request'` only what the first request in the first served guide needs, so the rest of the work does
   * not delay that request (the CLI warms up so right after listening).
   */
  warmUp(options?: { scope?: 'all' | 'first-request' }): Promise<void>;
  /** The assumptions this instance runs with. */
  readonly assumptions: Assumptions;
}

/** The mock as a request handler. */
export interface MockApp {
  /** `node:http` request listener. */
  readonly handle: (req: IncomingMessage, res: ServerResponse) => void;
  /** The control handle. */
  readonly control: MockControl;
  /** The resolved options. */
  readonly options: ResolvedMockOptions;
  /** Writes queued log lines now. */
  flushLog(): void;
  /** Writes a line to the request log (masked); the server logs start-up and client errors with it. */
  logLine(text: string): void;
  /**
   * Cancels timers, rejects pending waits and stops webhook deliveries: each one not delivered is kept as `failed`
   * (reason `closed`) and one log line lists how many and which. Then flushes the log.
   */
  close(): Promise<void>;
}

/** What a route handler answers, with what the journal and the log need. */
interface Outcome extends Reply {
  readonly operationName?: string | undefined;
  readonly guide?: 'current' | 'legacy' | undefined;
  readonly clientId?: string | undefined;
  readonly summary?: unknown;
}

type Handler = (req: IncomingMessage) => Outcome | Promise<Outcome>;

interface InjectedFailure {
  status: number;
  message: string | undefined;
  remaining: number;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

function errorDetail(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Creates the mock without listening: a request handler and the control handle. No sockets, no timers.
 *
 * @example
 * import { createServer } from 'node:http';
 * const app = createMockApp({ guide: 'both' });
 * createServer(app.handle).listen(0);
 */
export function createMockApp(options: MockOptions = {}): MockApp {
  const opts = resolveMockOptions(options);
  const { assumptions } = opts;
  const reasons = assumptions.reasonCodes;
  const gqlErrorStatus = assumptions.graphqlErrorHttpStatus;

  const log: RequestLog = createRequestLog(opts.log);
  // Work scheduled on the clock (settlement, webhook retries) runs in real timers: a failure there is logged as the
  // bug it is, never thrown into the event loop where it would end the process.
  const clock: Clock = createClock({
    realNow: opts.realNow,
    onTaskError: (error) =>
      log.line(
        `[payment-contract-kit] a scheduled task failed (a bug in the mock; please report it): ${errorDetail(error)}`,
      ),
  });
  const random = createSeededRandom(opts.seed);
  const paymentRandom = random.fork('graphql');
  const latencyRandom = random.fork('latency');
  const webhookRandom = random.fork('webhooks');
  const state = createMockState({ assumptions, seed: opts.seed, now: clock.now });
  const tokens = createTokenService({
    assumptions,
    clients: opts.clients,
    clock,
    seed: opts.seed,
  });
  const journal: Journal = createJournal(opts.journalSize);
  const webhooks = createWebhookFanout({
    assumptions,
    clock,
    clients: opts.clients,
    webhookUrls: opts.webhookUrls,
    signingKey: opts.webhookSigningKey,
    standardWebhooksSecret: opts.standardWebhooksSecret,
    random: () => webhookRandom.next(),
    onProblem: (line) => log.line(line),
  });
  const settlement = createSettlement({
    assumptions,
    clock,
    state,
    settled: (p) => webhooks.deliver(p),
    onError: (line) => log.line(line),
  });
  const failures = new Map<string, InjectedFailure>();
  const router: Router<Handler> = createRouter<Handler>();

  let engine: GraphqlEngine | undefined;
  let engineLoading: Promise<GraphqlEngine> | undefined;

  function loadEngine(): Promise<GraphqlEngine> {
    engineLoading ??= import('./internal/graphql/engine.ts').then(
      (m) => {
        engine = m.createGraphqlEngine({
          assumptions,
          guide: opts.guide,
          state,
          clock,
          random: paymentRandom,
          onPaymentAccepted: settlement.onPaymentAccepted,
        });
        return engine;
      },
      (error: unknown) => {
        engineLoading = undefined;
        throw error;
      },
    );
    return engineLoading;
  }

  // ---- answers in the spec's shapes -------------------------------------------------------------------------------

  function gqlFailure(status: number, message: string, reason: string): Outcome {
    return { status, body: { errors: [graphqlError(message, reason)] } };
  }

  /** A client mistake detected by the HTTP layer (bad body, 405, 413), in the error shape of the route. */
  function layerError(kind: RouteKind, status: number, message: string, headers?: Record<string, string>): Outcome {
    if (kind === 'graphql')
      return { status, body: { errors: [graphqlError(message, reasons.badRequest)] }, ...(headers ? { headers } : {}) };
    return { status, body: restErrorBody(message), ...(headers ? { headers } : {}) };
  }

  function internalError(error: unknown, method: string, path: string): Outcome {
    log.line(
      `[payment-contract-kit] internal error on ${method} ${path} (a bug in the mock; please report it): ${errorDetail(error)}`,
    );
    return {
      status: 500,
      body: restErrorBody('[payment-contract-kit] Internal server error in the mock; see its log.'),
    };
  }

  function fromError(error: unknown, method: string, path: string): Outcome {
    if (error instanceof MockHttpError)
      return {
        status: error.status,
        body: error.body,
        ...(Object.keys(error.headers).length ? { headers: error.headers } : {}),
      };
    return internalError(error, method, path);
  }

  // ---- service routes ----------------------------------------------------------------------------------------------

  router.add('rest', 'POST', servicePaths.generateToken, (req) => {
    const clientId = tokens.authenticate(header(req, tokenHeaders.clientId), header(req, tokenHeaders.apiKey));
    return { status: 200, json: tokenPairJson(tokens.generate(clientId)), ascii: true, clientId };
  });

  router.add('rest', 'POST', servicePaths.refreshToken, async (req) => {
    const clientId = tokens.authenticate(header(req, tokenHeaders.clientId), header(req, tokenHeaders.apiKey));
    const body = await readJsonBody(req, opts.maxBodyBytes);
    if (!body.ok) return layerError('rest', body.problem === 'too-large' ? 413 : 400, body.message);
    const refreshToken = isPlainObject(body.value) ? body.value.refresh_token : undefined;
    if (typeof refreshToken !== 'string' || refreshToken === '')
      return layerError(
        'rest',
        400,
        body.empty
          ? '[payment-contract-kit] refresh-token needs a JSON body { "refresh_token": "<refresh_token from generate-token>" }.'
          : '[payment-contract-kit] refresh_token is missing or not a string: send { "refresh_token": "<refresh_token from generate-token>" }.',
      );
    return { status: 200, json: tokenPairJson(tokens.refresh(clientId, refreshToken)), ascii: true, clientId };
  });

  router.add('rest', 'POST', servicePaths.revokeToken, (req) => {
    const clientId = tokens.authenticate(header(req, tokenHeaders.clientId), header(req, tokenHeaders.apiKey));
    tokens.revoke(clientId, header(req, tokenHeaders.jwt));
    return { status: 200, body: assumptions.revokeTokenBody, clientId };
  });

  router.add('graphql', 'POST', servicePaths.graphql, async (req) => {
    const check = tokens.verify(header(req, tokenHeaders.jwt), header(req, tokenHeaders.clientId));
    if (!check.ok) return gqlFailure(gqlErrorStatus, check.message, reasons[check.reason]);
    const clientId = check.clientId;
    if (assumptions.graphqlRequiresClientHeaders) {
      const apiKey = header(req, tokenHeaders.apiKey);
      if (header(req, tokenHeaders.clientId) === undefined || apiKey === undefined)
        return gqlFailure(
          gqlErrorStatus,
          `[payment-contract-kit] This mock requires ${tokenHeaders.clientId} and ${tokenHeaders.apiKey} on /graphql too (graphqlRequiresClientHeaders): send both with the token.`,
          reasons.missingClientHeaders,
        );
      if (!tokens.apiKeyMatches(clientId, apiKey))
        return gqlFailure(
          gqlErrorStatus,
          `[payment-contract-kit] Wrong ${tokenHeaders.apiKey} for client "${clientId}": send the API key configured for it.`,
          reasons.clientMismatch,
        );
    }
    const body = await readJsonBody(req, opts.maxBodyBytes);
    if (!body.ok) return layerError('graphql', body.problem === 'too-large' ? 413 : 400, body.message);
    if (!isPlainObject(body.value))
      return layerError(
        'graphql',
        400,
        '[payment-contract-kit] /graphql needs a JSON object body { "query": "...", "variables": { ... } }.',
      );
    const request = body.value;
    const ready = engine ?? (await loadEngine());
    const result = ready.execute(
      { query: request.query, variables: request.variables, operationName: request.operationName },
      { clientId, ip: req.socket.remoteAddress ?? '127.0.0.1' },
    );
    if (result.internalError !== undefined) internalError(result.internalError, 'POST', servicePaths.graphql);
    return {
      status: result.status,
      json: result.json,
      operationName: result.operationName,
      guide: result.guide,
      clientId,
      summary: request.variables === undefined ? undefined : summarizeVariables(request.variables),
    };
  });

  // ---- control handle ----------------------------------------------------------------------------------------------

  function toPredicate(
    match: ((r: MockRequestRecord) => boolean) | MockRequestMatcher,
  ): (r: MockRequestRecord) => boolean {
    if (typeof match === 'function') return match;
    const entries = Object.entries(match).filter(([, v]) => v !== undefined) as [keyof MockRequestRecord, unknown][];
    return (r) => entries.every(([k, v]) => r[k] === v);
  }

  const control: MockControl = {
    assumptions,
    reset() {
      clock.reset();
      settlement.reset();
      state.reset();
      tokens.reset();
      random.reset();
      paymentRandom.reset();
      latencyRandom.reset();
      webhookRandom.reset();
      engine?.reset();
      journal.reset();
      webhooks.reset();
      failures.clear();
    },
    now: () => clock.now(),
    advanceClock: (ms) => {
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0)
        throw restError(
          400,
          `[payment-contract-kit] advanceClock needs a finite, non-negative number of milliseconds; got ${String(ms)}.`,
        );
      if (clock.now() + ms > maxClockTime)
        throw restError(
          400,
          `[payment-contract-kit] advanceClock(${ms}) would move the clock past the latest date JavaScript can hold (${new Date(maxClockTime).toISOString()}); advance by less.`,
        );
      return clock.advance(ms);
    },
    payments: (clientId) => state.payments(clientId),
    settlePayment(uuid, outcome) {
      if (outcome !== undefined && outcome !== 'success' && outcome !== 'failure')
        throw restError(
          400,
          `[payment-contract-kit] settlePayment outcome must be "success" or "failure"; got ${String(outcome)}.`,
        );
      const r = settlement.settleNow(uuid, outcome);
      if (r.ok) return r.payment;
      throw r.problem === 'unknown'
        ? restError(404, `[payment-contract-kit] No payment with uuid "${uuid}": list them with payments().`)
        : restError(
            409,
            `[payment-contract-kit] Payment "${uuid}" is already settled (${r.payment?.status}); reset() to start over.`,
          );
    },
    requests: (o) => journal.entries(o?.since),
    cursor: () => journal.cursor(),
    waitForRequest: (match, o) => journal.waitFor(toPredicate(match), o),
    issueToken(clientId) {
      if (!tokens.isClient(clientId))
        throw restError(
          404,
          `[payment-contract-kit] issueToken: client "${clientId}" is not configured on this mock (see clients / --client-id / --config).`,
        );
      return tokens.issue(clientId);
    },
    registerCardAccount(clientId, card) {
      if (!tokens.isClient(clientId))
        throw restError(
          404,
          `[payment-contract-kit] registerCardAccount: client "${clientId}" is not configured on this mock.`,
        );
      const number = card?.card_number;
      const { min, max } = assumptions.bounds.cardNumberDigits;
      if (
        typeof number !== 'string' ||
        !isDigits(number) ||
        number.length < min ||
        number.length > max ||
        !luhnValid(number)
      )
        throw restError(
          400,
          `[payment-contract-kit] registerCardAccount: card_number must be ${min}-${max} digits passing the Luhn check (see testCards).`,
        );
      if (detectCardType(number, assumptions.cardTypes) === undefined)
        throw restError(
          400,
          '[payment-contract-kit] registerCardAccount: card_number is not of a supported card type (Assumptions.cardTypes).',
        );
      if (
        typeof card.expiry_month !== 'string' ||
        typeof card.expiry_year !== 'string' ||
        expiryProblems(card.expiry_month, card.expiry_year, clock.now()).length > 0
      )
        throw restError(
          400,
          '[payment-contract-kit] registerCardAccount: expiry_month and expiry_year must be 2 digits each and not in the past.',
        );
      return state.upsertCardAccount(clientId, {
        card_number: number,
        expiry_month: card.expiry_month,
        expiry_year: card.expiry_year,
      }).card_account_uid;
    },
    deliveries: () => webhooks.deliveries(),
    waitForDelivery: (predicate, o) => webhooks.waitFor(predicate, o),
    redeliver(id) {
      if (typeof id !== 'string' || id === '')
        throw restError(400, '[payment-contract-kit] redeliver needs the id of a delivery (see deliveries()).');
      const r = webhooks.redeliver(id);
      if (!r.ok) throw restError(r.problem === 'unknown' ? 404 : 409, r.message);
    },
    failNextRequest(path, status, o = {}) {
      const known = router.match('POST', path);
      if (known.found === 'none' || known.route.kind === 'control')
        throw restError(
          400,
          `[payment-contract-kit] failNextRequest: "${path}" is not a service path; use one of ${Object.values(servicePaths).join(', ')}.`,
        );
      if (!Number.isInteger(status) || status < 400 || status > 599)
        throw restError(
          400,
          `[payment-contract-kit] failNextRequest: status must be an HTTP error status from 400 to 599; got ${String(status)}.`,
        );
      const times = o.times ?? 1;
      if (!Number.isInteger(times) || times < 1)
        throw restError(
          400,
          `[payment-contract-kit] failNextRequest: times must be a positive integer; got ${String(times)}.`,
        );
      failures.set(path, { status, message: o.message, remaining: times });
    },
    async warmUp(options) {
      await (await loadEngine()).warmUp(options);
    },
  };

  registerControlRoutes(router, control, opts.guide, opts.maxBodyBytes);

  // ---- dispatch ----------------------------------------------------------------------------------------------------

  function injected(path: string, kind: RouteKind): Outcome | undefined {
    const f = failures.get(path);
    if (!f) return undefined;
    if (--f.remaining <= 0) failures.delete(path);
    const message = f.message ?? `[payment-contract-kit] Injected failure (failNextRequest) with status ${f.status}.`;
    return kind === 'graphql'
      ? gqlFailure(f.status, message, f.status >= 500 ? reasons.internal : reasons.badRequest)
      : { status: f.status, body: restErrorBody(message) };
  }

  /** Writes the answer, then logs and journals it. */
  function complete(
    res: ServerResponse,
    method: string,
    path: string,
    kind: RouteKind | undefined,
    outcome: Outcome,
    started: number,
  ): void {
    try {
      writeReply(res, outcome);
    } catch (error) {
      // A reply that cannot be serialized is a bug; answer it as one instead of leaving the socket hanging. This may
      // run in a latency timer, so even the fallback must not throw.
      try {
        writeReply(res, internalError(error, method, path));
      } catch {
        res.destroy();
      }
    }
    const durationMs = performance.now() - started;
    log.request(method, path, outcome.operationName, outcome.status, durationMs);
    if (kind === 'control') return;
    journal.record(
      method,
      path,
      outcome.status,
      clock.now(),
      durationMs,
      outcome.operationName,
      outcome.guide,
      outcome.clientId,
      outcome.summary,
    );
  }

  function finish(
    res: ServerResponse,
    method: string,
    path: string,
    kind: RouteKind | undefined,
    outcome: Outcome,
    started: number,
  ): void {
    const latency = opts.latency;
    if (latency && kind !== 'control') {
      const delay = latency.minMs + latencyRandom.next() * (latency.maxMs - latency.minMs);
      setTimeout(() => complete(res, method, path, kind, outcome, started), delay);
    } else complete(res, method, path, kind, outcome, started);
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const started = performance.now();
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    let path = q === -1 ? url : url.slice(0, q);
    let kind: RouteKind | undefined;
    let outcome: Outcome | Promise<Outcome>;
    try {
      const m = router.match(method, path);
      if (m.found === 'handler') {
        kind = m.route.kind;
        outcome = (failures.size > 0 && kind !== 'control' && injected(path, kind)) || m.handler(req);
      } else if (m.found === 'method') {
        kind = m.route.kind;
        outcome = layerError(
          kind,
          405,
          `[payment-contract-kit] ${method} is not allowed on ${path}: use ${m.route.allow}.`,
          { allow: m.route.allow },
        );
      } else {
        // Unknown paths are the only place client text reaches the log and journal: mask card-like digit runs.
        path = maskDigits(path);
        outcome = {
          status: 404,
          body: restErrorBody(
            `[payment-contract-kit] No such path: ${path}. The mock serves ${Object.values(servicePaths).join(', ')} and the control API under ${controlPrefix}.`,
          ),
        };
      }
    } catch (error) {
      outcome = fromError(error, method, path);
    }
    if (outcome instanceof Promise)
      outcome
        .then(
          (o) => finish(res, method, path, kind, o, started),
          (error: unknown) => finish(res, method, path, kind, fromError(error, method, path), started),
        )
        .catch((error: unknown) => {
          // Writing the answer itself failed: log the bug and end the exchange rather than leave a rejection.
          internalError(error, method, path);
          res.destroy();
        });
    else finish(res, method, path, kind, outcome, started);
  }

  return {
    handle,
    control,
    options: opts,
    flushLog: () => log.flush(),
    logLine: (text) => log.line(text),
    async close() {
      journal.close();
      const undelivered = await webhooks.close();
      // Never dropped silently: say how many and which deliveries the close ended (each is kept as failed, closed).
      if (undelivered.length > 0)
        log.line(
          `[payment-contract-kit] closed with ${undelivered.length} webhook ${undelivered.length === 1 ? 'delivery' : 'deliveries'} not delivered, recorded as failed (closed): ${undelivered
            .map((d) => `${d.id} (payment ${d.paymentUuid} to ${d.url}, ${d.attempts.length} attempts)`)
            .join(', ')}.`,
        );
      clock.dispose();
      log.flush();
    },
  };
}

export type { Router };
