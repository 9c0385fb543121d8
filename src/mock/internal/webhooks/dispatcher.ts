/**
 * The mock's webhook delivery engine: at-least-once delivery of payment status webhooks to every registered URL.
 *
 * - Every event becomes one delivery per URL, with a delivery id that never changes (retries and redeliveries reuse
 *   it) so receivers can recognise duplicates.
 * - A connection error, an attempt that outlives `attemptTimeoutMs`, or any non-2xx answer is retried with
 *   exponential backoff and jitter until `maxAttempts`; then the delivery is `failed`, kept, and can be redelivered.
 * - Every wait (retry delays and attempt timeouts) is a task on the mock's virtual clock: advancing the clock fires
 *   what came due at once, so a test walks hours of schedule in milliseconds.
 * - 429 or 503 with `Retry-After` (seconds or an HTTP date): the next attempt waits that long (at most `maxDelayMs`)
 *   instead of the backoff delay; it still counts as an attempt.
 * - 410 Gone: the receiver says the URL is retired. The delivery becomes `gone` with no further retries, and the URL
 *   is switched off: deliveries waiting for it, and later events for it, are recorded as `gone` without being sent.
 *   `redeliver(id)` of a gone delivery switches the URL back on (an operator's explicit decision) and sends it.
 * - Events of one payment reach one URL in order: a later event is `queued` until the earlier one is delivered,
 *   failed for good or gone. Different payments, and different URLs, do not wait for each other.
 * - Every delivery stays in the log with its attempts, whatever happens to it: nothing is dropped silently.
 * - Nothing an event carries can throw out of the engine: a payload that cannot be serialised (too deep, circular, a
 *   throwing getter) becomes a `failed` delivery with reason `payload-error` and its `error`, reported to `onProblem`;
 *   a failure inside an attempt is recorded as that attempt's error. A caller's mistake (`redeliver` of an unknown or
 *   unfinished delivery) is a value the caller turns into its answer.
 *
 * The mock server resets the dispatcher together with the clock: `clock.reset()` alone would cancel the
 * dispatcher's tasks behind its back.
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { defaultAssumptions, type WebhookRetryPolicy } from '../../../assumptions.ts';
import { errorLine, kitMessage } from '../../../internal/messages.ts';
import type { PaymentStatusWebhookPayload } from '../../../types/rest.ts';
import { standardWebhookHeaders } from '../../../webhook/standard-webhooks.ts';
import type { Clock, ScheduledTask } from '../clock.ts';
import { createWaiters } from '../waiters.ts';
import { retryAfterMs, retryDelayMs } from './backoff.ts';
import { createHttpTransport, PostError, type PostResult, type WebhookTransport } from './http-post.ts';

/**
 * Where a delivery stands.
 * - `queued`: waiting for an earlier event of the same payment to the same URL to finish (ordering);
 * - `sending`: an attempt is in flight;
 * - `retry-scheduled`: the last attempt failed; the next one is due at `nextAttemptAt` on the mock clock;
 * - `delivered`: a 2xx came back;
 * - `failed`: every attempt of the policy failed, or the dispatcher was closed first; `redeliver(id)` tries again;
 * - `gone`: the receiver answered 410 Gone; that URL gets nothing more until a redelivery to it.
 */
export type DeliveryState = 'queued' | 'sending' | 'retry-scheduled' | 'delivered' | 'failed' | 'gone';

/** One attempt in the delivery log. */
export interface DeliveryAttempt {
  /** 1 for the first attempt; counts on across redeliveries. */
  readonly number: number;
  /** Virtual time (mock clock, ms since the epoch) the attempt started. */
  readonly at: number;
  /** HTTP status answered, when an answer came. */
  readonly status?: number;
  /** Why no answer came: `ECONNREFUSED`, `timeout`, `closed`, ... */
  readonly error?: string;
  /** Real duration of the attempt in milliseconds. */
  readonly ms: number;
  /** First bytes of the receiver's answer body. */
  readonly responseBody?: string;
}

/** Why a delivery ended without a 2xx. */
export type DeliveryFailureReason =
  /** Every attempt of the retry policy failed. */
  | 'retries-exhausted'
  /** The receiver answered 410 Gone to this delivery. */
  | 'receiver-gone'
  /** Not sent: the URL answered 410 Gone to an earlier delivery. */
  | 'url-gone'
  /** The dispatcher was closed before the delivery finished. */
  | 'closed'
  /** The payload could not be serialised (see `error`); nothing was sent and it cannot be redelivered. */
  | 'payload-error'
  /** The engine itself failed (a bug in the mock; see `error`); redelivery tries again. */
  | 'internal-error';

/** One event on its way to one URL, as shown by `deliveries()` and the control API. */
export interface DeliveryRecord {
  /** Delivery id, sent in the delivery id header (and as `webhook-id`); the same on every attempt. */
  readonly id: string;
  readonly clientId: string;
  readonly paymentUuid: string;
  readonly url: string;
  /** Event type name (`Assumptions.webhook.eventType`). */
  readonly eventType: string;
  readonly payload: PaymentStatusWebhookPayload;
  /** The exact JSON body sent on every attempt. */
  readonly body: string;
  readonly state: DeliveryState;
  /** Virtual time the event was enqueued. */
  readonly enqueuedAt: number;
  readonly attempts: readonly DeliveryAttempt[];
  /** Virtual time of the next attempt, while `retry-scheduled`. */
  readonly nextAttemptAt?: number;
  /** Virtual time of the 2xx, once `delivered`. */
  readonly deliveredAt?: number;
  /** How many times `redeliver` restarted this delivery. */
  readonly redeliveries: number;
  /** Why the delivery is `failed` or `gone`. */
  readonly reason?: DeliveryFailureReason;
  /** What went wrong, when the delivery failed outside an attempt (`payload-error`, `internal-error`). */
  readonly error?: string;
}

/** An event handed to the dispatcher at settlement. */
export interface WebhookEvent {
  readonly clientId: string;
  readonly paymentUuid: string;
  readonly payload: PaymentStatusWebhookPayload;
  /**
   * Set when the caller could not build the whole payload (e.g. its metadata threw): the delivery is recorded as
   * `failed` (`payload-error`) with this error instead of being sent.
   */
  readonly problem?: string;
}

/** Outcome of {@link WebhookDispatcher.redeliver}: a caller's mistake is a value, with a message naming the fix. */
export type RedeliverResult =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly problem: 'unknown' | 'in-progress' | 'closed' | 'unsendable';
      readonly message: string;
    };

/** Options of {@link createWebhookDispatcher}. */
export interface WebhookDispatcherOptions {
  /** The mock's virtual clock; every retry is scheduled on it. */
  readonly clock: Clock;
  /** Registered webhook URLs; each event goes to every one of them. */
  readonly urls: readonly string[];
  /** Value sent in the signing key header. */
  readonly signingKey: string;
  /** Header names (`Assumptions.webhook`); `deliveryId` defaults to `x-webhook-delivery-id`. */
  readonly headers: { readonly signingKey: string; readonly clientId: string; readonly deliveryId?: string };
  /** Retry schedule (`Assumptions.webhook.retry`). */
  readonly retry: WebhookRetryPolicy;
  /** Opt-in Standard Webhooks signing: adds `webhook-id`, `webhook-timestamp`, `webhook-signature`. */
  readonly standardWebhooks?: { readonly secret: string } | undefined;
  /** Random source in [0, 1) for jitter; inject a seeded one for repeatable schedules. */
  readonly random: () => number;
  /** Event type for the log and Standard Webhooks; defaults to `Assumptions.webhook.eventType`. */
  readonly eventType?: string;
  /** Makes delivery ids; defaults to `whd_` + a random UUID, unique across resets so receivers never mistake a new event for a duplicate. */
  readonly idFactory?: () => string;
  /**
   * Wall clock for `webhook-timestamp` (ms). Receivers check it against their own clock, so it is real time, not
   * the mock's virtual time. Defaults to `Date.now`.
   */
  readonly wallClock?: () => number;
  /**
   * Receives a line for the log when something fails inside the engine (a payload that cannot be serialised, an
   * attempt that throws): the failure is also recorded on the delivery, never thrown. Defaults to ignoring it.
   */
  readonly onProblem?: (message: string) => void;
  /** How attempts are sent; defaults to HTTP POST (`createHttpTransport`). */
  readonly transport?: WebhookTransport;
}

/** Options of {@link WebhookDispatcher.waitFor}. */
export interface WaitForOptions {
  /** Real milliseconds to wait before rejecting; default 5000. */
  readonly timeoutMs?: number;
}

/** The delivery engine, driven by the mock server and its control handle. */
export interface WebhookDispatcher {
  /** Queues one event for every registered URL. Never throws for receiver trouble; see `deliveries()`. */
  enqueue(event: WebhookEvent): void;
  /** Snapshot of every delivery, oldest first. */
  deliveries(): readonly DeliveryRecord[];
  /** Resolves with the first delivery (now or later) matching `predicate`; rejects after `timeoutMs`. */
  waitFor(predicate: (delivery: DeliveryRecord) => boolean, options?: WaitForOptions): Promise<DeliveryRecord>;
  /** Sends a finished delivery (`failed`, `gone` or `delivered`) again, with the same delivery id. */
  redeliver(id: string): RedeliverResult;
  /** Aborts everything in flight and forgets every delivery. */
  reset(): void;
  /**
   * Aborts in-flight attempts and cancels scheduled retries; what was not delivered is marked `failed` (`closed`).
   * Resolves with those deliveries, so the caller can report them.
   */
  close(): Promise<readonly DeliveryRecord[]>;
}

interface Delivery {
  id: string;
  clientId: string;
  paymentUuid: string;
  url: string;
  target: URL;
  /** Ordering key: payment and URL. */
  key: string;
  eventType: string;
  payload: PaymentStatusWebhookPayload;
  body: string;
  state: DeliveryState;
  enqueuedAt: number;
  attempts: DeliveryAttempt[];
  /** Index in `attempts` where the current round (first send or latest redelivery) began; the budget counts from it. */
  roundStart: number;
  nextAttemptAt: number | undefined;
  deliveredAt: number | undefined;
  redeliveries: number;
  reason: DeliveryFailureReason | undefined;
  error: string | undefined;
  inFlight: AbortController | undefined;
  /** Retry or attempt-timeout task on the clock, cancelled when the delivery moves on. */
  task: ScheduledTask | undefined;
}

const DEFAULT_WAIT_MS = 5_000;
const TERMINAL: ReadonlySet<DeliveryState> = new Set(['delivered', 'failed', 'gone']);

function snapshot(d: Delivery): DeliveryRecord {
  const record: {
    -readonly [K in keyof DeliveryRecord]: DeliveryRecord[K];
  } = {
    id: d.id,
    clientId: d.clientId,
    paymentUuid: d.paymentUuid,
    url: d.url,
    eventType: d.eventType,
    payload: d.payload,
    body: d.body,
    state: d.state,
    enqueuedAt: d.enqueuedAt,
    attempts: [...d.attempts],
    redeliveries: d.redeliveries,
  };
  if (d.nextAttemptAt !== undefined) record.nextAttemptAt = d.nextAttemptAt;
  if (d.deliveredAt !== undefined) record.deliveredAt = d.deliveredAt;
  if (d.reason !== undefined) record.reason = d.reason;
  if (d.error !== undefined) record.error = d.error;
  return record;
}

/**
 * The headers that say whose event a webhook is, the same on every attempt and every delivery of it: the signing key
 * and the client id. Pact message verification reports them as the message's metadata.
 *
 * @example
 * eventHeaders({ signingKey: 'x-webhook-signing-key', clientId: 'x-client-id' }, 'test-signing-key', 'test-client');
 */
export function eventHeaders(
  names: { readonly signingKey: string; readonly clientId: string },
  signingKey: string,
  clientId: string,
): Record<string, string> {
  return { [names.signingKey]: signingKey, [names.clientId]: clientId };
}

/**
 * Creates the delivery engine. It opens no socket and arms no timer until an event is enqueued.
 *
 * @example
 * const dispatcher = createWebhookDispatcher({
 *   clock, urls: ['http://127.0.0.1:3000/webhooks'], signingKey: 'test-signing-key',
 *   headers: { signingKey: a.webhook.signingKeyHeader, clientId: a.webhook.clientIdHeader },
 *   retry: a.webhook.retry, random: () => random.next(),
 * });
 * dispatcher.enqueue({ clientId, paymentUuid: payment.uuid, payload: paymentStatusPayload(payment) });
 * await dispatcher.waitFor((d) => d.paymentUuid === payment.uuid && d.state === 'delivered');
 */
export function createWebhookDispatcher(opts: WebhookDispatcherOptions): WebhookDispatcher {
  const clock = opts.clock;
  const policy = opts.retry;
  if (!Number.isInteger(policy.maxAttempts) || policy.maxAttempts < 1)
    throw new RangeError(
      kitMessage(
        `webhook retry.maxAttempts must be a whole number of at least 1 (the first attempt counts), got ${policy.maxAttempts}.`,
      ),
    );
  const eventType = opts.eventType ?? defaultAssumptions.webhook.eventType;
  const deliveryIdHeader = opts.headers.deliveryId ?? defaultAssumptions.webhook.deliveryIdHeader;
  const newId = opts.idFactory ?? (() => `whd_${randomUUID().replaceAll('-', '')}`);
  const wallClock = opts.wallClock ?? Date.now;
  const report = opts.onProblem ?? (() => {});
  const targets = opts.urls.map((url) => {
    try {
      return new URL(url);
    } catch {
      throw new TypeError(
        kitMessage(`webhook URL "${url}" is not an absolute URL; give e.g. http://127.0.0.1:3000/webhooks.`),
      );
    }
  });

  const transport = opts.transport ?? createHttpTransport();
  let records: Delivery[] = [];
  const byId = new Map<string, Delivery>();
  /** Per payment and URL, the deliveries not yet finished, oldest first; only the head is ever sent. */
  const lanes = new Map<string, Delivery[]>();
  /** URLs that answered 410 Gone. */
  const goneUrls = new Set<string>();
  const waiters = createWaiters<DeliveryRecord>();
  let closed = false;

  function changed(d: Delivery): void {
    if (waiters.pending()) waiters.offer(snapshot(d));
  }

  function headersFor(d: Delivery): Record<string, string> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
      'user-agent': 'payment-contract-kit-mock',
      ...eventHeaders(opts.headers, opts.signingKey, d.clientId),
      [deliveryIdHeader]: d.id,
    };
    if (opts.standardWebhooks)
      Object.assign(
        headers,
        standardWebhookHeaders({
          secret: opts.standardWebhooks.secret,
          id: d.id,
          // Each attempt is signed afresh with its own time, as the Standard Webhooks specification asks.
          timestamp: Math.floor(wallClock() / 1000),
          body: d.body,
        }),
      );
    return headers;
  }

  /** Puts a delivery in its lane; sends it when nothing of the same payment is ahead of it for that URL. */
  function admit(d: Delivery): void {
    if (goneUrls.has(d.url)) {
      finish(d, 'gone', 'url-gone');
      return;
    }
    d.state = 'queued';
    let lane = lanes.get(d.key);
    if (!lane) {
      lane = [];
      lanes.set(d.key, lane);
    }
    lane.push(d);
    if (lane.length === 1) startHead(lane);
    else changed(d);
  }

  /** Ends a delivery and lets the next event of the same payment go to that URL. */
  function finish(d: Delivery, state: 'delivered' | 'failed' | 'gone', reason?: DeliveryFailureReason): void {
    d.task?.cancel();
    d.task = undefined;
    d.nextAttemptAt = undefined;
    d.state = state;
    d.reason = reason;
    if (state === 'delivered') d.deliveredAt = clock.now();
    changed(d);
    const lane = lanes.get(d.key);
    if (!lane) return;
    const at = lane.indexOf(d);
    if (at < 0) return;
    lane.splice(at, 1);
    if (lane.length === 0) lanes.delete(d.key);
    else if (at === 0) startHead(lane);
  }

  /** Sends the first delivery of a lane, unless its URL is retired (then it ends as gone and the next one goes). */
  function startHead(lane: readonly Delivery[]): void {
    const head = lane[0];
    if (head?.state !== 'queued' || closed) return;
    if (goneUrls.has(head.url)) finish(head, 'gone', 'url-gone');
    else attempt(head);
  }

  /** After a 410: nothing more goes to that URL; what waits for it is recorded as gone, not dropped. */
  function retireUrl(url: string): void {
    goneUrls.add(url);
    for (const d of records)
      if (d.url === url && (d.state === 'queued' || d.state === 'retry-scheduled')) finish(d, 'gone', 'url-gone');
  }

  function attempt(d: Delivery): void {
    const controller = new AbortController();
    d.inFlight = controller;
    d.state = 'sending';
    d.nextAttemptAt = undefined;
    // The attempt timeout runs on the virtual clock too, so a test can time out a hanging receiver by advancing it.
    d.task = clock.schedule(policy.attemptTimeoutMs, () => controller.abort('timeout'));
    const at = clock.now();
    const started = performance.now();
    const number = d.attempts.length + 1;
    changed(d);
    let headers: Record<string, string>;
    try {
      headers = headersFor(d);
    } catch (error) {
      // Cannot happen with valid options; if it does, it is this attempt's error, retried like any other.
      report(
        kitMessage(
          `webhook delivery ${d.id}: building the headers failed (a bug in the mock; please report it): ${errorLine(error)}`,
        ),
      );
      settle(d, { number, at, error: `headers: ${errorLine(error)}`, ms: elapsed(started) }, undefined);
      return;
    }
    transport
      .send(d.target, headers, d.body, controller.signal)
      .then(
        (result) => {
          if (d.inFlight !== controller) return; // reset or closed meanwhile
          settle(
            d,
            { number, at, status: result.status, ms: elapsed(started), responseBody: result.bodySnippet },
            result,
          );
        },
        (error: unknown) => {
          if (d.inFlight !== controller) return;
          const code = error instanceof PostError ? error.code : String(error);
          settle(d, { number, at, error: code, ms: elapsed(started) }, undefined);
        },
      )
      .catch((error: unknown) => {
        // Only a bug in the engine lands here; keep the delivery visible as failed instead of an unhandled rejection.
        report(
          kitMessage(
            `webhook delivery ${d.id}: internal error after an attempt (a bug in the mock; please report it): ${errorLine(error)}`,
          ),
        );
        if (!TERMINAL.has(d.state)) {
          d.inFlight = undefined;
          d.error = errorLine(error);
          finish(d, 'failed', 'internal-error');
        }
      });
  }

  function settle(d: Delivery, logged: DeliveryAttempt, result: PostResult | undefined): void {
    d.inFlight = undefined;
    d.task?.cancel();
    d.task = undefined;
    d.attempts.push(logged);
    const status = result?.status;
    if (status !== undefined && status >= 200 && status < 300) {
      finish(d, 'delivered');
      return;
    }
    if (status === 410) {
      // Retire the URL first, so the next event in line is not sent to it when this one finishes.
      goneUrls.add(d.url);
      finish(d, 'gone', 'receiver-gone');
      retireUrl(d.url);
      return;
    }
    if (d.attempts.length - d.roundStart >= policy.maxAttempts) {
      finish(d, 'failed', 'retries-exhausted');
      return;
    }
    const asked =
      status === 429 || status === 503 ? retryAfterMs(result?.retryAfter, result?.date, Date.now) : undefined;
    const delay =
      asked === undefined
        ? retryDelayMs(policy, d.attempts.length - d.roundStart, opts.random)
        : Math.min(asked, policy.maxDelayMs);
    d.state = 'retry-scheduled';
    d.task = clock.schedule(delay, () => {
      d.task = undefined;
      attempt(d);
    });
    d.nextAttemptAt = d.task.dueAt;
    changed(d);
  }

  return {
    enqueue(event) {
      if (targets.length === 0) return;
      // Serialised once: every attempt sends (and signs) the same bytes. A payload that cannot be serialised is a
      // failed delivery, not an exception in the caller (settlement runs inside clock tasks).
      let body = '';
      let problem = event.problem;
      if (problem === undefined)
        try {
          body = JSON.stringify(event.payload);
        } catch (error) {
          problem = `the payload could not be serialised to JSON (${errorLine(error)})`;
        }
      if (problem !== undefined)
        report(
          kitMessage(
            `webhook of payment ${event.paymentUuid} not sent: ${problem}. Recorded as a failed delivery (payload-error); the payment keeps its final status. A bug in the mock if its input was accepted; please report it.`,
          ),
        );
      targets.forEach((target, i) => {
        const url = opts.urls[i]!;
        const d: Delivery = {
          id: newId(),
          clientId: event.clientId,
          paymentUuid: event.paymentUuid,
          url,
          target,
          key: `${event.paymentUuid}\u0000${url}`,
          eventType,
          // A payload that failed to serialise is kept without its metadata, so listing deliveries still works.
          payload: problem === undefined ? event.payload : withoutMetadata(event.payload),
          body,
          state: 'queued',
          enqueuedAt: clock.now(),
          attempts: [],
          roundStart: 0,
          nextAttemptAt: undefined,
          deliveredAt: undefined,
          redeliveries: 0,
          reason: undefined,
          error: problem,
          inFlight: undefined,
          task: undefined,
        };
        records.push(d);
        byId.set(d.id, d);
        // Kept and visible rather than dropped: the log says why it was never sent.
        if (problem !== undefined) finish(d, 'failed', 'payload-error');
        else if (closed) finish(d, 'failed', 'closed');
        else admit(d);
      });
    },
    deliveries() {
      return records.map(snapshot);
    },
    waitFor(predicate, options = {}) {
      try {
        for (const d of records) {
          const view = snapshot(d);
          if (predicate(view)) return Promise.resolve(view);
        }
      } catch (error) {
        return Promise.reject(error);
      }
      const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_MS;
      return waiters.wait(predicate, timeoutMs, () => {
        const states = records.map((d) => `${d.id} ${d.paymentUuid} → ${d.url}: ${d.state}`).join('; ');
        return kitMessage(
          `no webhook delivery matched within ${timeoutMs} ms. Deliveries: ${states || 'none'}. If retries are scheduled, advance the mock clock (control.advanceClock).`,
        );
      });
    },
    redeliver(id) {
      const d = byId.get(id);
      if (!d)
        return {
          ok: false,
          problem: 'unknown',
          message: kitMessage(`No webhook delivery with id "${id}": list them with deliveries().`),
        };
      if (!TERMINAL.has(d.state))
        return {
          ok: false,
          problem: 'in-progress',
          message: kitMessage(
            `Webhook delivery "${id}" is ${d.state}: only a failed, gone or delivered delivery can be redelivered. Wait for it to finish (waitForDelivery, POST /__pck/deliveries/wait with { "state": "failed" }), advancing the mock clock to run its retries.`,
          ),
        };
      if (d.reason === 'payload-error')
        return {
          ok: false,
          problem: 'unsendable',
          message: kitMessage(
            `Webhook delivery "${id}" has no body to send: its payload could not be serialised (${d.error}). Fix the payment's metadata and create a new payment.`,
          ),
        };
      if (closed)
        return {
          ok: false,
          problem: 'closed',
          message: kitMessage('The mock is closed, so it sends no more webhooks: start a new mock server.'),
        };
      d.redeliveries += 1;
      d.roundStart = d.attempts.length;
      d.deliveredAt = undefined;
      d.reason = undefined;
      d.error = undefined;
      goneUrls.delete(d.url);
      // Behind anything of the same payment already waiting for this URL.
      admit(d);
      return { ok: true };
    },
    reset() {
      for (const d of records) {
        d.task?.cancel();
        const inFlight = d.inFlight;
        d.inFlight = undefined;
        inFlight?.abort('reset');
      }
      records = [];
      byId.clear();
      lanes.clear();
      goneUrls.clear();
      transport.release();
    },
    async close() {
      if (closed) return [];
      closed = true;
      const ended: DeliveryRecord[] = [];
      for (const d of records) {
        if (TERMINAL.has(d.state)) continue;
        const inFlight = d.inFlight;
        d.inFlight = undefined;
        if (inFlight) {
          inFlight.abort('closed');
          d.attempts.push({ number: d.attempts.length + 1, at: clock.now(), error: 'closed', ms: 0 });
        }
        finish(d, 'failed', 'closed');
        ended.push(snapshot(d));
      }
      transport.release();
      // As the journal does: a wait still pending when the mock closes fails now instead of at its timeout.
      waiters.close(kitMessage('The mock was closed while waiting for a webhook delivery.'));
      return ended;
    },
  };
}

function withoutMetadata(payload: PaymentStatusWebhookPayload): PaymentStatusWebhookPayload {
  const { amount, payment_gateway_fee, paid_at, status, uuid } = payload;
  return { amount, payment_gateway_fee, paid_at, status, uuid };
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}
