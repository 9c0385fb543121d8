/**
 * Per-client state of the mock: card accounts and payments, keyed by client id, bounded, resettable.
 *
 * Card accounts never hold the full card number or the CVV: only the masked number, card type, expiry and the
 * test-card outcome. A `card_account_uid` is derived (SHA-256 over the instance seed, client id, card number and
 * expiry), so the same card gives the same uid for the same client, also after a reset, and a different
 * one for another client.
 *
 * The mock is single-threaded, but requests interleave with clock tasks (settlement); every method works on the
 * current maps without holding iterators across calls, and list methods return copies.
 *
 * @module
 */
import type { Assumptions } from '../../assumptions.ts';
import { kitMessage } from '../../internal/messages.ts';
import { detectCardType, maskCardNumber } from './domain/cards.ts';
import { type CardOutcome, cardOutcome } from './domain/test-cards.ts';
import { KeyQueue } from './fifo.ts';
import { uuidV4FromHex } from './random.ts';

/** A card the mock knows for a client, from a card fee calculation, a payment or the control API. */
export interface CardAccount {
  /** The uid handed out as `card_account_uid`. */
  readonly card_account_uid: string;
  /** Client the account belongs to; other clients cannot use the uid. */
  readonly clientId: string;
  /** Detected card type. */
  readonly card_type: string;
  /** Masked card number (first 6, last 4 at most). */
  readonly masked_card_number: string;
  /** Two-digit expiry month, as sent. */
  readonly expiry_month: string;
  /** Two-digit expiry year, as sent. */
  readonly expiry_year: string;
  /** What payments with this card do. */
  readonly outcome: CardOutcome;
}

/** Card details from which a card account is made. The CVV is deliberately not part of it. */
export interface CardAccountInput {
  readonly card_number: string;
  readonly expiry_month: string;
  readonly expiry_year: string;
}

/** The final outcome a payment can be settled with. */
export type SettlementOutcome = 'success' | 'failure';

/** Which guide a request was answered in. */
export type Guide = 'current' | 'legacy';

/** A payment the mock accepted. */
export interface StoredPayment {
  /** Payment identifier, as answered and as sent in the webhook. */
  readonly uuid: string;
  /** Client that created the payment. */
  readonly clientId: string;
  /** Guide the creating request used. */
  readonly guide: Guide;
  readonly amount: number;
  readonly payment_gateway_fee: number;
  /** ISO 8601 timestamp from the mock clock. */
  readonly paid_at: string;
  /** Current status name (`Assumptions.statusNames`); `processing` until settled. */
  status: string;
  /** Outcome the card asks for (test cards); `processing` means only the control API settles it. */
  readonly outcome: CardOutcome;
  /** Final outcome once settled, else undefined. */
  settledOutcome: SettlementOutcome | undefined;
  /** Virtual time of settlement (ms since the epoch), once settled. */
  settledAt: number | undefined;
  /** Metadata object as sent, echoed in the webhook. */
  readonly metadata: Readonly<Record<string, unknown>> | undefined;
  readonly card_account_uid: string;
  readonly card_type: string;
  readonly masked_card_number: string;
  /** Payer IP: as sent in `ip_address`, else the requesting IP. */
  readonly ip_address: string;
  readonly vendor_device_id: string | undefined;
  /** The client's description and reference number (from payment_reference, or the legacy contact). */
  readonly payment_reference: { readonly description: string; readonly reference_no: string };
}

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
}

/** The mock's per-client store. */
export interface MockState {
  /**
   * Returns the card account for these details, creating it on first use (stable uid per client and card).
   * Throws when the card type is not detected: callers validate first.
   */
  upsertCardAccount(clientId: string, card: CardAccountInput): CardAccount;
  /** The card account of a uid for this client, or undefined (unknown, or another client's). */
  cardAccount(clientId: string, cardAccountUid: string): CardAccount | undefined;
  /** Stores an accepted payment, evicting per the cap. */
  addPayment(payment: StoredPayment): void;
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
  /** Forgets every payment and card account. */
  reset(): void;
}

interface ClientState {
  readonly cards: Map<string, CardAccount>;
  readonly payments: Map<string, StoredPayment>;
  /** Uuids of payments in acceptance order; evicted ones stay until skipped or compacted (see fifo.ts). */
  readonly accepted: KeyQueue<string>;
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
  const { assumptions, seed, sha256Hex } = options;
  const maxPayments = options.maxPaymentsPerClient ?? 10_000;
  const maxCards = options.maxCardAccountsPerClient ?? 10_000;
  const now = options.now ?? Date.now;
  const clients = new Map<string, ClientState>();

  function client(clientId: string): ClientState {
    let c = clients.get(clientId);
    if (!c) {
      c = { cards: new Map(), payments: new Map(), accepted: new KeyQueue(), settled: new KeyQueue() };
      clients.set(clientId, c);
    }
    return c;
  }

  /**
   * A payment of one client, or (clientId undefined, control API) of whichever client has it. Clients are few (the
   * configured ones), so that is a handful of lookups; an index of uuid → client cost a Map write and delete per
   * payment on the hot path.
   */
  function find(clientId: string | undefined, uuid: string): StoredPayment | undefined {
    if (clientId !== undefined) return clients.get(clientId)?.payments.get(uuid);
    for (const c of clients.values()) {
      const p = c.payments.get(uuid);
      if (p) return p;
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
    const victim = oldestKept(c, c.settled) ?? oldestKept(c, c.accepted);
    if (victim === undefined) return;
    c.payments.delete(victim);
  }

  return {
    upsertCardAccount(clientId, card) {
      const uid = deriveCardAccountUid(sha256Hex, seed, clientId, card);
      const c = client(clientId);
      const known = c.cards.get(uid);
      if (known) return known;
      const cardType = detectCardType(card.card_number, assumptions.cardTypes);
      if (cardType === undefined)
        throw new Error(kitMessage('card type not detected; validate the card before storing it.'));
      if (c.cards.size >= maxCards) {
        const oldest = c.cards.keys().next().value;
        if (oldest !== undefined) c.cards.delete(oldest);
      }
      const account: CardAccount = {
        card_account_uid: uid,
        clientId,
        card_type: cardType,
        masked_card_number: maskCardNumber(card.card_number),
        expiry_month: card.expiry_month,
        expiry_year: card.expiry_year,
        outcome: cardOutcome(card.card_number),
      };
      c.cards.set(uid, account);
      return account;
    },
    cardAccount(clientId, cardAccountUid) {
      return clients.get(clientId)?.cards.get(cardAccountUid);
    },
    addPayment(payment) {
      const c = client(payment.clientId);
      while (c.payments.size >= maxPayments) evictOne(c);
      c.payments.set(payment.uuid, payment);
      c.accepted.push(payment.uuid);
      // Payments evicted as settled stay in the acceptance queue; drop them before the queue outgrows the cap twice.
      if (c.accepted.length > 2 * maxPayments) c.accepted.retain((uuid) => c.payments.has(uuid));
    },
    payment(clientId, uuid) {
      return find(clientId, uuid);
    },
    payments(clientId) {
      if (clientId !== undefined) return [...(clients.get(clientId)?.payments.values() ?? [])];
      const all: StoredPayment[] = [];
      for (const c of clients.values()) for (const p of c.payments.values()) all.push(p);
      return all;
    },
    settlePayment(clientId, uuid, outcome) {
      const p = find(clientId, uuid);
      if (!p || p.settledOutcome !== undefined) return p;
      const final: SettlementOutcome = outcome ?? (p.outcome === 'failure' ? 'failure' : 'success');
      p.settledOutcome = final;
      p.settledAt = now();
      clients.get(p.clientId)?.settled.push(uuid);
      p.status = final === 'success' ? assumptions.statusNames.success : assumptions.statusNames.failure;
      return p;
    },
    reset() {
      clients.clear();
    },
  };
}

/**
 * Derives the `card_account_uid` of a card for a client: SHA-256 over the instance seed, client id, card number and
 * expiry, formatted as a version 4 uuid (so strict client-side uuid checks accept it; it is not random). The seed
 * acts as a key, so uids of one mock instance cannot be precomputed elsewhere; a one-shot hash instead of an HMAC
 * because this runs on every payment and the uid only has to be stable and unguessable in a test tool. `sha256Hex` is
 * the platform's.
 */
export function deriveCardAccountUid(
  sha256Hex: (text: string) => string,
  seed: string,
  clientId: string,
  card: CardAccountInput,
): string {
  return uuidV4FromHex(
    sha256Hex(`${seed}\0${clientId}\0${card.card_number}\0${card.expiry_month}${card.expiry_year}`),
    '-',
  );
}
