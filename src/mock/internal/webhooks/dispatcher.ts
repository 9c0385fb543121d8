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
import { defaultAssumptions, type WebhookRetryPolicy } from '../../../assumptions.ts';
import { errorLine, kitMessage } from '../../../internal/messages.ts';
import type { Clock } from '../clock.ts';
import { createWaiters } from '../waiters.ts';
import { createAttemptRunner } from './delivery-attempts.ts';
import { createDeliveryHeaders, type StandardWebhooksSigning } from './delivery-headers.ts';
import { createDeliveryLanes } from './delivery-lanes.ts';
import {
  type Delivery,
  type DeliveryRecord,
  newDelivery,
  restartRound,
  snapshot,
  TERMINAL,
  type WebhookEvent,
} from './delivery-record.ts';
import type { WebhookTransport } from './transport.ts';

/** The delivery record types, defined in delivery-record.ts. */
export type {
  DeliveryAttempt,
  DeliveryFailureReason,
  DeliveryRecord,
  DeliveryState,
  WebhookEvent,
} from './delivery-record.ts';

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
  readonly standardWebhooks?: StandardWebhooksSigning | undefined;
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
  /** How attempts are sent: the platform's network transport (HTTP POST under Node, `fetch` elsewhere) or in-process. */
  readonly transport: WebhookTransport;
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

const DEFAULT_WAIT_MS = 5_000;

/** Why `d` cannot be redelivered now, or undefined when it can. */
function redeliverProblem(d: Delivery | undefined, id: string, closed: boolean): RedeliverResult | undefined {
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
  return undefined;
}

/** The retry policy checked and the URLs parsed, or a `TypeError`/`RangeError` naming the bad option. */
function checkedTargets(opts: WebhookDispatcherOptions): URL[] {
  const policy = opts.retry;
  if (!Number.isInteger(policy.maxAttempts) || policy.maxAttempts < 1)
    throw new RangeError(
      kitMessage(
        `webhook retry.maxAttempts must be a whole number of at least 1 (the first attempt counts), got ${policy.maxAttempts}.`,
      ),
    );
  return opts.urls.map((url) => {
    try {
      return new URL(url);
    } catch {
      throw new TypeError(
        kitMessage(`webhook URL "${url}" is not an absolute URL; give e.g. http://127.0.0.1:3000/webhooks.`),
      );
    }
  });
}

/**
 * Serialises an event's payload once (every attempt sends and signs the same bytes), or says why it cannot be and
 * reports that for the log.
 */
function serialise(event: WebhookEvent, report: (line: string) => void): { body: string; problem: string | undefined } {
  let problem = event.problem;
  if (problem === undefined)
    try {
      return { body: JSON.stringify(event.payload), problem: undefined };
    } catch (error) {
      problem = `the payload could not be serialised to JSON (${errorLine(error)})`;
    }
  report(
    kitMessage(
      `webhook of payment ${event.paymentUuid} not sent: ${problem}. Recorded as a failed delivery (payload-error); the payment keeps its final status. A bug in the mock if its input was accepted; please report it.`,
    ),
  );
  return { body: '', problem };
}

/** What a wait that timed out says: every delivery and its state, and the likely fix. */
function noMatchMessage(records: readonly Delivery[], timeoutMs: number): string {
  const states = records.map((d) => `${d.id} ${d.paymentUuid} → ${d.url}: ${d.state}`).join('; ');
  return kitMessage(
    `no webhook delivery matched within ${timeoutMs} ms. Deliveries: ${states || 'none'}. If retries are scheduled, advance the mock clock (control.advanceClock).`,
  );
}

/** Aborts the attempt in flight of `d`, if any; true when there was one. */
function abortInFlight(d: Delivery, reason: 'reset' | 'closed'): boolean {
  const inFlight = d.inFlight;
  d.inFlight = undefined;
  inFlight?.abort(reason);
  return inFlight !== undefined;
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
  const eventType = opts.eventType ?? defaultAssumptions.webhook.eventType;
  const deliveryIdHeader = opts.headers.deliveryId ?? defaultAssumptions.webhook.deliveryIdHeader;
  const newId = opts.idFactory ?? (() => `whd_${globalThis.crypto.randomUUID().replaceAll('-', '')}`);
  const report = opts.onProblem ?? (() => {});
  const targets = checkedTargets(opts);

  const transport = opts.transport;
  let records: Delivery[] = [];
  const byId = new Map<string, Delivery>();
  const waiters = createWaiters<DeliveryRecord>();
  let closed = false;
  const changed = (d: Delivery): void => {
    if (waiters.pending()) waiters.offer(snapshot(d));
  };
  const lanes = createDeliveryLanes({
    clock,
    records: () => records,
    send: (d) => attempt(d),
    changed,
    isClosed: () => closed,
  });
  const attempt = createAttemptRunner({
    clock,
    policy,
    transport,
    random: opts.random,
    headersFor: createDeliveryHeaders({
      signingKey: opts.signingKey,
      names: { signingKey: opts.headers.signingKey, clientId: opts.headers.clientId, deliveryId: deliveryIdHeader },
      standardWebhooks: opts.standardWebhooks,
      wallClock: opts.wallClock ?? Date.now,
    }),
    report,
    lanes,
    changed,
  });

  return {
    enqueue(event) {
      if (targets.length === 0) return;
      // A payload that cannot be serialised is a failed delivery, not an exception in the caller (settlement runs
      // inside clock tasks).
      const { body, problem } = serialise(event, report);
      targets.forEach((target, i) => {
        const url = opts.urls[i]!;
        const d = newDelivery({ id: newId(), event, url, target, eventType, body, problem, now: clock.now() });
        records.push(d);
        byId.set(d.id, d);
        // Kept and visible rather than dropped: the log says why it was never sent.
        if (problem !== undefined) lanes.finish(d, 'failed', 'payload-error');
        else if (closed) lanes.finish(d, 'failed', 'closed');
        else lanes.admit(d);
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
      return waiters.wait(predicate, timeoutMs, () => noMatchMessage(records, timeoutMs));
    },
    redeliver(id) {
      const d = byId.get(id);
      const problem = redeliverProblem(d, id, closed);
      if (problem !== undefined || d === undefined) return problem!;
      restartRound(d);
      lanes.revive(d.url);
      // Behind anything of the same payment already waiting for this URL.
      lanes.admit(d);
      return { ok: true };
    },
    reset() {
      for (const d of records) {
        d.task?.cancel();
        abortInFlight(d, 'reset');
      }
      records = [];
      byId.clear();
      lanes.clear();
      transport.release();
    },
    async close() {
      if (closed) return [];
      closed = true;
      const ended: DeliveryRecord[] = [];
      for (const d of records) {
        if (TERMINAL.has(d.state)) continue;
        if (abortInFlight(d, 'closed'))
          d.attempts.push({ number: d.attempts.length + 1, at: clock.now(), error: 'closed', ms: 0 });
        lanes.finish(d, 'failed', 'closed');
        ended.push(snapshot(d));
      }
      transport.release();
      // As the journal does: a wait still pending when the mock closes fails now instead of at its timeout.
      waiters.close(kitMessage('The mock was closed while waiting for a webhook delivery.'));
      return ended;
    },
  };
}
