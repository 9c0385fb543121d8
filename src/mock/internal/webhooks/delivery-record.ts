/**
 * A webhook delivery as the dispatcher keeps it (one event on its way to one URL) and as it shows it: the states,
 * the attempt log, the failure reasons, and the read-only snapshot the control API and `deliveries()` hand out. Also
 * what a delivery carries: the payment status payload of a settled payment (spec section 6: the payment's fields, the
 * status name as a plain string, not the GraphQL `status { name }` object, and the metadata echoed as given), and the
 * headers of each attempt: JSON content type, the contract layer's webhook headers (signing key, client id, and the
 * delivery id, the same on every attempt so receivers recognise duplicates) and, when opted in, the Standard Webhooks
 * headers, signed afresh with each attempt's own time as that specification asks.
 *
 * @module
 */
import { type WebhookHeaderNames, webhookHeaders } from '../../../contract/webhook-headers.ts';
import { errorLine, kitMessage } from '../../../internal/messages.ts';
import { bytesOfBase64 } from '../../../internal/text-bytes.ts';
import type { PaymentStatusWebhookPayload } from '../../../types/rest.ts';
import type { ScheduledTask } from '../domain/clock.ts';
import type { StoredPayment } from '../domain/payments.ts';
import {
  type DeliveryAttempt,
  type DeliveryFailureReason,
  type DeliveryRecord,
  type DeliveryState,
  deliveryRecord,
} from '../store/stored.ts';
import type { AttemptAbort } from './transport.ts';

export type { DeliveryAttempt, DeliveryFailureReason, DeliveryRecord, DeliveryState } from '../store/stored.ts';

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
  inFlight: AttemptAbort | undefined;
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

/** The fields of a stored payment the webhook payload is made of; `status` is the final status name. */
export type PaymentForWebhook = Pick<
  StoredPayment,
  'amount' | 'payment_gateway_fee' | 'paid_at' | 'uuid' | 'status'
> & {
  readonly metadata?: StoredPayment['metadata'];
};

/**
 * The webhook payload of a payment. `metadata` is present only when the payment was created with one, so a receiver
 * sees exactly what it sent.
 *
 * @example
 * dispatcher.enqueue({ clientId: payment.clientId, paymentUuid: payment.uuid, payload: paymentStatusPayload(payment) });
 */
export function paymentStatusPayload(payment: PaymentForWebhook): PaymentStatusWebhookPayload {
  const payload: PaymentStatusWebhookPayload = {
    amount: payment.amount,
    payment_gateway_fee: payment.payment_gateway_fee,
    paid_at: payment.paid_at,
    status: payment.status,
    uuid: payment.uuid,
  };
  if (payment.metadata !== undefined) payload.metadata = { ...payment.metadata };
  return payload;
}

/**
 * The webhook event of a settled payment. A payload that cannot be built (metadata whose getter throws) gives the
 * event without its metadata and the `problem`, so it is recorded as a failed delivery with what is known of it.
 *
 * @example
 * dispatcher.enqueue(settledEvent(payment));
 */
export function settledEvent(payment: StoredPayment): WebhookEvent {
  let payload: PaymentStatusWebhookPayload;
  let problem: string | undefined;
  try {
    payload = paymentStatusPayload(payment);
  } catch (error) {
    payload = paymentStatusPayload({ ...payment, metadata: undefined });
    problem = `the payload could not be built (${errorLine(error)})`;
  }
  const event = { clientId: payment.clientId, paymentUuid: payment.uuid, payload };
  return problem === undefined ? event : { ...event, problem };
}

/** The opt-in Standard Webhooks signature: the secret, and the platform's HMAC to sign with. */
export interface StandardWebhooksSigning {
  /** `whsec_` + base64 (the prefix may be left off). */
  readonly secret: string;
  readonly hmacSha256Base64: (key: Uint8Array, text: string) => string;
}

/**
 * The three Standard Webhooks headers of one attempt (https://www.standardwebhooks.com, version 1.0.0):
 * `webhook-signature` is `v1,` + base64 HMAC-SHA-256 of `${id}.${timestamp}.${body}` under the secret's key bytes.
 * Made with the platform's HMAC so the mock signs in a browser too; tests check it with `checkStandardWebhookSignature`.
 *
 * @example
 * const signed = standardWebhookHeaders(signing, d.id, Math.floor(Date.now() / 1000), d.body);
 */
export function standardWebhookHeaders(
  signing: StandardWebhooksSigning,
  id: string,
  timestamp: number,
  body: string,
): Record<string, string> {
  const encoded = signing.secret.startsWith('whsec_') ? signing.secret.slice('whsec_'.length) : signing.secret;
  const key = bytesOfBase64(encoded);
  // resolveMockOptions checks the secret; this guards the kit's own callers.
  if (key === undefined || key.length === 0)
    throw new TypeError(kitMessage('standardWebhooksSecret must be "whsec_" + base64 key bytes.'));
  const signature = signing.hmacSha256Base64(key, `${id}.${timestamp}.${body}`);
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${signature}` };
}

/** What the headers are made of. */
export interface DeliveryHeaderOptions {
  /** Value sent in the signing key header. */
  readonly signingKey: string;
  /** Header names by role (the contract layer's webhook header names). */
  readonly names: WebhookHeaderNames;
  readonly standardWebhooks?: StandardWebhooksSigning | undefined;
  /** Wall clock (ms) for `webhook-timestamp`: receivers check it against their own clock. */
  readonly wallClock: () => number;
}

/**
 * The headers every attempt of `d` repeats: JSON content type, the client's signing key, client id and delivery id.
 * What a shared store keeps with a delivery; the Standard Webhooks headers are signed afresh per attempt.
 *
 * @example
 * const headers = repeatedDeliveryHeaders(signingKey, names, d);
 */
export function repeatedDeliveryHeaders(
  signingKey: string,
  names: WebhookHeaderNames,
  d: Pick<Delivery, 'id' | 'clientId' | 'payload'>,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json',
    'user-agent': 'payment-contract-kit-mock',
    ...webhookHeaders(names, { signingKey, clientId: d.clientId, deliveryId: d.id, payload: d.payload }),
  };
}

/**
 * Makes the header builder of one dispatcher.
 *
 * @example
 * const headersFor = createDeliveryHeaders({ signingKey, names, wallClock: Date.now });
 * transport.send(d.target, headersFor(d), d.body, createAttemptAbort());
 */
export function createDeliveryHeaders(options: DeliveryHeaderOptions): (d: Delivery) => Record<string, string> {
  const { names, standardWebhooks } = options;
  return (d) => {
    const headers = repeatedDeliveryHeaders(options.signingKey, names, d);
    if (standardWebhooks)
      Object.assign(
        headers,
        standardWebhookHeaders(standardWebhooks, d.id, Math.floor(options.wallClock() / 1000), d.body),
      );
    return headers;
  };
}
