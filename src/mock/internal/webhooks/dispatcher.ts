/**
 * The mock's webhook delivery engine: at-least-once delivery of payment status webhooks to every registered URL.
 *
 * Every event becomes one delivery per URL, with a delivery id that never changes (retries and redeliveries reuse
 * it) so receivers can recognise duplicates. Every delivery stays in the log with its attempts, whatever happens to
 * it: nothing is dropped silently.
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { defaultAssumptions, type WebhookRetryPolicy } from '../../../assumptions.ts';
import type { PaymentStatusWebhookPayload } from '../../../types/rest.ts';
import { standardWebhookHeaders } from '../../../webhook/standard-webhooks.ts';
import type { Clock } from '../clock.ts';
import { createPostAgents, PostError, post } from './http-post.ts';

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
}

/** An event handed to the dispatcher at settlement. */
export interface WebhookEvent {
  readonly clientId: string;
  readonly paymentUuid: string;
  readonly payload: PaymentStatusWebhookPayload;
}

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
  redeliver(id: string): void;
  /** Aborts everything in flight and forgets every delivery. */
  reset(): void;
  /** Aborts in-flight attempts and cancels scheduled retries; what was not delivered is marked `failed`. */
  close(): Promise<void>;
}

interface Delivery {
  id: string;
  clientId: string;
  paymentUuid: string;
  url: string;
  target: URL;
  eventType: string;
  payload: PaymentStatusWebhookPayload;
  body: string;
  state: DeliveryState;
  enqueuedAt: number;
  attempts: DeliveryAttempt[];
  nextAttemptAt: number | undefined;
  deliveredAt: number | undefined;
  redeliveries: number;
  inFlight: AbortController | undefined;
}

const DEFAULT_WAIT_MS = 5_000;

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
  return record;
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
  const eventType = opts.eventType ?? defaultAssumptions.webhook.eventType;
  const deliveryIdHeader = opts.headers.deliveryId ?? defaultAssumptions.webhook.deliveryIdHeader;
  const newId = opts.idFactory ?? (() => `whd_${randomUUID().replaceAll('-', '')}`);
  const wallClock = opts.wallClock ?? Date.now;
  const targets = opts.urls.map((url) => {
    try {
      return new URL(url);
    } catch {
      throw new TypeError(
        `[payment-contract-kit] webhook URL "${url}" is not an absolute URL; give e.g. http://127.0.0.1:3000/webhooks.`,
      );
    }
  });

  let agents = createPostAgents();
  let records: Delivery[] = [];
  const byId = new Map<string, Delivery>();
  let waiters: { predicate: (d: DeliveryRecord) => boolean; resolve: (d: DeliveryRecord) => void }[] = [];
  let closed = false;

  function changed(d: Delivery): void {
    if (waiters.length === 0) return;
    const view = snapshot(d);
    waiters = waiters.filter((w) => {
      if (!w.predicate(view)) return true;
      w.resolve(view);
      return false;
    });
  }

  function headersFor(d: Delivery): Record<string, string> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
      'user-agent': 'payment-contract-kit-mock',
      [opts.headers.signingKey]: opts.signingKey,
      [opts.headers.clientId]: d.clientId,
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

  function attempt(d: Delivery): void {
    const controller = new AbortController();
    d.inFlight = controller;
    d.state = 'sending';
    d.nextAttemptAt = undefined;
    const at = clock.now();
    const started = performance.now();
    const number = d.attempts.length + 1;
    changed(d);
    post(d.target, headersFor(d), d.body, agents, controller.signal).then(
      (result) => {
        if (d.inFlight !== controller) return; // reset or closed meanwhile
        d.inFlight = undefined;
        const ms = Math.round(performance.now() - started);
        d.attempts.push({ number, at, status: result.status, ms, responseBody: result.bodySnippet });
        if (result.status >= 200 && result.status < 300) {
          d.state = 'delivered';
          d.deliveredAt = clock.now();
        } else {
          d.state = 'failed';
        }
        changed(d);
      },
      (error: unknown) => {
        if (d.inFlight !== controller) return;
        d.inFlight = undefined;
        const ms = Math.round(performance.now() - started);
        d.attempts.push({ number, at, error: error instanceof PostError ? error.code : String(error), ms });
        d.state = 'failed';
        changed(d);
      },
    );
  }

  return {
    enqueue(event) {
      targets.forEach((target, i) => {
        const d: Delivery = {
          id: newId(),
          clientId: event.clientId,
          paymentUuid: event.paymentUuid,
          url: opts.urls[i]!,
          target,
          eventType,
          payload: event.payload,
          // Serialised once: every attempt sends (and signs) the same bytes.
          body: JSON.stringify(event.payload),
          state: 'queued',
          enqueuedAt: clock.now(),
          attempts: [],
          nextAttemptAt: undefined,
          deliveredAt: undefined,
          redeliveries: 0,
          inFlight: undefined,
        };
        records.push(d);
        byId.set(d.id, d);
        if (closed) {
          // Kept and visible rather than dropped: a redeliver after restart is impossible, but the log says why.
          d.attempts.push({ number: 1, at: clock.now(), error: 'closed', ms: 0 });
          d.state = 'failed';
          changed(d);
          return;
        }
        attempt(d);
      });
    },
    deliveries() {
      return records.map(snapshot);
    },
    waitFor(predicate, options = {}) {
      for (const d of records) {
        const view = snapshot(d);
        if (predicate(view)) return Promise.resolve(view);
      }
      const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_MS;
      return new Promise((resolve, reject) => {
        const waiter = {
          predicate,
          resolve: (d: DeliveryRecord) => {
            clearTimeout(timer);
            resolve(d);
          },
        };
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== waiter);
          const states = records.map((d) => `${d.id} ${d.paymentUuid} → ${d.url}: ${d.state}`).join('; ');
          reject(
            new Error(
              `[payment-contract-kit] no webhook delivery matched within ${timeoutMs} ms. Deliveries: ${states || 'none'}. If retries are scheduled, advance the mock clock (control.advanceClock).`,
            ),
          );
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    redeliver(id) {
      const d = byId.get(id);
      if (!d)
        throw new Error(`[payment-contract-kit] no webhook delivery with id "${id}"; list them with deliveries().`);
      if (d.state !== 'failed' && d.state !== 'gone' && d.state !== 'delivered')
        throw new Error(
          `[payment-contract-kit] webhook delivery "${id}" is ${d.state}; only a failed, gone or delivered delivery can be redelivered.`,
        );
      if (closed) throw new Error('[payment-contract-kit] the webhook dispatcher is closed; start a new mock server.');
      d.redeliveries += 1;
      d.deliveredAt = undefined;
      attempt(d);
    },
    reset() {
      for (const d of records) {
        const inFlight = d.inFlight;
        d.inFlight = undefined;
        inFlight?.abort('reset');
      }
      records = [];
      byId.clear();
      agents.destroy();
      agents = createPostAgents();
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const d of records) {
        if (d.state === 'delivered' || d.state === 'failed' || d.state === 'gone') continue;
        const inFlight = d.inFlight;
        d.inFlight = undefined;
        inFlight?.abort('closed');
        d.attempts.push({ number: d.attempts.length + 1, at: clock.now(), error: 'closed', ms: 0 });
        d.state = 'failed';
        changed(d);
      }
      agents.destroy();
    },
  };
}
