/**
 * Deliveries of other processes: with a shared state store every delivery change is recorded (`dv`),
 * and each replica keeps the deliveries of the others as mirrors in its own delivery history, so
 * `GET /__pck/deliveries` on any replica lists the whole sandbox's. A mirror is never sent by this process, until it
 * adopts it: when it takes over a payment whose webhooks a dead process left pending, the delivery keeps its id and
 * its attempt log, and the next attempt is numbered after the last one the dead process made.
 *
 * @module
 */
import type { PaymentStatusWebhookPayload } from '../../../types/rest.ts';
import {
  type Delivery,
  type DeliveryAttempt,
  type DeliveryFailureReason,
  type DeliveryState,
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

/** The mirrors of one dispatcher. */
export interface DeliveryMirror {
  /** Takes in a `dv` record of another process (or of this one's past, at a restart); ignores a malformed one. */
  apply(fields: DeliveryFields): Delivery | undefined;
  /**
   * Takes in the end of the delivery of `paymentUuid` to `url` as the webhooks' progress recorded it (`hk`): an
   * unfinished mirror of it ends in `state`. Its own `dv` with the end normally follows in the same batch; a log cut
   * between the two (a SIGKILL, or a log written before they shared a batch) has only the `hk`, and the delivery
   * would otherwise stay `sending` for good, since no process takes over a payment whose webhooks are finished.
   */
  ended(paymentUuid: string, url: string, state: DeliveryState): void;
  /** The unfinished mirror of `paymentUuid` to `url`, made this process's own (it will send it); else undefined. */
  adopt(paymentUuid: string, url: string, target: URL): Delivery | undefined;
  /** Whether `d` is another process's delivery (not sent here, not ended by closing here). */
  isMirror(d: Delivery): boolean;
  /** Unfinished deliveries of other processes held here (not this process's to send, nor to count against its cap). */
  pending(): number;
  /** Makes `d` this process's own (a redelivery here): records of other processes no longer change it. */
  own(d: Delivery): void;
  clear(): void;
}

/** Creates the mirrors of a dispatcher whose history is `store`; `offer` tells its waiters about a change. */
export function createDeliveryMirror(store: DeliveryStore, offer: (d: Delivery) => void): DeliveryMirror {
  let mirrors = new WeakSet<Delivery>();
  /** Unfinished mirrors by payment and URL: what a takeover adopts. */
  const open = new Map<string, Delivery>();
  const keyOf = (paymentUuid: string, url: string) => `${paymentUuid}\u0000${url}`;

  function created(f: DeliveryFields): Delivery | undefined {
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
    mirrors.add(d);
    store.add(d);
    return d;
  }

  return {
    apply(f) {
      if (typeof f?.id !== 'string' || typeof f.b !== 'string' || typeof f.url !== 'string') return undefined;
      const known = store.get(f.id);
      // This process's own delivery (adopted, or sent here): its own changes are the truth.
      if (known !== undefined && !mirrors.has(known)) return undefined;
      // Two processes may write one delivery (ids are the payment's: a takeover that found nothing to adopt sends it
      // again), and the dead one's last record can land after the survivor's end. Only a redelivery reopens an end.
      if (known !== undefined && TERMINAL.has(known.state) && !TERMINAL.has(f.s) && f.rd <= known.redeliveries)
        return undefined;
      const d = known ?? created(f);
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
      if (TERMINAL.has(f.s)) open.delete(keyOf(f.u, f.url));
      else open.set(keyOf(f.u, f.url), d);
      offer(d);
      return d;
    },
    ended(paymentUuid, url, state) {
      if (!TERMINAL.has(state)) return;
      const key = keyOf(paymentUuid, url);
      const d = open.get(key);
      if (d === undefined) return;
      open.delete(key);
      d.nextAttemptAt = undefined;
      store.setState(d, state);
      offer(d);
    },
    adopt(paymentUuid, url, target) {
      const key = keyOf(paymentUuid, url);
      const d = open.get(key);
      if (d === undefined) return undefined;
      open.delete(key);
      mirrors.delete(d);
      d.target = target;
      d.nextAttemptAt = undefined;
      return d;
    },
    isMirror: (d) => mirrors.has(d),
    pending: () => open.size,
    own(d) {
      if (!mirrors.delete(d)) return;
      if (open.get(keyOf(d.paymentUuid, d.url)) === d) open.delete(keyOf(d.paymentUuid, d.url));
    },
    clear() {
      mirrors = new WeakSet();
      open.clear();
    },
  };
}
