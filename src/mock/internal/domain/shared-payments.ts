/**
 * The payments of a shared sandbox (a Redis store, decision 0040): kept in the store, not in this process. A payment
 * is accepted in one step (`accept`, with its due entry), read back through the store by every replica, and settled
 * by whichever replica claims it once it is due: one poller per replica claims due settlements and then due webhook
 * attempts, so a replica that dies leaves its claims to lapse and another takes them over.
 *
 * A settlement keeps its webhooks' deliveries in its own step (the port's `settle`), so no replica can die between a
 * settled payment and the deliveries it owes.
 *
 * @module
 */
import type { Assumptions } from '../../../assumptions.ts';
import { errorLine, kitMessage } from '../../../internal/messages.ts';
import { checkPageQuery, type Page, type PageQuery, readAllPages } from '../history/page.ts';
import type {
  PagedPayment,
  PaymentCaps,
  PaymentFilter,
  PaymentStatePort,
  SettlementDeliveries,
  StoredPaymentCounts,
} from '../store/payment-state.ts';
import type { CardAccount, SettlementOutcome, StoredPayment } from '../store/stored.ts';
import type { Clock, ScheduledTask } from './clock.ts';
import type { EventBus } from './events.ts';
import { finalOutcome } from './payments.ts';
import { type SettleResult, settlementDueAt } from './settlement.ts';

/** The webhook side of the poller: what a settlement enqueues, and one round of due attempts. */
export interface SharedDeliveryRounds {
  /** The deliveries a payment settled just now owes (undefined: its client has no webhook URL). */
  deliveriesOf(settled: StoredPayment): SettlementDeliveries | undefined;
  /** Sends the attempts due now; resolves with when the next one is due (virtual ms). */
  poll(): Promise<{ readonly nextDueAt: number | undefined }>;
}

/** Dependencies of {@link createSharedPayments}. */
export interface SharedPaymentsDeps {
  readonly port: PaymentStatePort;
  readonly assumptions: Pick<Assumptions, 'settleDelayMs' | 'statusNames' | 'store'>;
  readonly caps: PaymentCaps;
  readonly clock: Clock;
  /** The clock's real time source: the store adds its clock offset to it. */
  readonly realNow: () => number;
  /** The webhooks' rounds; undefined: settled payments owe none. */
  readonly deliveries?: SharedDeliveryRounds | undefined;
  readonly events?: EventBus | undefined;
  /** Tracks a write the next answer waits for (the store's background writes). */
  readonly background: (write: Promise<unknown>) => void;
  /** Resolves once the background writes in flight are done; undefined when none is. */
  readonly idle: () => Promise<void> | undefined;
  /** Hears a poll that failed (the store down): the poller tries again at its interval. */
  readonly onError: (line: string) => void;
}

/** The shared payments of one replica. */
export interface SharedPayments {
  /**
   * Accepts `payment` (with its due entry); resolves false when refused: the card account it named is gone. Rejects
   * with the store's error when it is down.
   */
  accept(payment: StoredPayment, account: CardAccount, byCardAccount: boolean): Promise<boolean>;
  /** Every kept payment of one client or of all, oldest first. */
  payments(clientId?: string): Promise<StoredPayment[]>;
  /** A page of payments; the query is checked (400 on a mistake). */
  page(query: PageQuery | undefined, filter: PaymentFilter): Promise<Page<PagedPayment>>;
  counts(): Promise<StoredPaymentCounts & { readonly capPerClient: number }>;
  /** Settles a processing payment now (the control API), with the card's outcome unless `outcome` is given. */
  settleNow(uuid: string, outcome?: SettlementOutcome): Promise<SettleResult>;
  /** One poll of this replica (settlements, then webhook attempts) that starts after this call. */
  poll(): Promise<void>;
  /**
   * After a clock move: one poll once the move is written (a background write), which the next answer waits for, so
   * an advance is answered once what it made due is settled.
   */
  clockMoved(): void;
  /** Forgets the poller's timers (the store's reset emptied what it claims from). */
  reset(): void;
  /** Stops polling and waits for the poll in flight. */
  close(): Promise<void>;
}

/** Most settlements one poll claims; more due are claimed by the next poll, at once. */
const claimBatch = 256;

/**
 * Creates the shared payments and their poller. The poller runs at the store's follow interval (to take over what a
 * dead replica claimed and what other replicas made due) and at the earliest due time it knows of.
 */
export function createSharedPayments(deps: SharedPaymentsDeps): SharedPayments {
  const { port, clock, assumptions } = deps;
  const settle = settlerOf(deps);
  const poller = createDuePoller(clock, assumptions.store.followIntervalMs, deps.onError, async (wakeAt) => {
    for (;;) {
      const claim = await port.claimDue(claimBatch, assumptions.store.leaseMs, deps.realNow());
      await Promise.all(
        claim.uuids.map(async (uuid) => {
          const p = await port.payment(undefined, uuid);
          if (p !== undefined && p.settledOutcome === undefined) await settle(p, finalOutcome(p), claim.token);
        }),
      );
      wakeAt(claim.nextDueAt);
      if (claim.uuids.length < claimBatch) break;
    }
    for (let more = deps.deliveries !== undefined; more; ) {
      const { nextDueAt } = await deps.deliveries!.poll();
      more = nextDueAt !== undefined && nextDueAt <= clock.now();
      if (!more) wakeAt(nextDueAt);
    }
  });

  return {
    async accept(payment, account, byCardAccount) {
      const dueAt = settlementDueAt(payment, clock.now(), assumptions.settleDelayMs);
      // A store failure rejects: the resolver's answer becomes the store's 503 (http/routes.ts).
      const accepted = await port.accept(payment, account, dueAt, deps.caps, byCardAccount);
      if (accepted === undefined) return false;
      const { clientId, card_account_uid: cardAccountUid, uuid, guide } = payment;
      if (accepted.accountCreated)
        deps.events?.emit({ kind: 'card.account-created', clientId, cardAccountUid, account });
      deps.events?.emit({ kind: 'payment.accepted', clientId, uuid, guide, byCardAccount, payment: { ...payment } });
      poller.wakeAt(dueAt);
      return true;
    },
    async payments(clientId) {
      const paged = await readAllPages((query) => port.page(query, { clientId }));
      return paged.map(({ seq: _seq, ...p }) => p);
    },
    page: (query, filter) => port.page(checkPageQuery(query, 'paymentPage'), filter),
    counts: async () => ({ ...(await port.counts()), capPerClient: deps.caps.paymentsPerClient }),
    async settleNow(uuid, outcome) {
      const p = await port.payment(undefined, uuid);
      if (p === undefined) return { ok: false, problem: 'unknown' };
      if (p.settledOutcome !== undefined) return { ok: false, problem: 'already-settled', payment: p };
      const { after, madeNow } = await settle(p, finalOutcome(p, outcome), undefined);
      if (after === undefined) return { ok: false, problem: 'unknown' };
      if (!madeNow) return { ok: false, problem: 'already-settled', payment: after };
      // Its webhooks are due now: sent without waiting for the next poll.
      void poller.pollAfter();
      return { ok: true, payment: after };
    },
    poll: () => poller.pollAfter(),
    clockMoved() {
      deps.background((deps.idle() ?? Promise.resolve()).then(poller.pollAfter));
    },
    reset: () => poller.reset(),
    close: () => poller.close(),
  };
}

/** Settles a payment in the store (under `token`, or as the control API without one), telling of one made now. */
function settlerOf(deps: SharedPaymentsDeps) {
  const { statusNames } = deps.assumptions;
  return async (p: StoredPayment, outcome: SettlementOutcome, token: string | undefined) => {
    const at = deps.clock.now();
    const status = outcome === 'success' ? statusNames.success : statusNames.failure;
    const settled: StoredPayment = { ...p, status, settledOutcome: outcome, settledAt: at };
    const after = await deps.port.settle(
      p.uuid,
      { outcome, status, at },
      token,
      deps.deliveries?.deliveriesOf(settled),
    );
    const madeNow = after?.settledOutcome === outcome && after.settledAt === at;
    if (madeNow) deps.events?.emit({ kind: 'payment.settled', clientId: p.clientId, uuid: p.uuid, outcome, at });
    return { after, madeNow };
  };
}

/**
 * Runs `round` (one claim of due work) at the follow interval, at the virtual times it asks to be woken at, and on
 * demand; rounds never overlap, and a poll asked for while one runs is one more round after it.
 */
function createDuePoller(
  clock: Clock,
  followIntervalMs: number,
  onError: (line: string) => void,
  round: (wakeAt: (dueAt: number | undefined) => void) => Promise<void>,
) {
  let closed = false;
  let running: Promise<void> | undefined;
  let again = false;
  let wake: ScheduledTask | undefined;

  /** Arms the virtual-time wake-up for `dueAt` unless an earlier one is armed. */
  function wakeAt(dueAt: number | undefined): void {
    if (dueAt === undefined || closed || (wake !== undefined && wake.dueAt <= dueAt)) return;
    wake?.cancel();
    wake = clock.schedule(dueAt - clock.now(), () => {
      wake = undefined;
      void poll();
    });
  }

  function poll(): Promise<void> {
    if (closed) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    const run = async () => {
      do {
        again = false;
        try {
          await round(wakeAt);
        } catch (error) {
          onError(kitMessage(`settling due payments in the shared store failed: ${errorLine(error)}`));
        }
      } while (again && !closed);
    };
    running = run().finally(() => {
      running = undefined;
    });
    return running;
  }

  // Takes over lapsed claims and what other replicas made due; unref'd, so it never keeps a process alive.
  const follow = setInterval(() => void poll(), followIntervalMs);
  (follow as { unref?: () => void }).unref?.();

  return {
    wakeAt,
    /** A poll that starts after this call: after the one in flight, if any. */
    pollAfter: (): Promise<void> => (running ? running.then(poll) : poll()),
    reset() {
      wake?.cancel();
      wake = undefined;
    },
    async close() {
      closed = true;
      clearInterval(follow);
      wake?.cancel();
      await running;
    },
  };
}
