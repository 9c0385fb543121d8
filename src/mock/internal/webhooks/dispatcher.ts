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
 * - The log is bounded (`history` option): finished deliveries past `maxDeliveries` are evicted oldest-finished
 *   first and counted; at most `maxAttemptsPerDelivery` attempts are kept per delivery. Pending work is never
 *   evicted: once `maxPendingDeliveries` are pending, a new delivery is refused, recorded as `failed` (reason
 *   `pending-cap`, redeliverable), counted and logged. Nothing is dropped silently.
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

import { defaultAssumptions } from '../../../assumptions.ts';
import { DEFAULT_WEBHOOK_HEADER_NAMES, type WebhookHeaderNames } from '../../../contract/webhook-headers.ts';
import { kitMessage } from '../../../internal/messages.ts';
import type { EventBus } from '../domain/events.ts';
import { createWaiters } from '../domain/waiters.ts';
import { createAttemptRunner, createDeliveryLanes, type DeliveryLanes } from './delivery-attempts.ts';
import {
  createDeliveryHeaders,
  type Delivery,
  type DeliveryRecord,
  newDelivery,
  recordAttempt,
  restartRound,
  snapshot,
  TERMINAL,
} from './delivery-record.ts';
import { createDeliveryStore, createRestored, type DeliveryStore, deliveryFields } from './delivery-store.ts';
import {
  checkedTargets,
  createPendingGuard,
  DEFAULT_WAIT_MS,
  noDeliveryMatched,
  redeliverProblem,
  serialise,
  type WebhookDispatcher,
  type WebhookDispatcherOptions,
} from './dispatcher-rules.ts';

/** What a wait that timed out says: the latest deliveries and their states, and the likely fix. */
function noMatchMessage(store: DeliveryStore, timeoutMs: number): string {
  function* newest() {
    for (const [, d] of store.sources({})[0]?.newest() ?? []) yield d;
  }
  return noDeliveryMatched(newest(), store.counts().kept, timeoutMs);
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
  const { clock, retry: policy } = opts;
  const caps = opts.history ?? defaultAssumptions.history;
  const eventType = opts.eventType ?? defaultAssumptions.webhook.eventType;
  const headerNames: WebhookHeaderNames = { ...DEFAULT_WEBHOOK_HEADER_NAMES, ...opts.headers };
  const newId = opts.idFactory ?? (() => `whd_${globalThis.crypto.randomUUID().replaceAll('-', '')}`);
  const report = opts.onProblem ?? (() => {});
  const targets = checkedTargets(opts);
  let ownSeq = 0;
  const store = createDeliveryStore({ maxFinished: caps.maxDeliveries, nextSeq: opts.nextSeq ?? (() => ++ownSeq) });
  const transport = opts.transport;
  const waiters = createWaiters<DeliveryRecord>();
  let closed = false;
  const { offer, changed } = changeListeners(waiters, opts.onChange);
  const guard = createPendingGuard(store, caps.maxPendingDeliveries, report);
  const setState = telling(guard.setState, finishedTeller(opts.onFinished, opts.events));
  const lanes = createDeliveryLanes({
    clock,
    ofUrl: (url) => store.ofUrl(url),
    setState,
    send: (d) => attempt(d),
    changed,
    isClosed: () => closed,
  });
  const restored = createRestored(store, lanes.admit, offer);
  const attempt = createAttemptRunner({
    clock,
    policy,
    transport,
    random: opts.random,
    headersFor: createDeliveryHeaders({
      signingKey: opts.signingKey,
      names: headerNames,
      standardWebhooks: opts.standardWebhooks,
      wallClock: opts.wallClock ?? Date.now,
    }),
    report,
    lanes,
    changed,
    ...{ onAttempt: opts.onAttempt, events: opts.events },
    setState,
    maxAttemptsKept: caps.maxAttemptsPerDelivery,
  });

  return {
    store,
    enqueue(event, skipUrls) {
      if (targets.length === 0) return;
      // A payload that cannot be serialised is a failed delivery, not an exception in the caller (settlement runs
      // inside clock tasks).
      const { body, problem } = serialise(event, report);
      targets.forEach((target, i) => {
        const url = opts.urls[i]!;
        if (skipUrls?.has(url)) return;
        // A store's ids are the payment's: one already here is this delivery, restored from the log (resume() sends
        // it on if it is unfinished).
        const id = newId(event, url);
        if (store.get(id) !== undefined) return;
        const d = newDelivery({ id, event, url, target, eventType, body, problem, now: clock.now() });
        admitNew(d, { store, lanes, guard, closed });
      });
    },
    deliveries() {
      return Array.from(store.all(), snapshot);
    },
    waitFor(predicate, options = {}) {
      try {
        for (const d of store.all()) {
          const view = snapshot(d);
          if (predicate(view)) return Promise.resolve(view);
        }
      } catch (error) {
        return Promise.reject(error);
      }
      const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_MS;
      return waiters.wait(predicate, timeoutMs, () => noMatchMessage(store, timeoutMs));
    },
    restore: restored.restore,
    endRestored: restored.ended,
    resume: restored.resume,
    fields: () => Array.from(store.all(), deliveryFields),
    redeliver(id) {
      const d = store.get(id);
      const problem = redeliverProblem(d, id, closed) ?? guard.redeliverProblem(id);
      if (problem !== undefined || d === undefined) return problem!;
      restartRound(d);
      lanes.revive(d.url);
      // Behind anything of the same payment already waiting for this URL.
      lanes.admit(d);
      return { ok: true };
    },
    reset() {
      for (const d of store.all()) {
        d.task?.cancel();
        abortInFlight(d, 'reset');
      }
      store.clear();
      restored.clear();
      guard.reset();
      lanes.clear();
      transport.release();
    },
    async close() {
      if (closed) return [];
      closed = true;
      const ended = endPending(store, lanes, clock.now(), caps.maxAttemptsPerDelivery);
      transport.release();
      // As the journal does: a wait still pending when the mock closes fails now instead of at its timeout.
      waiters.close(kitMessage('The mock was closed while waiting for a webhook delivery.'));
      return ended;
    },
  };
}

/** `offer` tells the waiters about a change; `changed` also tells `onChange` (a file store's recorder), if any. */
function changeListeners(
  waiters: ReturnType<typeof createWaiters<DeliveryRecord>>,
  onChange: ((d: Delivery) => void) | undefined,
) {
  const offer = (d: Delivery): void => {
    if (waiters.pending()) waiters.offer(snapshot(d));
  };
  const changed = onChange
    ? (d: Delivery): void => {
        offer(d);
        onChange(d);
      }
    : offer;
  return { offer, changed };
}

/** Adds a new delivery to the history and sends it, or records why it is not sent (kept and visible, not dropped). */
function admitNew(
  d: Delivery,
  at: {
    readonly store: DeliveryStore;
    readonly lanes: DeliveryLanes;
    readonly guard: ReturnType<typeof createPendingGuard>;
    readonly closed: boolean;
  },
): void {
  const { store, lanes, guard } = at;
  const problem = d.error;
  // Asked before the new delivery counts as pending itself.
  const refused = problem === undefined && !at.closed && guard.full();
  store.add(d);
  if (problem !== undefined) lanes.finish(d, 'failed', 'payload-error');
  else if (at.closed) lanes.finish(d, 'failed', 'closed');
  else if (refused) {
    guard.refuse(d);
    lanes.finish(d, 'failed', 'pending-cap');
  } else lanes.admit(d);
}

/** Ends every unfinished delivery as failed (`closed`), the attempt in flight logged as such; returns them. */
function endPending(
  store: DeliveryStore,
  lanes: DeliveryLanes,
  now: number,
  maxAttemptsKept: number,
): DeliveryRecord[] {
  const ended: DeliveryRecord[] = [];
  // A copy: finishing may evict older finished deliveries from the store being walked.
  for (const d of [...store.all()]) {
    if (TERMINAL.has(d.state)) continue;
    if (abortInFlight(d, 'closed'))
      recordAttempt(d, { number: d.attemptCount + 1, at: now, error: 'closed', ms: 0 }, maxAttemptsKept);
    lanes.finish(d, 'failed', 'closed');
    ended.push(snapshot(d));
  }
  return ended;
}

/** What to tell when a delivery ends: `onFinished` and a `delivery.finished` event (undefined: nobody to tell). */
function finishedTeller(
  onFinished: ((d: Delivery) => void) | undefined,
  events: EventBus | undefined,
): ((d: Delivery) => void) | undefined {
  if (!events) return onFinished;
  return (d) => {
    onFinished?.(d);
    const state = d.state as 'delivered' | 'failed' | 'gone';
    // One literal: spreading into it costs as much as the rest of a delivery's end.
    events.emit({
      kind: 'delivery.finished',
      deliveryId: d.id,
      uuid: d.paymentUuid,
      url: d.url,
      state,
      reason: d.reason,
      delivered: state === 'delivered',
      attempts: d.attemptCount,
    });
  };
}

/** `setState` that also tells `onFinished` when a delivery ends, unless closing the mock ended it. */
function telling(
  setState: (d: Delivery, state: Delivery['state']) => void,
  onFinished: ((d: Delivery) => void) | undefined,
): (d: Delivery, state: Delivery['state']) => void {
  if (!onFinished) return setState;
  return (d, state) => {
    setState(d, state);
    if (TERMINAL.has(state) && d.reason !== 'closed') onFinished(d);
  };
}
