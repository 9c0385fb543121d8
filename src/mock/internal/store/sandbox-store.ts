/**
 * The seam of a sandbox state store. Memory has none (nothing is recorded). A file (`file:` URL, Node only) is a
 * log of one process's change records (decision 0015). Redis (`redis://`, Node only, optional peer) holds the
 * sandbox's state itself, shared by every replica, behind one port per part (decision 0040).
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
}

/** Records and bytes a store holds beyond its last snapshot, as last seen (no round trip). */
export interface StoreBacklog {
  readonly records: number;
  readonly bytes: number;
}

/** What every state store offers the mock. Every method may reject with {@link StoreUnavailableError}. */
interface StoreBase {
  /** Connects or opens; rejects when the store cannot be used at all. */
  open(): Promise<void>;
  /** Adds one to the counter `name` and returns the new value (the boot number, which forks the id sources). */
  increment(name: string): Promise<number>;
  /** Closes connections and files. */
  close(): Promise<void>;
}

/**
 * A store one process writes (file): the log of that process's change records, replayed at its start (decision
 * 0015). Nothing else reads it while the process runs, so there are no claims and no followers.
 */
export interface RecordLogStore extends StoreBase {
  readonly kind: 'file';
  /**
   * Appends in order; resolves once the store acknowledged them durably, with the position of the last one
   * (undefined when nothing was appended). A rejection means not kept.
   */
  append(records: readonly StoreRecord[]): Promise<string | undefined>;
  /** Records after `position` (undefined: from the start), oldest first, at most `limit`. */
  readAfter(position: string | undefined, limit: number): Promise<readonly PositionedRecord[]>;
  /** Replaces every record up to and including `upTo` with `snapshot` (compaction). */
  compact(snapshot: readonly StoreRecord[], upTo: string): Promise<void>;
  /** Records and bytes beyond the last snapshot as last seen, to decide when to compact. */
  backlog(): StoreBacklog;
}

/**
 * A store that holds the sandbox's state itself, for every replica (Redis; decision 0040): each part reads and
 * changes it through its port in atomic steps, and no process keeps a copy of what another did.
 */
export interface SharedStateStore extends StoreBase {
  readonly kind: 'redis';
  /** The tokens; their reset starts a new epoch of the whole sandbox. */
  tokenState(): TokenStatePort;
  /** The epoch and the clock. */
  clockState(): ClockStatePort;
  /** The armed failures, in the epoch. */
  failureState(): FailureStatePort;
  /** The card accounts, payments and due settlements, in the epoch. */
  paymentState(): PaymentStatePort;
  /** The webhook deliveries and their due attempts, in the epoch. */
  deliveryState(): DeliveryStatePort;
  /** The request journal, in the epoch. */
  journalState(): JournalStatePort;
}

/** A state store: memory has none; a file is a record log, Redis holds the state itself. */
export type SandboxStore = RecordLogStore | SharedStateStore;
