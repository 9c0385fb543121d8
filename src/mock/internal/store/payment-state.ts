/**
 * The card accounts, payments and due settlements a shared store holds for every replica (decision 0040, steps 4
 * and 5): what the payment state and the settlement ask of it when the sandbox's payments live in Redis rather than
 * in each process. Memory and the file store have no such port: the payment state keeps its maps in process
 * (domain/payments.ts) and the file store journals its records.
 *
 * Every method is one atomic step on the store, in the current epoch, so a payment accepted through one replica is
 * read by the very next request through any other. A settlement is claimed before it is made: a claim moves due
 * payments to an in-flight set with a real-time deadline and a claim token; only the holder of that token settles
 * them, and a claim that outlives its deadline (its replica died) is taken again by the next claim.
 *
 * @module
 */
import type { Page, PageQuery } from '../history/page.ts';
import type { DeliveryCaps, NewDelivery } from './delivery-state.ts';
import type { CardAccount, SettlementOutcome, StoredPayment } from './stored.ts';

/** The bounds every payment write keeps, per client. */
export interface PaymentCaps {
  /** Most payments kept per client: the oldest settled one goes first, else the oldest one. */
  readonly paymentsPerClient: number;
  /** Most card accounts kept per client: the oldest goes first. */
  readonly cardAccountsPerClient: number;
}

/** What {@link PaymentStatePort.accept} answers. */
export interface AcceptedPayment {
  /** The payment's place in the history (one sequence over all clients, as in memory): its page cursor. */
  readonly seq: number;
  /** Whether the card account the payment carried was new (written by this call). */
  readonly accountCreated: boolean;
  /** Payments evicted by the per-client cap to make room. */
  readonly evicted: number;
}

/** A payment on a page: the stored payment and its sequence number in the history (the cursor). */
export type PagedPayment = StoredPayment & { readonly seq: number };

/** Filters of a page of payments; every given one must match. */
export interface PaymentFilter {
  readonly clientId?: string | undefined;
  /** Status name (`processing`, `success`, `failure` by default). */
  readonly status?: string | undefined;
  readonly uuid?: string | undefined;
}

/** Counters of the payment history, kept as payments come, settle and go (never counted by a scan). */
export interface StoredPaymentCounts {
  /** Payments kept, all clients. */
  readonly kept: number;
  /** Kept payments not settled yet. */
  readonly processing: number;
  /** Payments evicted by the per-client cap since the last reset. */
  readonly evicted: number;
  /** Moves with every accepted, settled or evicted payment and with every reset: a poller compares it. */
  readonly version: number;
}

/** Due payments claimed by one replica, to settle before the claim's real-time deadline. */
export interface SettlementClaim {
  /** Names this claim: only it settles these payments, until another claim takes them after the deadline. */
  readonly token: string;
  /** The claimed payments' uuids: those taken back from a lapsed claim first, then the due ones, earliest first. */
  readonly uuids: readonly string[];
  /** Virtual time (sandbox clock, ms) the earliest payment still due later is due at; undefined when none is. */
  readonly nextDueAt: number | undefined;
}

/** How {@link PaymentStatePort.settle} settles a payment. */
export interface PaymentSettlement {
  readonly outcome: SettlementOutcome;
  /**
   * The status name the outcome has (`Assumptions.statusNames.success` or `.failure`): the store holds no
   * assumptions, and a page's status filter matches the name as written.
   */
  readonly status: string;
  /** Virtual time of the settlement (ms since the epoch): the payment's `settledAt`. */
  readonly at: number;
}

/** The webhook deliveries a settlement enqueues in its own step, and the bounds they are kept within. */
export interface SettlementDeliveries {
  readonly items: readonly NewDelivery[];
  readonly caps: Pick<DeliveryCaps, 'maxDeliveries' | 'maxPendingDeliveries'>;
}

/** The shared payment state; every method may reject with `StoreUnavailableError`. */
export interface PaymentStatePort {
  /** Writes `account` unless its uid is known for its client (two replicas deriving one uid write it once). */
  registerCard(account: CardAccount, caps: PaymentCaps): Promise<{ readonly created: boolean }>;
  /** The card account of `uid` for `clientId`, or undefined (unknown, or another client's). */
  cardAccount(clientId: string, uid: string): Promise<CardAccount | undefined>;
  /**
   * Accepts `payment` in one step: its card account when new (as {@link registerCard}), the payment, its place in
   * the client's history (the cap evicting in the same step) and, with `dueAt` (virtual ms), its due entry. With
   * `accountNamed` (the payment named its card account by uid, read before), the account must still be kept:
   * another replica's cap may have evicted it since, and then nothing is written and the answer is undefined, as
   * memory refuses an unknown uid.
   */
  accept(
    payment: StoredPayment,
    account: CardAccount,
    dueAt: number | undefined,
    caps: PaymentCaps,
    accountNamed?: boolean,
  ): Promise<AcceptedPayment | undefined>;
  /** One payment by uuid, of one client or (clientId undefined) of any. */
  payment(clientId: string | undefined, uuid: string): Promise<StoredPayment | undefined>;
  /** A page of payments as domain/payments.ts pages them: newest first, or oldest first after `after`. */
  page(query: Required<Pick<PageQuery, 'limit'>> & PageQuery, filter: PaymentFilter): Promise<Page<PagedPayment>>;
  /** The counters of the history. */
  counts(): Promise<StoredPaymentCounts>;
  /**
   * Claims, for `visibilityMs` of real time, up to `max` payments: first those of a claim whose deadline passed (its
   * replica stalled or died), then those due at or before the sandbox's virtual now. `realNow` is the caller's real
   * time (ms; its clock's source): the virtual now is `realNow` plus the epoch's clock offset, read in the same step
   * (as clock.ts adds its offset to real time), and the deadline `realNow + visibilityMs`. Replicas' real clocks are
   * taken to agree, as the due times they write already require.
   */
  claimDue(max: number, visibilityMs: number, realNow: number): Promise<SettlementClaim>;
  /**
   * Settles one payment as `settlement` says, when it is still processing and, with `claimToken`, only while that
   * claim holds it (the control API settles without one). A settlement made now enqueues `deliveries` (its webhook
   * events, as the delivery port's `enqueue` takes them) in the same step; a refused or repeated one enqueues
   * nothing. Answers the payment as it stands after the call, or undefined when it is unknown: settled now; settled
   * already, unchanged; still processing when the claim no longer held it (the refusal).
   */
  settle(
    uuid: string,
    settlement: PaymentSettlement,
    claimToken: string | undefined,
    deliveries?: SettlementDeliveries,
  ): Promise<StoredPayment | undefined>;
}

/** The card half of the port as the payment state gets it from the composition root (decision 0040, step 4). */
export interface SharedCardAccounts {
  readonly port: Pick<PaymentStatePort, 'registerCard' | 'cardAccount'>;
  /** Tracks a write the answer waits for, as the token state's background writes are tracked. */
  background(write: Promise<unknown>): void;
}
