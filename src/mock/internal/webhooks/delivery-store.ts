/**
 * The delivery history of one dispatcher, bounded: every delivery in sequence order with indexes by id, payment,
 * client and URL, counters by state, and the eviction rule. Finished deliveries (`delivered`, `failed`, `gone`) are
 * kept up to `maxFinished`; past it the one finished longest ago is evicted and counted. Pending deliveries
 * (`queued`, `sending`, `retry-scheduled`) are never evicted: the dispatcher refuses new work once `pending()`
 * reaches its own cap (see dispatcher-rules.ts), so nothing still to be sent disappears.
 *
 * This is the seam a state store implements for deliveries (decisions/0013-bounded-histories.md): ordered by a sequence number, the
 * counters kept on every transition, eviction by finish order.
 *
 * A file store's `dv` records carry a delivery too (`deliveryFields`, `createRestored`): every change of a delivery is
 * recorded, so a restart lists the deliveries of the run before and resumes the unfinished ones with their ids and
 * attempt logs.
 *
 * @module
 */

import type { PaymentStatusWebhookPayload } from '../../../types/rest.ts';
import { KeyQueue, SeqList } from '../domain/ordered-lists.ts';
import type { OrderedSource } from '../history/page.ts';
import type { DeliveryCounts, DeliveryFilter } from '../store/stored.ts';
import {
  type Delivery,
  type DeliveryAttempt,
  type DeliveryFailureReason,
  type DeliveryState,
  deliveryKey,
  newDelivery,
  TERMINAL,
} from './delivery-record.ts';

export type { DeliveryCounts, DeliveryFilter } from '../store/stored.ts';

/** The states a delivery filter accepts. */
export const deliveryFilterStates: readonly (DeliveryState | 'pending')[] = [
  'pending',
  'queued',
  'sending',
  'retry-scheduled',
  'delivered',
  'failed',
  'gone',
];

/** One dispatcher's deliveries. */
export interface DeliveryStore {
  /** Adds a new delivery under the next sequence number. */
  add(d: Delivery): void;
  /** Moves `d` to `state`, keeping the counters; a finished delivery past the cap evicts the oldest finished one. */
  setState(d: Delivery, state: DeliveryState): void;
  /** Counts a refusal (the delivery itself is added and finished as usual). */
  refused(): void;
  get(id: string): Delivery | undefined;
  /** Every kept delivery, oldest first. */
  all(): Iterable<Delivery>;
  /** Kept deliveries of one URL, oldest first. */
  ofUrl(url: string): Iterable<Delivery>;
  /** The ordered sources a page with `filter` walks: the narrowest index the filter allows. */
  sources(filter: DeliveryFilter): OrderedSource<Delivery>[];
  /** Unfinished deliveries kept. */
  pending(): number;
  counts(): DeliveryCounts;
  clear(): void;
}

const PENDING: ReadonlySet<DeliveryState> = new Set(['queued', 'sending', 'retry-scheduled']);

/** Whether `d` passes `filter`. */
export function deliveryMatches(d: Delivery, filter: DeliveryFilter): boolean {
  const state = filter.state;
  if (state !== undefined && (state === 'pending' ? !PENDING.has(d.state) : d.state !== state)) return false;
  return (
    (filter.paymentUuid === undefined || d.paymentUuid === filter.paymentUuid) &&
    (filter.clientId === undefined || d.clientId === filter.clientId) &&
    (filter.url === undefined || d.url === filter.url)
  );
}

function emptyByState(): Record<DeliveryState, number> {
  return { queued: 0, sending: 0, 'retry-scheduled': 0, delivered: 0, failed: 0, gone: 0 };
}

function indexed(map: Map<string, SeqList<Delivery>>, key: string): SeqList<Delivery> {
  let list = map.get(key);
  if (!list) {
    list = new SeqList();
    map.set(key, list);
  }
  return list;
}

/**
 * Creates an empty store. `nextSeq` is shared by the dispatchers of one mock, so their pages merge in order.
 *
 * @example
 * const store = createDeliveryStore({ maxFinished: 10_000, nextSeq: () => ++seq });
 */
export function createDeliveryStore(options: {
  readonly maxFinished: number;
  readonly nextSeq: () => number;
}): DeliveryStore {
  const primary = new SeqList<Delivery>();
  const byId = new Map<string, Delivery>();
  const byPayment = new Map<string, SeqList<Delivery>>();
  const byClient = new Map<string, SeqList<Delivery>>();
  const byUrl = new Map<string, SeqList<Delivery>>();
  /** Finished deliveries in finish order, with the finish mark that makes a stale entry (redelivered since) skippable. */
  const finished = new KeyQueue<readonly [Delivery, number]>();
  let byState = emptyByState();
  let finishedKept = 0;
  let evicted = 0;
  let refused = 0;
  let version = 0;

  function evict(d: Delivery): void {
    primary.delete(d.seq);
    byId.delete(d.id);
    for (const [map, key] of [
      [byPayment, d.paymentUuid],
      [byClient, d.clientId],
      [byUrl, d.url],
    ] as const) {
      const list = map.get(key);
      list?.delete(d.seq);
      if (list?.size === 0) map.delete(key);
    }
    byState[d.state] -= 1;
    finishedKept -= 1;
    evicted += 1;
  }

  function evictBeyondCap(): void {
    while (finishedKept > options.maxFinished) {
      const entry = finished.shift();
      if (entry === undefined) return;
      const [d, mark] = entry;
      if (d.finishMark === mark && TERMINAL.has(d.state) && byId.get(d.id) === d) evict(d);
    }
  }

  return {
    add(d) {
      d.seq = options.nextSeq();
      primary.push(d.seq, d);
      byId.set(d.id, d);
      indexed(byPayment, d.paymentUuid).push(d.seq, d);
      indexed(byClient, d.clientId).push(d.seq, d);
      indexed(byUrl, d.url).push(d.seq, d);
      byState[d.state] += 1;
      version += 1;
    },
    setState(d, state) {
      const was = d.state;
      version += 1;
      if (was === state) return;
      byState[was] -= 1;
      byState[state] += 1;
      d.state = state;
      const wasDone = TERMINAL.has(was);
      const isDone = TERMINAL.has(state);
      if (wasDone && !isDone) finishedKept -= 1;
      if (!wasDone && isDone) {
        finishedKept += 1;
        d.finishMark += 1;
        finished.push([d, d.finishMark]);
        evictBeyondCap();
      }
    },
    refused() {
      refused += 1;
    },
    get: (id) => byId.get(id),
    *all() {
      for (const [, d] of primary.oldestFirst()) yield d;
    },
    *ofUrl(url) {
      const list = byUrl.get(url);
      if (list) for (const [, d] of list.oldestFirst()) yield d;
    },
    sources(filter) {
      const narrow =
        filter.paymentUuid !== undefined
          ? byPayment.get(filter.paymentUuid)
          : filter.url !== undefined
            ? byUrl.get(filter.url)
            : filter.clientId !== undefined
              ? byClient.get(filter.clientId)
              : primary;
      return narrow ? [narrow] : [];
    },
    pending: () => byState.queued + byState.sending + byState['retry-scheduled'],
    counts() {
      const pending = byState.queued + byState.sending + byState['retry-scheduled'];
      return { byState: { ...byState }, kept: primary.size, pending, evicted, refused, version };
    },
    clear() {
      primary.clear();
      byId.clear();
      byPayment.clear();
      byClient.clear();
      byUrl.clear();
      finished.clear();
      byState = emptyByState();
      finishedKept = 0;
      evicted = 0;
      refused = 0;
      version += 1;
    },
  };
}

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
