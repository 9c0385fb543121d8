/**
 * With a state store, a settled payment's webhooks go out only once its settlement record is durable (issue 23). A
 * receiver that acts on a webhook may ask any replica about the payment straight away: that replica (or one rebuilt
 * from a snapshot) can only know the outcome the store holds. Sent before, the webhook announced an outcome no other
 * replica could see yet, and one that a crash before the append would have let another replica settle again.
 *
 * @module
 */
import type { StoredPayment } from '../payments/state.ts';
import type { StateSync } from './state-sync.ts';

/** What the wrapper needs: the sync layer (bound after the settlement exists), the view and the delivery. */
export interface DeliverWhenDurableDeps {
  /** The sync layer; undefined until bound (nothing settles before it is). */
  readonly sync: () => Pick<StateSync, 'after'> | undefined;
  /** The payment as the view holds it now (undefined once reset or evicted). */
  readonly current: (uuid: string) => StoredPayment | undefined;
  /** Starts the payment's webhook deliveries. */
  readonly deliver: (payment: StoredPayment) => void;
}

/**
 * The settlement's `settled` callback: delivers once the records made so far (the `set` record among them) are
 * durable. A failed append delivers nothing: the store marks the view stale, and the view rebuilt from the store
 * settles the payment again. A payment the view no longer holds as the same object (a reset, or a rebuild whose
 * own replay hands the delivery to the webhook takeover) is not delivered here.
 *
 * @example
 * const settled = deliverWhenDurable({ sync: () => sync, current: (u) => state.payment(undefined, u), deliver });
 */
export function deliverWhenDurable(deps: DeliverWhenDurableDeps): (payment: StoredPayment) => void {
  return (payment) => {
    const durable = deps.sync()?.after();
    if (durable === undefined) {
      deps.deliver(payment);
      return;
    }
    durable.then(
      () => {
        if (deps.current(payment.uuid) === payment) deps.deliver(payment);
      },
      () => undefined,
    );
  };
}
