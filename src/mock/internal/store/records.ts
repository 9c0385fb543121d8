/**
 * The change records of the mock's state with a file store (decision 0015): what each module that owns state
 * tells the store, and how it takes back the records of its own past at a restart. A Redis store holds the state
 * itself (decision 0040): no module records there.
 *
 * The record types, their owners and fields are {@link RecordBody}: short names keep a busy log small.
 *
 * With the memory or Redis store no module has a recorder: nothing here runs and no record object is built.
 *
 * @module
 */
import type { StoreRecord } from './sandbox-store.ts';
import type { CardAccount, SettlementOutcome, StoredPayment } from './stored.ts';

/**
 * A record as a module makes it (the sync layer adds the origin `o`), by type `t`:
 * - tokens: `tk.i` a pair issued (client `c`, refresh number `n`, token id number `j`, access expiry `e` in seconds,
 *   `g` when generate-token set the generate-once mark); `tk.u` refresh number `n` spent; `tk.ra` revoke-all, to
 *   generation `v`; `tk.r` one token revoked (its key `j`, expiry `e`); `tk.h` the highest generation `v`, which a
 *   reset keeps (written after `rst`); in snapshots only, `tk.s` a client's mark `g`, generation `v` and unused
 *   refresh numbers `r` ([number, expiry] pairs), and `tk.m` the highest refresh number `n` and token id number `j`
 *   a boot handed out, so a process rebuilt from a snapshot never hands them out again;
 * - payments: `card` an account stored (never the card number), `pay` a payment accepted, `set` one settled
 *   (client `c`, uuid `u`, outcome `x`, sandbox time `at`); settlement reschedules from `pay` and `set`;
 * - webhooks: `dv` a delivery changed (its fields `d`: id, state, attempts; webhooks/delivery-store.ts), so a restart
 *   lists and resumes it under its id; `hk` a payment's delivery to `url` ended in state `s` (it also ends a restored
 *   delivery left unfinished, should the `dv` of its end be missing);
 * - the rest: `clk` the clock moved `ms`; `fail` a failure armed on path `p` (status `s`, message `m`, times `n`, id
 *   `i`) and `take` a use of it (`k` uses so far); `jr` a journal entry (`a`, its array form); `rst` a reset.
 */
export type RecordBody = Readonly<
  | { t: 'tk.i'; c: string; n: number; j: number; e: number; g?: 1 }
  | { t: 'tk.u'; c: string; n: number }
  | { t: 'tk.ra' | 'tk.h'; c: string; v: number }
  | { t: 'tk.r'; j: string; e: number }
  | { t: 'tk.s'; c: string; g: 0 | 1; v: number; r: [number, number][] }
  | { t: 'tk.m'; c: string; n: number; j: number }
  | { t: 'card'; a: CardAccount }
  | { t: 'pay'; p: StoredPayment }
  | { t: 'set'; c: string; u: string; x: SettlementOutcome; at?: number }
  | { t: 'dv'; d: object }
  | { t: 'hk'; u: string; url: string; s: string }
  | { t: 'clk'; ms: number }
  | { t: 'fail'; p: string; s: number; m: string | null; n: number; i?: string | undefined }
  | { t: 'take'; p: string; i: string | null; k: number }
  | { t: 'jr'; a: readonly unknown[] }
  | { t: 'rst' }
>;

/** Where a module hands the records of its changes (only with a file store). */
export type Recorder = (record: RecordBody) => void;

/** A module that takes back records: performs exactly the change a record describes, with no side effect beyond it. */
export interface RecordApplier {
  /** Applies `record` when it is one of this module's types; ignores any other. */
  apply(record: StoreRecord): void;
  /** Told once the whole log is replayed (a start, a rebuild): work the records left unfinished goes on now. */
  replayed?(): void;
}

/**
 * A module whose view can be written down as records (for compaction): applied in order to an empty view, the
 * records of {@link RecordSnapshot.snapshot} rebuild what the module holds now. Records of the module's own types
 * where they can say it; a type of its own where no change record does (the token id marks `tk.m`).
 */
export interface RecordSnapshot {
  /** The records that rebuild this module's view (none when it holds nothing). */
  snapshot(): RecordBody[];
}

/** Field `name` of `record` as a string ('' when missing or not a string: a record from a newer kit). */
export function textField(record: StoreRecord, name: string): string {
  const v = record[name];
  return typeof v === 'string' ? v : '';
}

/** Field `name` of `record` as a number (NaN when missing or not a number). */
export function numberField(record: StoreRecord, name: string): number {
  const v = record[name];
  return typeof v === 'number' ? v : Number.NaN;
}
