/**
 * The webhook dispatcher's vocabulary: its options, the engine's interface as the mock server and the control handle
 * drive it, the history caps and the outcome of a redelivery. Kept apart from the engine (dispatcher.ts, which
 * re-exports them), so what the dispatcher promises reads in one place, apart from the machinery that keeps it.
 *
 * @module
 */
import type { WebhookRetryPolicy } from '../../../assumptions.ts';
import type { WebhookHeaderNames } from '../../../contract/webhook-headers.ts';
import type { Clock } from '../clock.ts';
import type { EventBus } from '../domain/events.ts';
import type { DeliveryCaps } from '../domain/stored.ts';
import type { WebhookAttemptReport } from './delivery-attempts.ts';
import type { DeliveryFields } from './delivery-fields.ts';
import type { StandardWebhooksSigning } from './delivery-headers.ts';
import type { Delivery, DeliveryRecord, DeliveryState, WebhookEvent } from './delivery-record.ts';
import type { DeliveryStore } from './delivery-store.ts';
import type { WebhookTransport } from './transport.ts';

export type { DeliveryCaps } from '../domain/stored.ts';

/** Outcome of {@link WebhookDispatcher.redeliver}: a caller's mistake is a value, with a message naming the fix. */
export type RedeliverResult =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly problem: 'unknown' | 'in-progress' | 'closed' | 'unsendable' | 'at-cap';
      readonly message: string;
    };

/** Options of `createWebhookDispatcher` (dispatcher.ts). */
export interface WebhookDispatcherOptions {
  /** The mock's virtual clock; every retry is scheduled on it. */
  readonly clock: Clock;
  /** Registered webhook URLs; each event goes to every one of them. */
  readonly urls: readonly string[];
  /** Value sent in the signing key header. */
  readonly signingKey: string;
  /** Header names by role (`webhookHeaderNamesOf(assumptions.webhook)`); any role left out takes the kit's default. */
  readonly headers: Partial<WebhookHeaderNames>;
  /** Retry schedule (`Assumptions.webhook.retry`). */
  readonly retry: WebhookRetryPolicy;
  /** Opt-in Standard Webhooks signing: adds `webhook-id`, `webhook-timestamp`, `webhook-signature`. */
  readonly standardWebhooks?: StandardWebhooksSigning | undefined;
  /** Random source in [0, 1) for jitter; inject a seeded one for repeatable schedules. */
  readonly random: () => number;
  /** Event type for the log and Standard Webhooks; defaults to `Assumptions.webhook.eventType`. */
  readonly eventType?: string;
  /** The id of `event`'s delivery to `url`; default `whd_` + a random UUID (a store's: `storeDeliveryId`). */
  readonly idFactory?: (event: WebhookEvent, url: string) => string;
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
  /** Told about every attempt once its outcome is known (the mock logs one line per attempt). */
  readonly onAttempt?: (report: WebhookAttemptReport) => void;
  /** How attempts are sent: the platform's network transport (HTTP POST under Node, `fetch` elsewhere) or in-process. */
  readonly transport: WebhookTransport;
  /** Caps of the delivery history; defaults to `Assumptions.history`. */
  readonly history?: DeliveryCaps;
  /** Sequence numbers of deliveries, shared by the dispatchers of one mock; defaults to a counter of its own. */
  readonly nextSeq?: () => number;
  /**
   * Told when a delivery ends (delivered, failed or gone), except when closing the mock ends it: a file store
   * records it, so a restart does not deliver it again.
   */
  readonly onFinished?: ((delivery: Delivery) => void) | undefined;
  /**
   * Told after every change of a delivery (a file store records it, so a restart lists it and resumes it with its id
   * and attempts). Undefined with memory: nothing is told.
   */
  readonly onChange?: ((delivery: Delivery) => void) | undefined;
  /** Where each attempt (`delivery.attempted`) and each end but by closing (`delivery.finished`) is told. */
  readonly events?: EventBus | undefined;
}

/** Options of {@link WebhookDispatcher.waitFor}. */
export interface WaitForOptions {
  /** Real milliseconds to wait before rejecting; default 5000. */
  readonly timeoutMs?: number;
}

/** The delivery engine, driven by the mock server and its control handle. */
export interface WebhookDispatcher {
  /**
   * Queues one event for every registered URL but those in `skipUrls` (already delivered before a restart). Never
   * throws for receiver trouble; see `deliveries()`.
   */
  enqueue(event: WebhookEvent, skipUrls?: ReadonlySet<string>): void;
  /** Snapshot of every delivery kept, oldest first. */
  deliveries(): readonly DeliveryRecord[];
  /** The bounded, indexed history (pages and counters). */
  readonly store: DeliveryStore;
  /** Resolves with the first delivery (now or later) matching `predicate`; rejects after `timeoutMs`. */
  waitFor(predicate: (delivery: DeliveryRecord) => boolean, options?: WaitForOptions): Promise<DeliveryRecord>;
  /** Sends a finished delivery (`failed`, `gone` or `delivered`) again, with the same delivery id. */
  redeliver(id: string): RedeliverResult;
  /** Restores a delivery of this sandbox's past as its `onChange` recorded it (a `dv` record of a file store). */
  restore(fields: DeliveryFields): void;
  /**
   * Ends the unfinished restored delivery of `paymentUuid` to `url` in `state` (terminal; else nothing), as the end
   * of its webhook was recorded (`hk`). Its own `dv` with the end normally follows in the same batch; a log cut
   * between the two has only the `hk`, and the delivery would otherwise be sent again.
   */
  endRestored(paymentUuid: string, url: string, state: DeliveryState): void;
  /** Sends on every unfinished restored delivery, once the log is replayed: same id, attempts numbered on. */
  resume(): void;
  /** Every kept delivery as the fields of a `dv` record, oldest first, for a file store's compaction. */
  fields(): DeliveryFields[];
  /** Aborts everything in flight and forgets every delivery. */
  reset(): void;
  /**
   * Aborts in-flight attempts and cancels scheduled retries; what was not delivered is marked `failed` (`closed`).
   * Resolves with those deliveries, so the caller can report them.
   */
  close(): Promise<readonly DeliveryRecord[]>;
}
