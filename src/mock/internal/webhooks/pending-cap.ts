/**
 * The pending cap of a webhook dispatcher (`history.maxPendingDeliveries`): pending work is never evicted, so once
 * this process has that many unfinished deliveries a new one is refused (recorded as `failed`, reason `pending-cap`)
 * and a redelivery is turned down, each said once per episode in the log instead of once per refusal.
 *
 * @module
 */
import { kitMessage } from '../../../internal/messages.ts';
import type { Delivery } from './delivery-record.ts';
import type { DeliveryStore } from './delivery-store.ts';
import type { RedeliverResult } from './dispatcher-types.ts';

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
