/**
 * The seam of a sandbox state store (decision 0015): where a mock process appends the records that
 * describe its state changes and reads those of other processes. Implementations: memory (none: nothing is
 * recorded), file (`file:` URL, Node only) and Redis (`redis://`, Node only, optional peer).
 *
 * @module
 */
import type { ClockStatePort } from './clock-state.ts';
import type { DeliveryStatePort } from './delivery-state.ts';
import type { FailureStatePort } from './failure-state.ts';
import type { JournalStatePort } from './journal-state.ts';
import type { PaymentStatePort } from './payment-state.ts';
import type { TokenStatePort } from './token-state.ts';

/** One change record: JSON only. `t` names the change; `o` is the id of the process that made it. */
export interface StoreRecord {
  readonly t: string;
  readonly o: string;
  readonly [field: string]: unknown;
}

/** A record and its position in the store (opaque, ordered: compare with the store's own order only). */
export interface PositionedRecord {
  readonly position: string;
  readonly record: StoreRecord;
  /**
   * Set on a record of a snapshot (compaction): a reader applies it whatever its origin. `start` marks the first
   * record of a read that started over from the snapshot because the reader's position was compacted away: the
   * reader empties its view before applying it.
   */
  readonly snapshot?: true | 'start';
}

/** What {@link SandboxStore.compact} may be told besides the snapshot. */
export interface CompactOptions {
  /**
   * Records of origin `origin` up to position `upTo` (after the compaction point) that the snapshot already holds:
   * a reader that starts from the snapshot skips them. A shared store's compactor holds its own latest changes in
   * its view before they are all in the store.
   */
  readonly covers?: { readonly origin: string; readonly upTo: string } | undefined;
  /**
   * How many ms of records before `upTo` a shared store keeps (default 0: none), at most `keepMax` of them: a reader a little behind the
   * compactor reads on from its own position; only one behind the kept part starts over from the snapshot.
   */
  readonly keepMs?: number | undefined;
  /** At most this many of the kept records (default 0: none kept). */
  readonly keepMax?: number | undefined;
  /** The claim (key, owner) the compaction runs under: refused unless still held at the swap (fencing). */
  readonly fence?: { readonly key: string; readonly owner: string } | undefined;
}

/** The answer of {@link SandboxStore.appendFenced}. */
export interface FencedAppendResult {
  /** Position of the last record appended (undefined when none was). */
  readonly position: string | undefined;
  /** Indexes (0-based, into the records given) of the records refused because their claim was no longer held. */
  readonly lost: readonly number[];
}

/** Records and bytes a store holds beyond its last snapshot, as last seen (no round trip). */
export interface StoreBacklog {
  readonly records: number;
  readonly bytes: number;
}

/**
 * The store cannot be reached or written (server down, disk full, read-only file); `reason` says which, as a clause
 * the mock's messages quote in parentheses (no kit prefix, no closing full stop): each of them says what the mock
 * does about it there.
 * `mayHaveApplied` is true when an append reached the store but its acknowledgement did not come back (the server
 * died or hung between the two): the change may be kept, and a reader sees it once the store answers again.
 */
export class StoreUnavailableError extends Error {
  readonly reason: string;
  readonly mayHaveApplied: boolean;
  constructor(reason: string, options?: { cause?: unknown; mayHaveApplied?: boolean }) {
    super(reason, options);
    this.name = 'StoreUnavailableError';
    this.reason = reason;
    this.mayHaveApplied = options?.mayHaveApplied ?? false;
  }
}

/**
 * A store that cannot work in this installation at all (its client library is missing), as opposed to one that is
 * down for now. Its message is whole (what is missing, the command that installs it, the other stores), so the start
 * shows it as it is, with nothing wrapped around it.
 */
export class StoreSetupError extends StoreUnavailableError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreSetupError';
  }
}

/** What a state store offers the mock. Every method may reject with {@link StoreUnavailableError}. */
export interface SandboxStore {
  /** `file` or `redis` (memory has no store object). */
  readonly kind: 'file' | 'redis';
  /** True when other processes may append too: catch up before serving, follow in the background. */
  readonly shared: boolean;
  /** Connects or opens; rejects when the store cannot be used at all. */
  open(): Promise<void>;
  /**
   * Appends in order; resolves once the store acknowledged them durably, with the position of the last one
   * (undefined from a store that cannot say). A rejection means not kept, unless its `mayHaveApplied` says the store
   * may have kept them without answering.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a store that cannot say a position resolves with nothing.
  append(records: readonly StoreRecord[]): Promise<string | undefined | void>;
  /**
   * Appends in order, in one atomic step, every record that is not fenced (`fences[i]` undefined) or whose claim
   * `fences[i]` `owner` still holds; refuses the others (decision 0033: a holder that stalled past its lease must not
   * record an outcome after another process took the work over). Absent on a store only one process writes (file):
   * no other holder can exist there.
   */
  appendFenced?(
    records: readonly StoreRecord[],
    fences: readonly (string | undefined)[],
    owner: string,
  ): Promise<FencedAppendResult>;
  /** Records after `position` (undefined: from the start), oldest first, at most `limit`. */
  readAfter(position: string | undefined, limit: number): Promise<readonly PositionedRecord[]>;
  /**
   * Replaces every record up to and including `upTo` with `snapshot` (compaction). A reader whose position is
   * before `upTo` reads again from the start of the snapshot. Resolves false when refused: the fence's claim was
   * lost, or a compaction past `upTo` was already made (nothing changed then).
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a store that never refuses resolves with nothing.
  compact(snapshot: readonly StoreRecord[], upTo: string, options?: CompactOptions): Promise<boolean | void>;
  /** Records and bytes beyond the last snapshot as last seen, to decide when to compact (absent: never by size). */
  backlog?(): StoreBacklog;
  /** Holds once-only work `key` for `leaseMs` as `owner`: true when held now (a holder claiming again renews). */
  claim(key: string, owner: string, leaseMs: number): Promise<boolean>;
  /**
   * Extends a claim `owner` still holds: true when held, false when it lapsed or another holds it (never takes a free
   * key, unlike {@link SandboxStore.claim}). Absent: renewals claim again.
   */
  renew?(key: string, owner: string, leaseMs: number): Promise<boolean>;
  /** Gives up a claim `owner` holds (no-op otherwise). */
  release(key: string, owner: string): Promise<void>;
  /** Adds one to the shared counter `name` and returns the new value. */
  increment(name: string): Promise<number>;
  /**
   * The sandbox's token state held by the store itself for every process (Redis; decision 0040). Absent: the token
   * service keeps its state in process and records its changes (file).
   */
  tokenState?(): TokenStatePort;
  /**
   * The sandbox's clock and epoch held by the store itself (Redis; decision 0040, step 2); present with
   * {@link SandboxStore.tokenState}, whose reset starts the epoch. Absent: clock moves and resets are records.
   */
  clockState?(): ClockStatePort;
  /**
   * The sandbox's armed failures held by the store itself (Redis; decision 0040, step 3); used with
   * {@link SandboxStore.clockState}, whose epoch they live in. Absent: arms and uses are records.
   */
  failureState?(): FailureStatePort;
  /**
   * The sandbox's card accounts, payments and due settlements held by the store itself (Redis; decision 0040, steps
   * 4 and 5), in the epoch of {@link SandboxStore.clockState}. Only its card accounts are used so far: the payment
   * state and the settlement still keep payments in process and record their changes, on every store.
   */
  paymentState?(): PaymentStatePort;
  /**
   * The sandbox's webhook deliveries and their due attempts held by the store itself (Redis; decision 0040, step 6),
   * in the epoch of {@link SandboxStore.clockState}. Not used yet: the dispatcher still keeps its history in process
   * and records its changes (the delivery mirror), on every store.
   */
  deliveryState?(): DeliveryStatePort;
  /**
   * The sandbox's request journal held by the store itself (Redis; decision 0040, step 7), in the epoch of
   * {@link SandboxStore.clockState}. With it the pipeline appends there and the handle reads there
   * (control/shared-journal.ts); without it (the file store) the ring records its entries.
   */
  journalState?(): JournalStatePort;
  /** Calls `onAppend` soon after another process appended (best effort); returns the unsubscribe. */
  watch?(onAppend: () => void): () => void;
  /** Closes connections and files. */
  close(): Promise<void>;
}
