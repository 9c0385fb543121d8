/**
 * The request journal a shared store holds for every replica (decision 0040, step 7): what the journal asks of it
 * when the sandbox's journal lives in Redis rather than in each process. Memory and the file store have no such
 * port: the journal keeps its ring in process (domain/journal.ts) and the file store journals `jr` records.
 *
 * Every method is one atomic step on the store, in the current epoch: an entry appended through one replica is in
 * the very next read through any other, numbered in one sequence for the whole sandbox.
 *
 * @module
 */
import type { JournalEntry, JournalFilter, JournalRecord } from '../history/journal-entry.ts';
import type { Page, PageQuery } from '../history/page.ts';

/** The shared journal; every method may reject with `StoreUnavailableError`. */
export interface JournalStatePort {
  /**
   * Appends `entry` under the sandbox's next sequence number and answers that number; past `capacity` entries the
   * oldest goes in the same step (every replica is configured with the same capacity).
   */
  append(entry: JournalRecord, capacity: number): Promise<number>;
  /** Entries kept with a sequence number above `since`, oldest first. */
  entries(since: number): Promise<JournalEntry[]>;
  /** A page as domain/journal.ts pages its ring: newest first, or oldest first after `after`. */
  page(query: Required<Pick<PageQuery, 'limit'>> & PageQuery, filter: JournalFilter): Promise<Page<JournalEntry>>;
  /** Entries kept, and the latest sequence number handed out (0 before the first since the reset). */
  counts(): Promise<{ readonly kept: number; readonly cursor: number }>;
}
