/**
 * The types of the mock's control handle (STYLE habit 9), what tests and Pact provider states drive the mock with:
 * below the control plane that implements it (control/) and the provider states that use it (provider-states/), so
 * both import them downwards. The package exports them from src/mock/control-types.ts.
 *
 * @module
 */
import type { Assumptions } from '../../../assumptions.ts';
import type { CoverageReport } from '../../../contract/coverage/report.ts';
import type { TokenPair } from '../../../types/rest.ts';
import type {
  PagedPayment,
  PaymentCounts,
  PaymentFilter,
  SettlementOutcome,
  StoredPayment,
} from '../domain/payments.ts';
import type { JournalEntry, JournalFilter } from '../history/journal-entry.ts';
import type { Page, PageQuery } from '../history/page.ts';
import type { DeliveryRecord } from '../webhooks/delivery-record.ts';
import type { DeliveryCounts, DeliveryFilter } from '../webhooks/delivery-store.ts';

/**
 * A coverage report: `{ behaviours: [{ id, title, spec, guides, covered, count }], covered, total }` (docs/coverage.md).
 */
export type MockCoverageReport = CoverageReport;

/** A request the mock answered, as the journal keeps it (no bodies; masked variables summary only). */
export type MockRequestRecord = JournalEntry;

/** A payment as the mock stores it (card number masked, no CVV). */
export type MockPayment = Readonly<StoredPayment>;

/** A webhook delivery with its attempts, as the dispatcher logs it. */
export type MockDelivery = DeliveryRecord;

/**
 * Which part of a history a page holds: `limit` (1 to 500, default 20) and at most one cursor. Without a cursor the
 * newest entries come first; `before: n` reads older ones (pass the previous page's `next`); `after: n` reads newer
 * ones, oldest first, without a gap.
 */
export type MockPageQuery = PageQuery;

/** One page of a history: its entries, their order, and the cursor of the following page (null at the end). */
export type MockPage<T> = Page<T>;

/** A payment on a page, with its sequence number (the cursor). */
export type MockPagedPayment = Readonly<PagedPayment>;

/**
 * The state store as one process sees it (`GET /__pck/health` shows it as `store`). With `memory:` every
 * count is 0.
 */
export interface MockStoreStatus {
  /** `memory`, `file` or `redis`. */
  readonly kind: 'memory' | 'file' | 'redis';
  /**
   * Journal entries this process could not write to the store (their requests had been answered; other replicas
   * and a restart do not list them). Each loss is also logged.
   */
  readonly lostJournalEntries: number;
  /**
   * Webhook attempts whose outcome the store refused from this process because it no longer held their claim: the
   * attempt outlived `store.leaseMs` and another replica took the delivery over (Redis; each is logged). 0 on a file.
   */
  readonly fencedOut: number;
  /** Compactions this process made (a file store; 0 on Redis, which keeps no log to compact). */
  readonly compactions: number;
  /**
   * Always 0: no replica keeps a view a compaction could pass any more (Redis holds the state, a file has one
   * process). Kept so readers of the status do not break.
   * @deprecated Read nothing from it; it goes in the next minor version.
   */
  readonly rebuiltFromSnapshot: number;
}

/** The counters of every history and their caps, kept as entries come and go (reading them scans nothing). */
export interface MockHistory {
  readonly payments: PaymentCounts;
  /**
   * The sandbox's deliveries (with a shared store, other replicas' too); `pendingHere`: the unfinished ones this
   * process sends, which its `history.maxPendingDeliveries` caps.
   */
  readonly deliveries: DeliveryCounts & { readonly caps: Assumptions['history']; readonly pendingHere: number };
  readonly requests: {
    /** Requests kept in the journal. */
    readonly kept: number;
    /** The journal's size (`journalSize`): older requests drop out. */
    readonly capacity: number;
    /** `seq` of the latest request. */
    readonly cursor: number;
  };
}

/** Matches requests by field equality; every given field must match. The HTTP control API takes this form. */
export interface MockRequestMatcher {
  readonly method?: string;
  readonly path?: string;
  readonly operationName?: string;
  readonly status?: number;
  readonly clientId?: string;
  readonly guide?: 'current' | 'legacy';
}

/** Card details for {@link MockControl.registerCardAccount}; the CVV is not needed and not taken. */
export interface MockCardInput {
  readonly card_number: string;
  readonly expiry_month: string;
  readonly expiry_year: string;
}

/** Options of {@link MockControl.failNextRequest}. */
export interface FailNextOptions {
  /** Message of the error body; default says the failure was injected. */
  readonly message?: string;
  /** How many following requests fail. Default 1. */
  readonly times?: number;
}

/**
 * The control handle: drives the mock from tests (STYLE habit 9). Every operation is also served over HTTP under
 * `/__pck/` (see `registerControlRoutes`).
 */
export interface MockControl {
  /** Forgets tokens, payments, card accounts, journal, deliveries and injected failures; rewinds the clock offset and every seeded sequence. */
  reset(): void;
  /** Virtual time, ms since the epoch. */
  now(): number;
  /** Moves the virtual clock forward (token expiry, due settlements and webhook retries happen at once); returns the new time. */
  advanceClock(ms: number): number;
  /**
   * Payments of one client, or of all, oldest first (at most `history.maxPaymentsPerClient` per client). The payment
   * reads answer promises on every store, so that a store holding the payments itself can answer with what every
   * replica sees; memory resolves them at once.
   */
  payments(clientId?: string): Promise<MockPayment[]>;
  /**
   * A page of payments, newest first (see {@link MockPageQuery}), filtered by client, status and uuid. Costs the
   * page, not the history. Rejects with a 400 `MockHttpError` for a bad query.
   *
   * @example
   * const { items, next } = await control.paymentPage({ clientId: 'test-client', status: 'processing', limit: 50 });
   */
  paymentPage(query?: MockPageQuery & PaymentFilter): Promise<MockPage<MockPagedPayment>>;
  /**
   * Settles a payment now with `outcome` (default: its card's) and sends its webhook. Rejects when the payment is
   * unknown or already settled.
   */
  settlePayment(uuid: string, outcome?: SettlementOutcome): Promise<MockPayment>;
  /**
   * Requests answered (control API calls excluded), oldest first; `since` is a cursor from {@link MockControl.cursor}.
   * The journal and delivery reads answer promises on every store, so that a store holding the journal and the
   * deliveries itself can answer with what every replica sees; memory resolves them at once.
   */
  requests(options?: { since?: number }): Promise<MockRequestRecord[]>;
  /**
   * A page of the journal, newest first (see {@link MockPageQuery}), filtered by method, path, operation, status,
   * client. Rejects with a 400 `MockHttpError` for a bad query.
   */
  requestPage(query?: MockPageQuery & JournalFilter): Promise<MockPage<MockRequestRecord>>;
  /**
   * The journal position of the latest request: pass it as `since` to wait only for later ones. A promise, as the
   * journal's other reads: with a shared store it is the position every replica's requests share.
   */
  cursor(): Promise<number>;
  /** Resolves with the first request matching, already answered (after `since`) or still to come. */
  waitForRequest(
    match: ((request: MockRequestRecord) => boolean) | MockRequestMatcher,
    options?: { timeoutMs?: number; since?: number },
  ): Promise<MockRequestRecord>;
  /** Issues a token pair for a configured client, bypassing the generate-once rule (tests, Pact provider states). */
  issueToken(clientId: string): TokenPair;
  /** Registers a card for a client as a fee calculation would, and returns its `card_account_uid`. */
  registerCardAccount(clientId: string, card: MockCardInput): string;
  /**
   * Webhook deliveries kept, with their attempts, oldest first (bounded by the `history` caps). A promise, as
   * {@link MockControl.requests} is.
   */
  deliveries(): Promise<MockDelivery[]>;
  /**
   * A page of webhook deliveries, newest first (see {@link MockPageQuery}), filtered by state (`pending` for the
   * three unfinished ones), payment, client and URL. Costs the page, not the history. Rejects with a 400
   * `MockHttpError` for a bad query.
   *
   * @example
   * const failed = await control.deliveryPage({ state: 'failed', limit: 100 });
   */
  deliveryPage(query?: MockPageQuery & DeliveryFilter): Promise<MockPage<MockDelivery>>;
  /** Counters and caps of every history (what `GET /__pck/health` shows), read without a scan. */
  history(): Promise<MockHistory>;
  /** The state store's counters as this process sees them (what `GET /__pck/health` shows as `store`). */
  store(): MockStoreStatus;
  /**
   * Resolves once every change made so far on this process (by these methods too: reset, clock moves, injected
   * failures, settlements, card accounts, and the journal entries of the requests it answered) is durable in the
   * state store, so every replica's next request sees it;
   * rejects when the store did not take it (the change is not kept; retry once the store is back). The methods
   * themselves stay synchronous (they were before stores existed); the HTTP control API waits on its own. Resolves at
   * once with `memory:`.
   *
   * @example
   * app.control.advanceClock(60_000);
   * await app.control.durable(); // every replica's next request sees the new time
   */
  durable(): Promise<void>;
  /**
   * Compacts the file store now (a snapshot of this process's state replaces the records it covers), whatever the
   * `store.compactAfter*` thresholds say: resolves true when it compacted, false when it did not (`memory:`, Redis,
   * which keeps no log, or the store is down). An operator's or a test's switch.
   */
  compactNow(): Promise<boolean>;
  /** Resolves with the first delivery matching, now or later. */
  waitForDelivery(
    predicate: (delivery: MockDelivery) => boolean,
    options?: { timeoutMs?: number },
  ): Promise<MockDelivery>;
  /**
   * Sends a finished delivery (`failed`, `gone` or `delivered`) again, with the same delivery id. Throws the 7.1
   * error the HTTP route answers: 404 for an unknown id, 409 while the delivery is still queued, sending or waiting
   * for a retry (wait for it, advancing the clock), when its payload could not be built, or once the mock is closed.
   * With a shared store (Redis) the delivery is read there: a promise that rejects with that error instead.
   */
  redeliver(id: string): void | Promise<void>;
  /**
   * Makes the next request(s) to `path` (a service path such as the generate-token path, or `/graphql`) fail with
   * `status` and the spec's error body (7.1 on REST paths, 7.2 on /graphql), e.g. to see the 500 body of spec 7.1.
   */
  failNextRequest(path: string, status: number, options?: FailNextOptions): void;
  /**
   * Loads the GraphQL engine now instead of on the first /graphql request (benchmarks, first-request timing). With
   * `scope: 'all'` (default) it also builds the schema of every served guide and loads the query compiler; with
   * `'first-request'` only what the first request in the first served guide needs, so the rest of the work does
   * not delay that request (the CLI warms up so right after listening).
   */
  warmUp(options?: { scope?: 'all' | 'first-request' }): Promise<void>;
  /**
   * Which behaviours of the service this sandbox exercised since it started (a reset does not clear it): every
   * behaviour of the catalogue with `covered` and `count` (docs/coverage.md). `GET /__pck/coverage` answers the same.
   */
  coverage(): MockCoverageReport;
  /** The assumptions this instance runs with. */
  readonly assumptions: Assumptions;
}
