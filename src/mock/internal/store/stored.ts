/**
 * What the payment state and the webhook deliveries keep, as plain values: a card account, an accepted payment, a
 * delivery's record, attempts, counters and caps, and the one function that builds a record. In store/, below the
 * parts that hold them (domain/, webhooks/), so the event vocabulary (domain/events.ts) and a store's ports can
 * carry them without depending on those parts.
 *
 * @module
 */
import type { PaymentStatusWebhookPayload } from '../../../types/rest.ts';

/**
 * What happens to a payment made with a card:
 * - `success`: accepted (`processing`), settles as the success status after `settleDelayMs`;
 * - `failure`: accepted (`processing`), settles as the failure status;
 * - `processing`: accepted and stays `processing` until settled through the control API (never on its own);
 * - `rejected`: refused before processing with a 7.3 validation error on the card number (fee calculation still
 *   prices it, as pricing processes nothing).
 */
export type CardOutcome = 'success' | 'failure' | 'processing' | 'rejected';

/** A card the mock knows for a client, from a card fee calculation, a payment or the control API. */
export interface CardAccount {
  /** The uid handed out as `card_account_uid`. */
  readonly card_account_uid: string;
  /** Client the account belongs to; other clients cannot use the uid. */
  readonly clientId: string;
  /** Detected card type. */
  readonly card_type: string;
  /** Masked card number (first 6, last 4 at most). */
  readonly masked_card_number: string;
  /** Two-digit expiry month, as sent. */
  readonly expiry_month: string;
  /** Two-digit expiry year, as sent. */
  readonly expiry_year: string;
  /** What payments with this card do. */
  readonly outcome: CardOutcome;
}

/** Card details from which a card account is made. The CVV is deliberately not part of it. */
export interface CardAccountInput {
  readonly card_number: string;
  readonly expiry_month: string;
  readonly expiry_year: string;
}

/** The final outcome a payment can be settled with. */
export type SettlementOutcome = 'success' | 'failure';

/** Which guide a request was answered in. */
export type Guide = 'current' | 'legacy';

/** A payment the mock accepted. */
export interface StoredPayment {
  /** Payment identifier, as answered and as sent in the webhook. */
  readonly uuid: string;
  /** Client that created the payment. */
  readonly clientId: string;
  /** Guide the creating request used. */
  readonly guide: Guide;
  readonly amount: number;
  readonly payment_gateway_fee: number;
  /** ISO 8601 timestamp from the mock clock. */
  readonly paid_at: string;
  /** Current status name (`Assumptions.statusNames`); `processing` until settled. */
  status: string;
  /** Outcome the card asks for (test cards); `processing` means only the control API settles it. */
  readonly outcome: CardOutcome;
  /** Final outcome once settled, else undefined. */
  settledOutcome: SettlementOutcome | undefined;
  /** Virtual time of settlement (ms since the epoch), once settled. */
  settledAt: number | undefined;
  /** Metadata object as sent, echoed in the webhook. */
  readonly metadata: Readonly<Record<string, unknown>> | undefined;
  readonly card_account_uid: string;
  readonly card_type: string;
  readonly masked_card_number: string;
  /** Payer IP: as sent in `ip_address`, else the requesting IP. */
  readonly ip_address: string;
  readonly vendor_device_id: string | undefined;
  /** The client's description and reference number (from payment_reference, or the legacy contact). */
  readonly payment_reference: { readonly description: string; readonly reference_no: string };
}

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
  | 'internal-error'
  /**
   * Not sent: pending deliveries were at their cap (`history.maxPendingDeliveries`) when the event came; the mock
   * logged it and counts it in `GET /__pck/health`. Redeliver it once the receiver is back.
   */
  | 'pending-cap';

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
  /** Position in the delivery history (one sequence for every dispatcher of the mock): the cursor of its pages. */
  readonly seq: number;
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
  /** The latest attempts (at most `history.maxAttemptsPerDelivery`; `number` counts every attempt made). */
  readonly attempts: readonly DeliveryAttempt[];
  /** Older attempts no longer kept, when the cap dropped any. */
  readonly attemptsDropped?: number;
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

/** Counters of a delivery history, kept on every change. */
export interface DeliveryCounts {
  /** Deliveries kept, by state. */
  readonly byState: Readonly<Record<DeliveryState, number>>;
  /** Deliveries kept. */
  readonly kept: number;
  /** Kept and not finished (queued, sending, retry-scheduled). */
  readonly pending: number;
  /** Finished deliveries evicted by the cap since the last reset. */
  readonly evicted: number;
  /** Deliveries refused because pending work was at its cap (kept as `failed`, reason `pending-cap`). */
  readonly refused: number;
  /** Changes with every change of the history: a poller compares it with the last one it saw. */
  readonly version: number;
}

/** The fields of a delivery record shown only when they hold something (a record has no undefined keys). */
export interface ShownDeliveryFields {
  readonly attemptsDropped: number;
  readonly nextAttemptAt?: number | undefined;
  readonly deliveredAt?: number | undefined;
  readonly reason?: DeliveryFailureReason | undefined;
  readonly error?: string | undefined;
}

/**
 * A delivery record of `fixed` with the {@link ShownDeliveryFields} of `from` that hold something: the dispatcher's
 * snapshot and the Redis store's read build the same shape this way.
 */
export function deliveryRecord(
  fixed: Omit<DeliveryRecord, keyof ShownDeliveryFields>,
  from: ShownDeliveryFields,
): DeliveryRecord {
  const record: { -readonly [K in keyof DeliveryRecord]: DeliveryRecord[K] } = fixed;
  if (from.attemptsDropped > 0) record.attemptsDropped = from.attemptsDropped;
  if (from.nextAttemptAt !== undefined) record.nextAttemptAt = from.nextAttemptAt;
  if (from.deliveredAt !== undefined) record.deliveredAt = from.deliveredAt;
  if (from.reason !== undefined) record.reason = from.reason;
  if (from.error !== undefined) record.error = from.error;
  return record;
}

/**
 * The caps of a delivery history (`Assumptions.history`): one dispatcher's in memory, the whole sandbox's on Redis.
 */
export interface DeliveryCaps {
  readonly maxDeliveries: number;
  readonly maxPendingDeliveries: number;
  readonly maxAttemptsPerDelivery: number;
}

/** Filters of a delivery page; every given one must match. `state: 'pending'` matches the three unfinished states. */
export interface DeliveryFilter {
  readonly state?: DeliveryState | 'pending' | undefined;
  readonly paymentUuid?: string | undefined;
  readonly clientId?: string | undefined;
  readonly url?: string | undefined;
}
