/**
 * The webhook deliveries a shared store holds for every replica (decision 0040, step 6): what the dispatcher asks of
 * it when the sandbox's deliveries live in Redis rather than in each process's history. Memory and the file store
 * have no such port: the dispatcher keeps its history in process (webhooks/delivery-store.ts), and the file store
 * journals its records. No replica keeps a copy of another's deliveries: every one reads the same history.
 *
 * Every method is one atomic step on the store, in the current epoch. An attempt is claimed before it is sent: a claim
 * moves due deliveries to an in-flight set with a real-time deadline and a claim token; only the holder of that token
 * records the attempt's outcome, and a claim that outlives its deadline (its replica stalled or died) is taken again
 * by the next claim, which sends the delivery once more under the same id (at least once, as in memory).
 *
 * The store holds no policy: the caller decides what an outcome leads to (delivered, a retry at a time computed with
 * webhooks/delivery-attempts.ts, failed or gone) and the store keeps what it is told, with the counters and bounds of the
 * memory history: finished deliveries past `maxDeliveries` are evicted oldest-finished first, at most
 * `maxAttemptsPerDelivery` attempts are kept per delivery, and pending work is never evicted. The pending cap
 * (`maxPendingDeliveries`) counts every unfinished delivery of the sandbox on Redis, not one process's own as in
 * memory: no replica's work is another's to ignore once all of it is in one place.
 *
 * The types mirror the dispatcher's (webhooks/delivery-record.ts) field for field, so a record read here equals the
 * memory history's snapshot of the same delivery; the store layer sits below webhooks and names them itself.
 *
 * @module
 */
import type { Page, PageQuery } from '../history/page.ts';
import type {
  DeliveryAttempt,
  DeliveryCaps,
  DeliveryCounts,
  DeliveryFailureReason,
  DeliveryFilter,
  DeliveryRecord,
} from './stored.ts';

export type { DeliveryCaps, DeliveryFilter } from './stored.ts';

/** One delivery by id: its record, and the counters and headers a sender needs besides. */
export interface StoredDelivery {
  readonly record: DeliveryRecord;
  /** Attempts made, kept or not. */
  readonly attemptCount: number;
  /** `attemptCount` when the current round (first send or latest redelivery) began: the retry budget counts from it. */
  readonly roundStart: number;
  /** The headers every attempt repeats (signing key, client id, delivery id); per-attempt ones are signed afresh. */
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * A new delivery to keep: the fixed fields of its record (its id, with a store `storeDeliveryId` of the payment and
 * URL, is the key of idempotence; its body the exact bytes every attempt sends), the headers every attempt repeats
 * (see {@link StoredDelivery.headers}) and when its first attempt is due (virtual time).
 */
export interface NewDelivery
  extends Pick<
    DeliveryRecord,
    'id' | 'clientId' | 'paymentUuid' | 'url' | 'eventType' | 'payload' | 'body' | 'enqueuedAt'
  > {
  readonly headers: Readonly<Record<string, string>>;
  readonly dueAt: number;
  /** Kept as failed at once, never sent (a payload that could not be serialised, a closing mock). */
  readonly failed?: { readonly reason: DeliveryFailureReason; readonly error?: string | undefined } | undefined;
}

/** What {@link DeliveryStatePort.enqueue} answers. */
export interface EnqueuedDelivery {
  /** False when the id was kept already: nothing changed. */
  readonly created: boolean;
  /** True when it was kept as failed (`pending-cap`) because the sandbox's pending deliveries were at the cap. */
  readonly refused: boolean;
  /** Its sequence number (the existing one when not created). */
  readonly seq: number;
}

/** A delivery handed to a claimer: what it needs to send this attempt and to judge its outcome. */
export interface ClaimedDelivery
  extends Pick<NewDelivery, 'id' | 'clientId' | 'paymentUuid' | 'url' | 'eventType' | 'body' | 'headers'> {
  /** The number of the attempt to send (one more than the attempts made). */
  readonly attempt: number;
  /** Attempts made in the current round before this one: this attempt exhausts a budget of `attemptsInRound + 1`. */
  readonly attemptsInRound: number;
}

/** Due attempts claimed by one replica, to send and record before the claim's real-time deadline. */
export interface DeliveryClaim {
  /** Names this claim: only it records these attempts, until another claim takes them after the deadline. */
  readonly token: string;
  /** Those taken back from a lapsed claim first, then the due ones, earliest first. */
  readonly deliveries: readonly ClaimedDelivery[];
  /** Virtual time the earliest attempt still due later is due at; undefined when none is. */
  readonly nextDueAt: number | undefined;
}

/** What an attempt's outcome leads to, as the caller decided it (the policy stays in TypeScript). */
export type AttemptVerdict =
  | { readonly state: 'delivered' /** Virtual time of the 2xx. */; readonly at: number }
  | { readonly state: 'retry-scheduled' /** Virtual time of the next attempt. */; readonly nextAttemptAt: number }
  | { readonly state: 'failed' | 'gone'; readonly reason: DeliveryFailureReason };

/** What {@link DeliveryStatePort.recordAttempt} answers. */
export interface RecordedAttempt {
  /** False when the claim token no longer held the delivery (a stalled sender's late outcome): nothing changed. */
  readonly recorded: boolean;
  /** The delivery as it stands after the call; undefined when it is not kept (evicted, or a reset came between). */
  readonly delivery: StoredDelivery | undefined;
}

/** What {@link DeliveryStatePort.redeliver} answers: `ok`, or why not (the dispatcher's `RedeliverResult` problems). */
export type StoredRedelivery = 'ok' | 'unknown' | 'in-progress' | 'unsendable' | 'at-cap';

/** The shared delivery history; every method may reject with `StoreUnavailableError`. */
export interface DeliveryStatePort {
  /**
   * Keeps `delivery` under the next sequence number, due at `dueAt`, unless its id is kept already (a second enqueue
   * of one id changes nothing). With `failed` it is kept finished; else, when the sandbox's pending deliveries are at
   * `caps.maxPendingDeliveries`, it is kept as failed (`pending-cap`) and counted as refused.
   */
  enqueue(delivery: NewDelivery, caps: DeliveryCaps): Promise<EnqueuedDelivery>;
  /** One delivery by id, or undefined. */
  delivery(id: string): Promise<StoredDelivery | undefined>;
  /** A page of deliveries as the memory history pages them: newest first, or oldest first after `after`. */
  page(query: Required<Pick<PageQuery, 'limit'>> & PageQuery, filter: DeliveryFilter): Promise<Page<DeliveryRecord>>;
  /**
   * The counters of the history. Their `version` is the epoch times 2^32 plus the changes made in it, so a new
   * epoch's versions stay above the last one's without a key that outlives the reset.
   */
  counts(): Promise<DeliveryCounts>;
  /**
   * Claims, for `visibilityMs` of real time, up to `max` attempts: first those of a claim whose deadline passed,
   * then those due at or before the virtual now (`realNow`, the caller's real time in ms, plus the epoch's clock
   * offset, read in the same step, as the payment port's `claimDue`). A claimed delivery is `sending` until its
   * outcome.
   */
  claimDue(max: number, visibilityMs: number, realNow: number): Promise<DeliveryClaim>;
  /**
   * Records `attempt` of delivery `id` and moves it as `verdict` says, only while `claimToken` holds it: the attempt
   * is logged (the oldest dropped past `caps.maxAttemptsPerDelivery`), a retry is due at its time, a final state may
   * evict the oldest finished delivery past `caps.maxDeliveries`.
   */
  recordAttempt(
    id: string,
    claimToken: string,
    attempt: DeliveryAttempt,
    verdict: AttemptVerdict,
    caps: DeliveryCaps,
  ): Promise<RecordedAttempt>;
  /**
   * Starts a finished delivery again under its own id (the control API's redelivery): a new round, its retry budget
   * counted from here, due at `dueAt` (virtual). Refused for an unknown or unfinished delivery, one that has no body
   * (`payload-error`), and while the sandbox's pending deliveries are at the cap.
   */
  redeliver(id: string, dueAt: number, caps: DeliveryCaps): Promise<StoredRedelivery>;
}
