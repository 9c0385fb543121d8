/**
 * A webhook delivery as the dispatcher keeps it (one event on its way to one URL) and as it shows it: the states,
 * the attempt log, the failure reasons, and the read-only snapshot the control API and `deliveries()` hand out.
 *
 * @module
 */
import type { PaymentStatusWebhookPayload } from '../../../types/rest.ts';
import type { ScheduledTask } from '../clock.ts';
import {
  type DeliveryAttempt,
  type DeliveryFailureReason,
  type DeliveryRecord,
  type DeliveryState,
  deliveryRecord,
} from '../domain/stored.ts';

export type { DeliveryAttempt, DeliveryFailureReason, DeliveryRecord, DeliveryState } from '../domain/stored.ts';

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

/** A delivery as the dispatcher keeps it: the record's fields, mutable, plus what the engine needs to run it. */
export interface Delivery {
  id: string;
  /** Sequence number in the history; set when the store adds it. */
  seq: number;
  /** Counts the times it finished: tells a stale entry of the store's finish queue from the current one. */
  finishMark: number;
  /** Attempts made, kept or not. */
  attemptCount: number;
  /** Attempts dropped from `attempts` by the cap. */
  attemptsDropped: number;
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
  /** `attemptCount` when the current round (first send or latest redelivery) began; the budget counts from it. */
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

/**
 * The delivery id of `event` to `url` in a sandbox with a state store: `whd_` and 32 hex digits of a SHA-256 over the
 * payment's uuid, its `paid_at` and the URL. Whichever process settles a payment (the one that accepted it, a
 * survivor taking over its work, a restart replaying it) makes the same id for it, so a receiver that skips ids it
 * has handled handles the payment once, whatever died between two attempts. A payment settles once, so the pair
 * names one delivery; `paid_at` keeps a uuid drawn again after a restart from naming an older payment's delivery.
 * A redelivery keeps its delivery's id, as everywhere.
 *
 * @example
 * const id = storeDeliveryId(platform.crypto.sha256Hex)(event, 'https://receiver.test/hook'); // 'whd_…'
 */
export function storeDeliveryId(sha256Hex: (text: string) => string): (event: WebhookEvent, url: string) => string {
  return (event, url) => `whd_${sha256Hex(`${event.paymentUuid}\0${event.payload.paid_at}\0${url}`).slice(0, 32)}`;
}

/** The ordering key of a delivery: its payment and URL (one lane each). */
export function deliveryKey(paymentUuid: string, url: string): string {
  return `${paymentUuid}\u0000${url}`;
}

/** States a delivery does not leave on its own; only a redelivery restarts it. */
export const TERMINAL: ReadonlySet<DeliveryState> = new Set(['delivered', 'failed', 'gone']);

/** The read-only view of a delivery, copied so later changes do not show through. */
export function snapshot(d: Delivery): DeliveryRecord {
  const { id, seq, clientId, paymentUuid, url, eventType, payload, body, state, enqueuedAt, redeliveries } = d;
  const fixed = { id, seq, clientId, paymentUuid, url, eventType, payload, body, state, enqueuedAt };
  return deliveryRecord({ ...fixed, attempts: [...d.attempts], redeliveries }, d);
}

/**
 * A new delivery of `event` to `url`, not yet admitted; a payload that failed to serialise (`problem`) is kept
 * without its metadata, so listing deliveries still works.
 *
 * @example
 * const d = newDelivery({ id: 'whd_1', event, url, target: new URL(url), eventType, body, problem: undefined, now: 0 });
 */
export function newDelivery(fields: {
  readonly id: string;
  readonly event: WebhookEvent;
  readonly url: string;
  readonly target: URL;
  readonly eventType: string;
  readonly body: string;
  readonly problem: string | undefined;
  readonly now: number;
}): Delivery {
  const { event, url, problem } = fields;
  return {
    id: fields.id,
    seq: 0,
    finishMark: 0,
    attemptCount: 0,
    attemptsDropped: 0,
    clientId: event.clientId,
    paymentUuid: event.paymentUuid,
    url,
    target: fields.target,
    key: deliveryKey(event.paymentUuid, url),
    eventType: fields.eventType,
    payload: problem === undefined ? event.payload : withoutMetadata(event.payload),
    body: fields.body,
    state: 'queued',
    enqueuedAt: fields.now,
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
}

/** Starts a new round of attempts for a redelivery: the retry budget counts from here, the outcome is cleared. */
export function restartRound(d: Delivery): void {
  d.redeliveries += 1;
  d.roundStart = d.attemptCount;
  d.deliveredAt = undefined;
  d.reason = undefined;
  d.error = undefined;
}

function withoutMetadata(payload: PaymentStatusWebhookPayload): PaymentStatusWebhookPayload {
  const { amount, payment_gateway_fee, paid_at, status, uuid } = payload;
  return { amount, payment_gateway_fee, paid_at, status, uuid };
}

/** Logs an attempt, keeping at most `cap` of them (the latest): a delivery's memory stays bounded across redeliveries. */
export function recordAttempt(d: Delivery, attempt: DeliveryAttempt, cap: number): void {
  d.attempts.push(attempt);
  d.attemptCount += 1;
  if (d.attempts.length > cap) {
    d.attempts.shift();
    d.attemptsDropped += 1;
  }
}
