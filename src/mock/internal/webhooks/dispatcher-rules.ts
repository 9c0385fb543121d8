/**
 * What a webhook dispatcher promises and refuses, as both delivery engines (the in-process dispatcher and a Redis
 * replica's shared deliveries) share it: the dispatcher's options and interface as the mock server and the control
 * handle drive it, the outcome of a redelivery, and the checks each engine makes alike, each with the message that
 * names the fix: the options (`checkedTargets`), a payload's bytes (`serialise`), a redelivery (`redeliverProblem`), a
 * wait that timed out (`DEFAULT_WAIT_MS`, `noDeliveryMatched`) and the pending cap (`history.maxPendingDeliveries`).
 *
 * Pending work is never evicted, so once this process has that many unfinished deliveries a new one is refused
 * (recorded as `failed`, reason `pending-cap`) and a redelivery is turned down, each said once per episode in the log
 * instead of once per refusal.
 *
 * @module
 */
import type { WebhookRetryPolicy } from '../../../assumptions.ts';
import type { WebhookHeaderNames } from '../../../contract/webhook-headers.ts';
import { clause, errorLine, kitMessage } from '../../../internal/messages.ts';
import type { Clock } from '../domain/clock.ts';
import type { EventBus } from '../domain/events.ts';
import type { DeliveryCaps } from '../store/stored.ts';
import type { WebhookAttemptReport } from './delivery-attempts.ts';
import type { StandardWebhooksSigning } from './delivery-record.ts';
import {
  type Delivery,
  type DeliveryRecord,
  type DeliveryState,
  TERMINAL,
  type WebhookEvent,
} from './delivery-record.ts';
import type { DeliveryFields, DeliveryStore } from './delivery-store.ts';
import type { WebhookTransport } from './transport.ts';

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

/** Real milliseconds a `waitFor` waits when its options name none. */
export const DEFAULT_WAIT_MS = 5_000;

/**
 * Why delivery `id` (`d`, undefined when unknown) cannot be redelivered now, with the message naming the fix, or
 * undefined when it can. The pending cap is asked apart (createPendingGuard).
 *
 * @example
 * const problem = redeliverProblem(store.get(id), id, closed);
 */
export function redeliverProblem(
  d:
    | { readonly state: DeliveryState; readonly reason?: string | undefined; readonly error?: string | undefined }
    | undefined,
  id: string,
  closed: boolean,
): RedeliverResult | undefined {
  if (!d)
    return {
      ok: false,
      problem: 'unknown',
      message: kitMessage(
        `No webhook delivery with id "${id}": list them with deliveries() or GET /__pck/deliveries (a finished delivery past the history cap is evicted; see GET /__pck/health).`,
      ),
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

/**
 * The retry policy checked and the URLs parsed, or a `TypeError`/`RangeError` naming the bad option.
 *
 * @example
 * const targets = checkedTargets({ urls: ['http://127.0.0.1:3000/webhooks'], retry: a.webhook.retry });
 */
export function checkedTargets(opts: Pick<WebhookDispatcherOptions, 'urls' | 'retry'>): URL[] {
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
 *
 * @example
 * const { body, problem } = serialise(event, report);
 */
export function serialise(
  event: WebhookEvent,
  report: (line: string) => void,
): { body: string; problem: string | undefined } {
  let problem = event.problem;
  if (problem === undefined)
    try {
      return { body: JSON.stringify(event.payload), problem: undefined };
    } catch (error) {
      problem = `the payload could not be serialised to JSON (${errorLine(error)})`;
    }
  report(
    kitMessage(
      `webhook of payment ${event.paymentUuid} not sent: ${clause(problem)}. Recorded as a failed delivery (payload-error); the payment keeps its final status. A bug in the mock if its input was accepted; please report it.`,
    ),
  );
  return { body: '', problem };
}

/** Deliveries a timed-out wait names; the rest are counted (the message must stay a readable size). */
const MESSAGE_DELIVERIES = 20;

/**
 * What a wait that timed out says, from the kept deliveries newest first (only the first few are read) and how many
 * are kept: the latest deliveries and their states, and the likely fix.
 *
 * @example
 * reject(new Error(noDeliveryMatched(page.items, counts.kept, 5_000)));
 */
export function noDeliveryMatched(
  newest: Iterable<Pick<DeliveryRecord, 'id' | 'paymentUuid' | 'url' | 'state'>>,
  kept: number,
  timeoutMs: number,
): string {
  const latest: string[] = [];
  for (const d of newest) {
    if (latest.length === MESSAGE_DELIVERIES) break;
    latest.push(`${d.id} ${d.paymentUuid} → ${d.url}: ${d.state}`);
  }
  const more = kept - latest.length;
  const states = latest.join('; ') + (more > 0 ? `; and ${more} older (GET /__pck/deliveries pages them)` : '');
  return kitMessage(
    `no webhook delivery matched within ${timeoutMs} ms. Deliveries: ${states || 'none'}. If retries are scheduled, advance the mock clock (control.advanceClock).`,
  );
}

/**
 * The pending cap: whether new work is refused, the log line when the cap is reached and when it clears, and the
 * refusal count. The line is written once per episode, not once per refusal (an outage refuses thousands); an
 * episode ends when pending work is a tenth below the cap, so a queue hovering at the cap does not log every change.
 */
export function createPendingGuard(store: DeliveryStore, cap: number, report: (line: string) => void) {
  const clearsAt = cap - Math.max(1, Math.floor(cap / 10));
  let atCap = false;
  let refusedThisEpisode = 0;
  return {
    full: () => store.pending() >= cap,
    refuse(d: Delivery) {
      store.refused();
      refusedThisEpisode += 1;
      if (atCap) return;
      atCap = true;
      report(
        kitMessage(
          `webhook deliveries: ${cap} are pending (the cap, history.maxPendingDeliveries / --max-pending-deliveries), so new ones are refused: recorded as failed (pending-cap) without being sent, starting with ${d.id} (payment ${d.paymentUuid}). Bring the receiver back, then redeliver them; GET /__pck/health counts them.`,
        ),
      );
    },
    setState(d: Delivery, state: Delivery['state']) {
      store.setState(d, state);
      if (atCap && store.pending() <= clearsAt) {
        atCap = false;
        report(
          kitMessage(
            `webhook deliveries: ${store.pending()} are pending, below the cap of ${cap} again; ${refusedThisEpisode} were refused meanwhile (failed, pending-cap): list them with GET /__pck/deliveries?state=failed and redeliver them.`,
          ),
        );
        refusedThisEpisode = 0;
      }
    },
    redeliverProblem(id: string): RedeliverResult | undefined {
      return store.pending() < cap ? undefined : atCapRedelivery(id, cap);
    },
    reset() {
      atCap = false;
      refusedThisEpisode = 0;
    },
  };
}

/**
 * The answer to a redelivery of `id` while `cap` deliveries are pending.
 *
 * @example
 * return atCapRedelivery(id, caps.maxPendingDeliveries);
 */
export function atCapRedelivery(id: string, cap: number): RedeliverResult {
  return {
    ok: false,
    problem: 'at-cap',
    message: kitMessage(
      `Webhook delivery "${id}" not redelivered: ${cap} deliveries are pending (history.maxPendingDeliveries). Let them finish (advance the mock clock) or raise the cap, then redeliver.`,
    ),
  };
}
