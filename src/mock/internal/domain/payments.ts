/**
 * Per-client state of the mock: card accounts and payments, keyed by client id, bounded, resettable.
 *
 * What a card account keeps of a card and how its uid is derived: domain/cards.ts.
 *
 * The mock is single-threaded, but requests interleave with clock tasks (settlement); every method works on the
 * current maps without holding iterators across calls, and list methods return copies.
 *
 * @module
 */
import type { Assumptions } from '../../../assumptions.ts';
import { checkPageQuery, collectPage, type Page, type PageQuery } from '../history/page.ts';
import type {
  PagedPayment,
  PaymentCaps,
  PaymentFilter,
  SharedCardAccounts,
  StoredPaymentCounts,
} from '../store/payment-state.ts';
import {
  numberField,
  type RecordApplier,
  type RecordBody,
  type Recorder,
  type RecordSnapshot,
  textField,
} from '../store/records.ts';
import type { CardAccount, CardAccountInput, SettlementOutcome, StoredPayment } from '../store/stored.ts';
import { type ClientCards, cardAccountOf, cardUid, createCard } from './cards.ts';
import type { EventBus, PaymentAccepted } from './events.ts';
import { KeyQueue, SeqList } from './ordered-lists.ts';

export type { CardAccount, CardAccountInput, Guide, SettlementOutcome, StoredPayment } from '../store/stored.ts';

/** Options of {@link createMockState}. */
export interface MockStateOptions {
  /** Assumptions (card type detection, status names). */
  readonly assumptions: Pick<Assumptions, 'cardTypes' | 'statusNames'>;
  /** Key for deriving card account uids; use the instance seed so uids repeat across runs. */
  readonly seed: string;
  /** The platform's SHA-256 (hex), which derives card account uids. */
  readonly sha256Hex: (text: string) => string;
  /**
   * Most payments kept per client. When a new payment would exceed it, the oldest settled payment is evicted;
   * when none is settled, the oldest payment. Default 10,000.
   */
  readonly maxPaymentsPerClient?: number;
  /** Virtual time source for `settledAt`; the mock passes its clock. Defaults to `Date.now`. */
  readonly now?: () => number;
  /** Most card accounts kept per client; the oldest is evicted first. Default 10,000. */
  readonly maxCardAccountsPerClient?: number;
  /** Receives a record of every change when a state store is configured; undefined with memory. */
  readonly record?: Recorder | undefined;
  /** Where every change is told: `card.account-created`, `payment.accepted`, `payment.settled`. */
  readonly events?: EventBus | undefined;
  /** The card accounts a shared store holds for every replica (Redis); undefined: they are kept here. */
  readonly sharedCards?: SharedCardAccounts | undefined;
  /**
   * The payments a shared store holds for every replica (Redis; shared-payments.ts): `accept` writes one
   * there and resolves whether it was kept. Undefined: they are kept here.
   */
  readonly sharedPayments?:
    | { accept(payment: StoredPayment, account: CardAccount, byCardAccount: boolean): Promise<boolean> }
    | undefined;
}

export type { PagedPayment, PaymentFilter } from '../store/payment-state.ts';

/** Counters of the payment history, with the cap they are kept under. */
export interface PaymentCounts extends StoredPaymentCounts {
  /** The cap per client. */
  readonly capPerClient: number;
}

/** The mock's per-client store. */
export interface MockState {
  /**
   * Returns the card account for these details, creating it on first use (stable uid per client and card).
   * Throws when the card type is not detected: callers validate first. `carried`: a payment carries the account to
   * the shared store that holds them (its `accept` writes it), so it is not written here; without one it changes
   * nothing.
   */
  upsertCardAccount(clientId: string, card: CardAccountInput, carried?: boolean): CardAccount;
  /** The card account of a uid for this client, or undefined (unknown, or another client's). */
  cardAccount(clientId: string, cardAccountUid: string): CardAccount | undefined;
  /**
   * Reads a card account from the shared store that holds them (where {@link MockState.cardAccount} knows none);
   * undefined without one.
   */
  readonly readSharedCardAccount:
    | ((clientId: string, cardAccountUid: string) => Promise<CardAccount | undefined>)
    | undefined;
  /**
   * Stores an accepted payment, evicting per the cap. `byCardAccount`: the payment named a stored card account
   * instead of card details (told on the `payment.accepted` event). With a shared store the payment is written
   * there (with `account`, which it carries) and the promise says whether it was kept: false when the card account
   * it named was evicted by another replica since it was read; in process it is kept at once (undefined).
   */
  addPayment(payment: StoredPayment, byCardAccount?: boolean, account?: CardAccount): Promise<boolean> | undefined;
  /** One payment by uuid, for one client or (clientId undefined) any client. */
  payment(clientId: string | undefined, uuid: string): StoredPayment | undefined;
  /** Payments of one client or of all clients, oldest first (a copy). */
  payments(clientId?: string): StoredPayment[];
  /**
   * Settles a payment: sets the final status and outcome. `outcome` defaults to the card's outcome (`failure` for
   * the failure test card, else `success`). Returns the settled payment, or undefined when no such payment exists.
   * Settling an already settled payment changes nothing and returns it as it is.
   */
  settlePayment(clientId: string | undefined, uuid: string, outcome?: SettlementOutcome): StoredPayment | undefined;
  /** A page of payments, newest first unless `query.after` is given; the query is checked (400 on a mistake). */
  paymentPage(query?: PageQuery, filter?: PaymentFilter): Page<PagedPayment>;
  /** The counters of the payment history. */
  paymentCounts(): PaymentCounts;
  /** Forgets every payment and card account. */
  reset(): void;
  /** The per-client bounds it keeps. */
  readonly caps: PaymentCaps;
  /** Takes back a `card`, `pay` or `set` record of a state store. */
  readonly apply: RecordApplier['apply'];
  /** The `card`, `pay` and `set` records that rebuild this state (a state store's compaction). */
  readonly snapshot: RecordSnapshot['snapshot'];
}

/** A kept payment and its sequence number in the history. */
interface PaymentEntry {
  readonly payment: StoredPayment;
  readonly seq: number;
}

interface ClientState extends ClientCards {
  readonly payments: Map<string, PaymentEntry>;
  /** Payments in acceptance order by sequence number: the pages and the "oldest payment" of the eviction rule. */
  readonly accepted: SeqList<StoredPayment>;
  /** Uuids of settled payments in settlement order: evicted first. Evicted ones are skipped likewise. */
  readonly settled: KeyQueue<string>;
}

/**
 * Creates an empty state.
 *
 * @example
 * const state = createMockState({ assumptions: defaultAssumptions, seed: 'seed', sha256Hex: platform.crypto.sha256Hex });
 */
export function createMockState(options: MockStateOptions): MockState {
  const { assumptions, seed, sha256Hex, record, sharedCards: shared } = options;
  const maxPayments = options.maxPaymentsPerClient ?? 10_000;
  const maxCards = options.maxCardAccountsPerClient ?? 10_000;
  const now = options.now ?? Date.now;
  const caps: PaymentCaps = { paymentsPerClient: maxPayments, cardAccountsPerClient: maxCards };
  const clients = new Map<string, ClientState>();
  // One sequence across clients, so pages of every client merge in acceptance order.
  let seq = 0;
  let processing = 0;
  let evicted = 0;
  let version = 0;

  function client(clientId: string): ClientState {
    let c = clients.get(clientId);
    if (!c) {
      c = { cards: new Map(), payments: new Map(), accepted: new SeqList(), settled: new KeyQueue() };
      clients.set(clientId, c);
    }
    return c;
  }

  /**
   * A payment of one client, or (clientId undefined, control API) of any: clients are few, and an index of uuid →
   * client would cost a Map write and delete per payment on the hot path.
   */
  function find(clientId: string | undefined, uuid: string): StoredPayment | undefined {
    if (clientId !== undefined) return clients.get(clientId)?.payments.get(uuid)?.payment;
    for (const c of clients.values()) {
      const p = c.payments.get(uuid);
      if (p) return p.payment;
    }
    return undefined;
  }

  /** Shifts `queue` past keys no longer kept and returns the oldest kept one. */
  function oldestKept(c: ClientState, queue: KeyQueue<string>): string | undefined {
    for (let key = queue.shift(); key !== undefined; key = queue.shift()) if (c.payments.has(key)) return key;
    return undefined;
  }

  function evictOne(c: ClientState): void {
    // Oldest settled first (settlement order); when none is settled, the oldest payment (acceptance order).
    const victim = oldestKept(c, c.settled) ?? c.accepted.oldest()?.uuid;
    const entry = victim === undefined ? undefined : c.payments.get(victim);
    if (entry === undefined) return;
    c.payments.delete(entry.payment.uuid);
    c.accepted.delete(entry.seq);
    if (entry.payment.settledOutcome === undefined) processing -= 1;
    evicted += 1;
    version += 1;
  }

  function add(payment: StoredPayment): void {
    const c = client(payment.clientId);
    while (c.payments.size >= maxPayments) evictOne(c);
    seq += 1;
    c.payments.set(payment.uuid, { payment, seq });
    c.accepted.push(seq, payment);
    if (payment.settledOutcome === undefined) processing += 1;
    version += 1;
  }

  function settle(p: StoredPayment, final: SettlementOutcome, at: number): void {
    p.settledOutcome = final;
    p.settledAt = at;
    clients.get(p.clientId)?.settled.push(p.uuid);
    processing -= 1;
    version += 1;
    p.status = final === 'success' ? assumptions.statusNames.success : assumptions.statusNames.failure;
  }

  return {
    upsertCardAccount(clientId, card, carried = false) {
      const c = client(clientId);
      const uid = cardUid(c, seed, clientId, card, sha256Hex);
      if (shared)
        return keepShared(shared, cardAccountOf(uid, { clientId, card, assumptions }), caps, !carried, options);
      const known = c.cards.get(uid);
      if (known) return known;
      const account = createCard(c, uid, { clientId, card, maxCards, assumptions });
      if (record) record({ t: 'card', a: account });
      options.events?.emit({ kind: 'card.account-created', clientId, cardAccountUid: uid, account });
      return account;
    },
    cardAccount: (clientId, cardAccountUid) => clients.get(clientId)?.cards.get(cardAccountUid),
    readSharedCardAccount: shared && ((clientId, uid) => shared.port.cardAccount(clientId, uid)),
    addPayment(payment, byCardAccount = false, account) {
      if (options.sharedPayments && account) return options.sharedPayments.accept(payment, account, byCardAccount);
      add(payment);
      if (record) record({ t: 'pay', p: { ...payment } });
      // Every payment passes here (a benchmarked path): the event and its copy are made only for a listener.
      if (options.events?.wants('payment.accepted')) options.events.emit(acceptedEvent(payment, byCardAccount));
      return undefined;
    },
    payment: find,
    payments: (clientId) => listPayments(clients, clientId),
    paymentPage: (query, filter = {}) => pagePayments(clients, checkPageQuery(query, 'paymentPage'), filter),
    paymentCounts: () => ({ kept: keptOf(clients), processing, evicted, capPerClient: maxPayments, version }),
    settlePayment(clientId, uuid, outcome) {
      const p = find(clientId, uuid);
      if (!p || p.settledOutcome !== undefined) return p;
      const final = finalOutcome(p, outcome);
      settle(p, final, now());
      if (record) record({ t: 'set', c: p.clientId, u: uuid, x: final, at: p.settledAt });
      options.events?.emit({ kind: 'payment.settled', clientId: p.clientId, uuid, outcome: final, at: p.settledAt! });
      return p;
    },
    caps,
    apply: (r) => applyStateRecord(r, { client, find, add, settle, maxCards }),
    snapshot: () => stateSnapshot(clients, assumptions.statusNames.processing),
    reset() {
      clients.clear();
      seq = 0;
      processing = 0;
      evicted = 0;
      version += 1;
    },
  };
}

/**
 * Writes an account to the shared store in the background (the answer waits for it; not when `write` is false: a
 * payment carries it) and tells of it once the store says it was new there: the uid is the same wherever it is
 * derived, so two replicas write it once.
 */
function keepShared(
  on: SharedCardAccounts,
  account: CardAccount,
  caps: PaymentCaps,
  write: boolean,
  { events }: Pick<MockStateOptions, 'events'>,
): CardAccount {
  if (!write) return account;
  on.background(
    on.port.registerCard(account, caps).then(({ created }) => {
      const { clientId, card_account_uid: cardAccountUid } = account;
      if (created) events?.emit({ kind: 'card.account-created', clientId, cardAccountUid, account });
    }),
  );
  return account;
}

/** How many payments are kept, all clients. */
function keptOf(clients: ReadonlyMap<string, ClientState>): number {
  let kept = 0;
  for (const c of clients.values()) kept += c.payments.size;
  return kept;
}

/** The `payment.accepted` event of `payment`, with a copy of it (later changes do not show through). */
function acceptedEvent(payment: StoredPayment, byCardAccount: boolean): PaymentAccepted {
  const { clientId, uuid, guide } = payment;
  return { kind: 'payment.accepted', clientId, uuid, guide, byCardAccount, payment: { ...payment } };
}

/** Every payment kept (of one client, or of all in acceptance order), oldest first. */
function listPayments(clients: ReadonlyMap<string, ClientState>, clientId: string | undefined): StoredPayment[] {
  const lists = clientId === undefined ? [...clients.values()] : [clients.get(clientId)].filter((c) => c !== undefined);
  const all: [number, StoredPayment][] = [];
  for (const c of lists) for (const entry of c.accepted.oldestFirst()) all.push(entry);
  if (lists.length > 1) all.sort((a, b) => a[0] - b[0]);
  return all.map(([, p]) => p);
}

/** A page of payments: a uuid filter reads the map, a client filter that client's list, else every client's merged. */
function pagePayments(
  clients: ReadonlyMap<string, ClientState>,
  query: ReturnType<typeof checkPageQuery>,
  filter: PaymentFilter,
): Page<PagedPayment> {
  let lists: SeqList<StoredPayment>[];
  if (filter.uuid !== undefined) {
    const one = new SeqList<StoredPayment>();
    for (const c of clients.values()) {
      const entry = c.payments.get(filter.uuid);
      if (entry && (filter.clientId === undefined || entry.payment.clientId === filter.clientId))
        one.push(entry.seq, entry.payment);
    }
    lists = [one];
  } else if (filter.clientId !== undefined) {
    const c = clients.get(filter.clientId);
    lists = c ? [c.accepted] : [];
  } else lists = [...clients.values()].map((c) => c.accepted);
  const keep = (p: StoredPayment) =>
    (filter.status === undefined || p.status === filter.status) &&
    (filter.uuid === undefined || p.uuid === filter.uuid);
  return collectPage(lists, query, keep, (p, seq) => ({ ...p, seq }));
}

/**
 * The records that rebuild `clients`: card accounts in their eviction order, payments in acceptance order as they
 * were accepted (processing), then the settlements in settlement order, so eviction order survives a rebuild.
 */
function stateSnapshot(clients: ReadonlyMap<string, ClientState>, processing: string): RecordBody[] {
  const out: RecordBody[] = [];
  const accepted: [number, StoredPayment][] = [];
  for (const c of clients.values()) {
    for (const a of c.cards.values()) out.push({ t: 'card', a });
    accepted.push(...c.accepted.oldestFirst());
  }
  accepted.sort((x, y) => x[0] - y[0]);
  for (const [, p] of accepted) {
    out.push({ t: 'pay', p: { ...p, status: processing, settledOutcome: undefined, settledAt: undefined } });
  }
  for (const c of clients.values()) {
    const seen = new Set<string>();
    for (const u of c.settled.toArray()) {
      const p = c.payments.get(u)?.payment;
      if (p === undefined || p.settledOutcome === undefined || seen.has(u)) continue;
      seen.add(u);
      out.push({ t: 'set', c: p.clientId, u, x: p.settledOutcome, at: p.settledAt });
    }
  }
  return out;
}

/** Replays a `card`, `pay` or `set` record through the state's own operations. */
function applyStateRecord(
  r: Parameters<RecordApplier['apply']>[0],
  ops: {
    readonly client: (clientId: string) => ClientState;
    readonly find: (clientId: string | undefined, uuid: string) => StoredPayment | undefined;
    readonly add: (payment: StoredPayment) => void;
    readonly settle: (p: StoredPayment, final: SettlementOutcome, at: number) => void;
    readonly maxCards: number;
  },
): void {
  if (r.t === 'card') {
    const a = r.a as CardAccount;
    const c = ops.client(a.clientId);
    if (!c.cards.has(a.card_account_uid) && c.cards.size >= ops.maxCards) {
      const oldest = c.cards.keys().next().value;
      if (oldest !== undefined) c.cards.delete(oldest);
    }
    c.cards.set(a.card_account_uid, a);
  } else if (r.t === 'pay') {
    const p = r.p as StoredPayment;
    if (ops.find(p.clientId, p.uuid) === undefined) ops.add({ ...p });
  } else if (r.t === 'set') {
    const p = ops.find(textField(r, 'c'), textField(r, 'u'));
    if (p && p.settledOutcome === undefined)
      ops.settle(p, r.x === 'failure' ? 'failure' : 'success', numberField(r, 'at'));
  }
}

/** The outcome a payment settles with: `outcome` when given (the control API), else the one its card asks for. */
export function finalOutcome(p: StoredPayment, outcome?: SettlementOutcome): SettlementOutcome {
  return outcome ?? (p.outcome === 'failure' ? 'failure' : 'success');
}
