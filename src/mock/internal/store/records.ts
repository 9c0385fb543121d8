/**
 * The change records of the mock's state with a file store (decision 0015): what each module that owns state
 * tells the store, and how it takes back the records of its own past at a restart. A Redis store holds the state
 * itself (decision 0040): no module records there.
 *
 * Record types, by owner (`t`, then the fields):
 * - tokens: `tk.i` issued (client `c`, refresh number `n`, token id number `j`, `g` when generate-token set the
 *   generate-once flag), `tk.u` refresh token used (`c`, `n`), `tk.ra` revoke-all (`c`, the generation `v` it moved
 *   to), `tk.r` one token revoked (token id `j`, expiry `e` in seconds), `tk.h` the highest revocation generation `v`
 *   of client `c`, which a reset keeps (written after `rst`, and in a snapshot);
 * - state: `card` card account created (`a`, the account: never the card number), `pay` payment accepted (`p`, the
 *   stored payment), `set` payment settled (`c`, uuid `u`, outcome `x`, virtual time `at`);
 * - settlement: reads `pay` (schedules it) and `set`;
 * - webhooks: `hk` a delivery finished (payment uuid `u`, `url`, final `s`; it also ends that delivery if its
 *   restored state is unfinished, should the `dv` with its end be missing); `dv` a delivery changed (`d`, its
 *   fields: id, state, attempts; webhooks/delivery-store.ts), so a restart lists it and resumes it with its id
 *   and attempt numbering;
 * - tokens, in a snapshot only: `tk.m` the highest refresh number `n` of client `c` and token id number `j` a boot
 *   handed out (so a process rebuilt from a snapshot never hands them out again);
 * - clock: `clk` moved forward (`ms`); failures: `fail` armed (`p`, status `s`, message `m`, times `n`), `take`
 *   one consumed (`p`); journal: `jr` a request answered (`a`, the journal's arguments); control: `rst` reset.
 *
 * With the memory or Redis store no module has a recorder: nothing here runs and no record object is built.
 *
 * @module
 */
import type { StoreRecord } from './sandbox-store.ts';

/** A record as a module makes it; the sync layer adds the origin `o`. */
export interface RecordBody {
  readonly t: string;
  readonly [field: string]: unknown;
}

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
