/**
 * How the control handle reads the request journal: from this process's ring (memory, file store), or, with a Redis
 * store, from the journal Redis holds for every replica (shared-journal.ts, decision 0040, step 7), so a request
 * answered by any replica is in the very next read through any other.
 *
 * @module
 */
import type { JournalEntry, JournalFilter } from '../history/journal-entry.ts';
import type { Page, PageQuery } from '../history/page.ts';
import type { Journal, WaitOptions } from './journal.ts';

/** The journal's reads, as promises on every store. */
export interface JournalReads {
  entries(since?: number): Promise<JournalEntry[]>;
  page(query: PageQuery | undefined, filter: JournalFilter): Promise<Page<JournalEntry>>;
  /** Entries kept, and the latest sequence number (0 when none since the reset). */
  counts(): Promise<{ readonly kept: number; readonly cursor: number }>;
  waitFor(predicate: (entry: JournalEntry) => boolean, options?: WaitOptions): Promise<JournalEntry>;
  /**
   * Resolves once every entry this process recorded so far is in the journal every reader reads (at once for the
   * ring; on Redis, once this replica's appends settled: a failed one is counted as lost, not rejected).
   */
  written(): Promise<void>;
}

/** The reads of this process's own ring. */
export function localJournalReads(journal: Journal): JournalReads {
  return {
    entries: async (since) => journal.entries(since),
    page: async (query, filter) => journal.page(query, filter),
    counts: async () => ({ kept: journal.size(), cursor: journal.cursor() }),
    waitFor: (predicate, options) => journal.waitFor(predicate, options),
    written: async () => undefined,
  };
}
