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
 * @module
 */

import type { DeliveryCounts, DeliveryFilter } from '../domain/stored.ts';
import type { OrderedSource } from '../history/page.ts';
import { KeyQueue, SeqList } from '../ordered-lists.ts';
import { type Delivery, type DeliveryState, TERMINAL } from './delivery-record.ts';

export type { DeliveryCounts, DeliveryFilter } from '../domain/stored.ts';

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
