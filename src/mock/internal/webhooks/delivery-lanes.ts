/**
 * Ordering and retired URLs of the webhook dispatcher. Events of one payment reach one URL in order: each (payment,
 * URL) pair has a lane, and only its head is ever sent; a later event stays `queued` until the earlier one is
 * delivered, failed for good or gone. A URL that answered 410 Gone is retired: what waits for it, and what comes
 * later, ends as `gone` without being sent, until a redelivery to it revives it.
 *
 * @module
 */
import type { Clock } from '../clock.ts';
import type { Delivery, DeliveryFailureReason, DeliveryState } from './delivery-record.ts';

/** The lanes of one dispatcher. */
export interface DeliveryLanes {
  /** Puts a delivery in its lane; sends it when nothing of the same payment is ahead of it for that URL. */
  admit(d: Delivery): void;
  /** Ends a delivery and lets the next event of the same payment go to that URL. */
  finish(d: Delivery, state: 'delivered' | 'failed' | 'gone', reason?: DeliveryFailureReason): void;
  /**
   * After a 410 to `d`: retires its URL first (so the next event in line is not sent to it), ends `d` as gone, then
   * ends as gone what waits for that URL.
   */
  retire(d: Delivery): void;
  /** Switches a retired URL back on (an operator's redelivery). */
  revive(url: string): void;
  /** Forgets every lane and retired URL. */
  clear(): void;
}

/** What the lanes ask of the dispatcher. */
export interface LaneDeps {
  readonly clock: Clock;
  /** The kept deliveries of a URL, to find those waiting for it once it is retired. */
  ofUrl(url: string): Iterable<Delivery>;
  /** Moves a delivery to a state, keeping the history's counters. */
  setState(d: Delivery, state: DeliveryState): void;
  /** Starts an attempt of a lane's head. */
  send(d: Delivery): void;
  /** Tells waiters that `d` changed. */
  changed(d: Delivery): void;
  isClosed(): boolean;
}

/**
 * Creates the lanes of one dispatcher.
 *
 * @example
 * const lanes = createDeliveryLanes({ clock, ofUrl: store.ofUrl, setState: store.setState, send: attempt, changed, isClosed: () => closed });
 * lanes.admit(delivery);
 */
export function createDeliveryLanes(deps: LaneDeps): DeliveryLanes {
  /** Per payment and URL, the deliveries not yet finished, oldest first. */
  const lanes = new Map<string, Delivery[]>();
  const goneUrls = new Set<string>();

  function finish(d: Delivery, state: 'delivered' | 'failed' | 'gone', reason?: DeliveryFailureReason): void {
    d.task?.cancel();
    d.task = undefined;
    d.nextAttemptAt = undefined;
    d.reason = reason;
    deps.setState(d, state);
    if (state === 'delivered') d.deliveredAt = deps.clock.now();
    deps.changed(d);
    const lane = lanes.get(d.key);
    if (!lane) return;
    const at = lane.indexOf(d);
    if (at < 0) return;
    lane.splice(at, 1);
    if (lane.length === 0) lanes.delete(d.key);
    else if (at === 0) startHead(lane);
  }

  /** Sends the first delivery of a lane, unless its URL is retired (then it ends as gone and the next one goes). */
  function startHead(lane: readonly Delivery[]): void {
    const head = lane[0];
    if (head?.state !== 'queued' || deps.isClosed()) return;
    if (goneUrls.has(head.url)) finish(head, 'gone', 'url-gone');
    else deps.send(head);
  }

  return {
    admit(d) {
      if (goneUrls.has(d.url)) {
        finish(d, 'gone', 'url-gone');
        return;
      }
      deps.setState(d, 'queued');
      let lane = lanes.get(d.key);
      if (!lane) {
        lane = [];
        lanes.set(d.key, lane);
      }
      lane.push(d);
      if (lane.length === 1) startHead(lane);
      else deps.changed(d);
    },
    finish,
    retire(d) {
      goneUrls.add(d.url);
      finish(d, 'gone', 'receiver-gone');
      // What waits for that URL is recorded as gone, not dropped.
      const waiting = [...deps.ofUrl(d.url)].filter((w) => w.state === 'queued' || w.state === 'retry-scheduled');
      for (const w of waiting) finish(w, 'gone', 'url-gone');
    },
    revive(url) {
      goneUrls.delete(url);
    },
    clear() {
      lanes.clear();
      goneUrls.clear();
    },
  };
}
