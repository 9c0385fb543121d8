/**
 * A delivery as a file store's `dv` record carries it: every change of a delivery is recorded, so a restart lists
 * the deliveries of the run before and resumes the unfinished ones with their ids and attempt logs.
 *
 * @module
 */
import type { PaymentStatusWebhookPayload } from '../../../types/rest.ts';
import {
  type Delivery,
  type DeliveryAttempt,
  type DeliveryFailureReason,
  type DeliveryState,
  deliveryKey,
  newDelivery,
  TERMINAL,
} from './delivery-record.ts';
import type { DeliveryStore } from './delivery-store.ts';

/** A delivery as a `dv` record carries it (JSON only; short keys, one record per change). */
export interface DeliveryFields {
  readonly id: string;
  /** Client id, payment uuid, URL, event type, the exact body sent. */
  readonly c: string;
  readonly u: string;
  readonly url: string;
  readonly et: string;
  readonly b: string;
  /** State, virtual enqueue time, attempts made, attempts kept, attempts dropped, round start, redeliveries. */
  readonly s: DeliveryState;
  readonly at: number;
  readonly n: number;
  readonly a: readonly DeliveryAttempt[];
  readonly ad: number;
  readonly rs: number;
  readonly rd: number;
  /** Next attempt, delivered at, failure reason, error (null when absent). */
  readonly na: number | null;
  readonly da: number | null;
  readonly r: DeliveryFailureReason | null;
  readonly e: string | null;
}

/** The fields of `d` for a `dv` record. */
export function deliveryFields(d: Delivery): DeliveryFields {
  return {
    ...{ id: d.id, c: d.clientId, u: d.paymentUuid, url: d.url, et: d.eventType, b: d.body },
    ...{ s: d.state, at: d.enqueuedAt, n: d.attemptCount, a: [...d.attempts], ad: d.attemptsDropped },
    ...{ rs: d.roundStart, rd: d.redeliveries, na: d.nextAttemptAt ?? null, da: d.deliveredAt ?? null },
    ...{ r: d.reason ?? null, e: d.error ?? null },
  };
}

/**
 * The deliveries a file store's log restores into one dispatcher's history (`store`). The unfinished ones wait, by
 * payment and URL, until the whole log is read; then `resume` hands them to `admit`, and this process sends them on
 * under the same id, numbering the next attempt after the last one recorded. `offer` tells waiters of a change.
 */
export function createRestored(store: DeliveryStore, admit: (d: Delivery) => void, offer: (d: Delivery) => void) {
  const unfinished = new Map<string, Delivery>();
  return {
    /** Takes in a `dv` record; ignores a malformed one. */
    restore(f: DeliveryFields): void {
      const d = restoreDelivery(store, f);
      if (d === undefined) return;
      if (TERMINAL.has(d.state)) unfinished.delete(d.key);
      else unfinished.set(d.key, d);
      offer(d);
    },
    /** Ends the unfinished delivery of `paymentUuid` to `url` in `state`, when that is an end (an `hk` record). */
    ended(paymentUuid: string, url: string, state: DeliveryState): void {
      const d = unfinished.get(deliveryKey(paymentUuid, url));
      if (d === undefined || !TERMINAL.has(state)) return;
      unfinished.delete(d.key);
      d.nextAttemptAt = undefined;
      store.setState(d, state);
      offer(d);
    },
    /** Sends on every unfinished delivery restored (once the log is read). */
    resume(): void {
      const waiting = [...unfinished.values()];
      unfinished.clear();
      for (const d of waiting) {
        d.nextAttemptAt = undefined;
        admit(d);
      }
    },
    clear: () => unfinished.clear(),
  };
}

/**
 * Restores a `dv` record into `store`: the delivery of that id as the record says it is now (added when new).
 * Records are replayed in the order they were written, so the latest is the truth. A malformed record is ignored
 * (undefined).
 */
function restoreDelivery(store: DeliveryStore, f: DeliveryFields): Delivery | undefined {
  if (typeof f?.id !== 'string' || typeof f.b !== 'string' || typeof f.url !== 'string') return undefined;
  const d = store.get(f.id) ?? added(store, f);
  if (d === undefined) return undefined;
  d.attemptCount = f.n;
  d.attempts = [...f.a];
  d.attemptsDropped = f.ad;
  d.roundStart = f.rs;
  d.redeliveries = f.rd;
  d.nextAttemptAt = f.na ?? undefined;
  d.deliveredAt = f.da ?? undefined;
  d.reason = f.r ?? undefined;
  d.error = f.e ?? undefined;
  store.setState(d, f.s);
  return d;
}

/** The delivery of a record seen for the first time, added to `store`; undefined when its body or URL is unreadable. */
function added(store: DeliveryStore, f: DeliveryFields): Delivery | undefined {
  let payload: PaymentStatusWebhookPayload;
  let target: URL;
  try {
    payload = JSON.parse(f.b) as PaymentStatusWebhookPayload;
    target = new URL(f.url);
  } catch {
    return undefined;
  }
  const event = { clientId: f.c, paymentUuid: f.u, payload };
  const d = newDelivery({
    id: f.id,
    event,
    url: f.url,
    target,
    eventType: f.et,
    body: f.b,
    problem: undefined,
    now: f.at,
  });
  store.add(d);
  return d;
}
