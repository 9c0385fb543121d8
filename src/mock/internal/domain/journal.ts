/**
 * The request journal: every request the mock answered, in a bounded ring, and awaitable, so a test waits for "the
 * processPaymentRequest call arrived" instead of sleeping.
 *
 * Entries hold no bodies. The only request data kept is a masked summary of GraphQL variables (card numbers shown as
 * first 6 / last 4, CVVs dropped), built by `summarizeVariables` (graphql/engine-loader.ts).
 *
 * The ring is kept in columns (typed arrays for the numbers, arrays of references for the strings), and an entry
 * object is built only when someone reads it or waits for one: an object per request that lives for the next
 * thousand requests is copied by every young-generation GC it survives, which under load is most of them.
 *
 * The control handle reads it through {@link JournalReads}, promises on every store: with a Redis store it reads the
 * journal Redis holds for every replica instead (shared-journal.ts), so a request answered by any replica is in the
 * very next read through any other.
 *
 * @module
 */

import { kitMessage } from '../../../internal/messages.ts';
import {
  type JournalEntry,
  type JournalFilter,
  type JournalRecord,
  journalArray,
  journalRecordOf,
} from '../history/journal-entry.ts';
import { checkPageQuery, collectPage, type Page, type PageQuery } from '../history/page.ts';
import type { RecordApplier, Recorder, RecordSnapshot } from '../store/records.ts';
import { journaled, type MockEvent } from './events.ts';
import { createWaiters } from './waiters.ts';

export type { JournalEntry, JournalFilter, JournalRecord };

/** What a wait for a request says when it gives up: the ring's and the shared journal's alike. */
export const requestWaitMessages = {
  timedOut: (timeoutMs: number) =>
    kitMessage(
      `No request matched within ${timeoutMs} ms; check the predicate, or read control.requests() to see what arrived.`,
    ),
  closed: kitMessage('The mock was closed while waiting for a request.'),
};

/** Options of {@link Journal.waitFor}. */
export interface WaitOptions {
  /** Give up after this many real milliseconds. Default 5,000. */
  readonly timeoutMs?: number;
  /** Only entries with `seq` greater than this count; default 0 (everything kept since the last reset). */
  readonly since?: number;
}

/** The journal of one mock instance. */
export interface Journal {
  /**
   * Appends an entry; the journal assigns `seq`. Its fields are copied into the ring's columns, so the caller's object
   * is not kept (the `request.answered` event the pipeline builds once per request, which other readers read too).
   */
  record(entry: JournalRecord): void;
  /** Entries kept, oldest first, optionally only those after `since`. */
  entries(since?: number): JournalEntry[];
  /** A page of entries, newest first unless `query.after` is given; the query is checked (400 on a mistake). */
  page(query?: PageQuery, filter?: JournalFilter): Page<JournalEntry>;
  /** Entries kept now. */
  size(): number;
  /** The `seq` of the latest entry (0 when empty): a cursor for `waitFor({ since })`. */
  cursor(): number;
  /** Resolves with the first entry matching `predicate`, already recorded or still to come; rejects on timeout. */
  waitFor(predicate: (entry: JournalEntry) => boolean, options?: WaitOptions): Promise<JournalEntry>;
  /** Forgets every entry and restarts `seq` at 1; pending waits keep waiting. */
  reset(): void;
  /** Rejects every pending wait (the mock is closing). */
  close(): void;
  /** Takes back a `jr` record of a file store: a request answered before a restart or a rebuild. */
  readonly apply: RecordApplier['apply'];
  /** A `jr` record per kept entry, oldest first (a state store's compaction). */
  readonly snapshot: RecordSnapshot['snapshot'];
}

/**
 * Creates a journal keeping the latest `capacity` entries.
 *
 * @example
 * const journal = createJournal(1000);
 * const entry = await journal.waitFor((e) => e.operationName === 'processPaymentRequest', { timeoutMs: 2000 });
 */
export function createJournal(capacity: number, recorder?: Recorder): Journal {
  const size = Math.max(1, capacity);
  const methods: string[] = new Array(size);
  const paths: string[] = new Array(size);
  const operationNames: (string | undefined)[] = new Array(size);
  const guides: ('current' | 'legacy' | undefined)[] = new Array(size);
  const clientIds: (string | undefined)[] = new Array(size);
  const summaries: unknown[] = new Array(size);
  const outcomes: string[] = new Array(size);
  const statuses = new Uint16Array(size);
  const times = new Float64Array(size);
  const durations = new Float64Array(size);
  let seq = 0;
  const waiters = createWaiters<JournalEntry>();

  function entryAt(s: number): JournalEntry {
    const i = s % size;
    return {
      seq: s,
      method: methods[i]!,
      path: paths[i]!,
      operationName: operationNames[i],
      guide: guides[i],
      status: statuses[i]!,
      at: times[i]!,
      durationMs: durations[i]!,
      clientId: clientIds[i],
      summary: summaries[i],
      outcome: outcomes[i]!,
    };
  }

  function kept(since: number): JournalEntry[] {
    const out: JournalEntry[] = [];
    for (let s = Math.max(since + 1, seq - size + 1, 1); s <= seq; s++) out.push(entryAt(s));
    return out;
  }

  const oldestKept = () => Math.max(seq - size + 1, 1);
  // The ring as an ordered source of sequence numbers; entries are built only for the page.
  const ring = {
    *newest(before?: number): Generator<[number, number]> {
      for (let s = Math.min(before === undefined ? seq : before - 1, seq); s >= oldestKept(); s--) yield [s, s];
    },
    *oldestFirst(after?: number): Generator<[number, number]> {
      for (let s = Math.max(after === undefined ? 1 : after + 1, oldestKept()); s <= seq; s++) yield [s, s];
    },
  };
  const matches = (s: number, f: JournalFilter): boolean => {
    const i = s % size;
    return (
      (f.method === undefined || methods[i] === f.method) &&
      (f.path === undefined || paths[i] === f.path) &&
      (f.operationName === undefined || operationNames[i] === f.operationName) &&
      (f.status === undefined || statuses[i] === f.status) &&
      (f.clientId === undefined || clientIds[i] === f.clientId)
    );
  };

  const journal: Journal = {
    page(query, filter = {}) {
      return collectPage([ring], checkPageQuery(query, 'requestPage'), (s) => matches(s, filter), entryAt);
    },
    size: () => seq - oldestKept() + 1,
    record(e) {
      const i = ++seq % size;
      methods[i] = e.method;
      paths[i] = e.path;
      operationNames[i] = e.operationName;
      guides[i] = e.guide;
      clientIds[i] = e.clientId;
      summaries[i] = e.summary;
      outcomes[i] = e.outcome;
      statuses[i] = e.status;
      times[i] = e.at;
      durations[i] = e.durationMs;
      if (waiters.pending()) waiters.offer(entryAt(seq));
    },
    apply(r) {
      if (r.t === 'jr' && Array.isArray(r.a)) add(journalRecordOf(r.a));
    },
    entries(since = 0) {
      return kept(since);
    },
    snapshot: () => kept(0).map((e) => ({ t: 'jr', a: journalArray(e) })),
    cursor() {
      return seq;
    },
    waitFor(predicate, options = {}) {
      const since = options.since ?? 0;
      const timeoutMs = options.timeoutMs ?? 5000;
      for (const e of kept(since)) if (predicate(e)) return Promise.resolve(e);
      return waiters.wait(
        // A reset restarts seq, so an entry recorded later may still number at or below `since`.
        (e) => e.seq > since && predicate(e),
        timeoutMs,
        () => requestWaitMessages.timedOut(timeoutMs),
      );
    },
    reset() {
      // Forget the references (summaries hold request data); the numbers are overwritten before they are read again.
      for (const column of [methods, paths, operationNames, guides, clientIds, summaries, outcomes])
        column.fill(undefined as never);
      seq = 0;
    },
    close() {
      waiters.close(requestWaitMessages.closed);
    },
  };
  // A replayed `jr` record is appended as it is; with a store, `record` also hands one over.
  const add = journal.record;
  if (recorder)
    journal.record = (e) => {
      recorder({ t: 'jr', a: journalArray(e) });
      add(e);
    };
  return journal;
}

/**
 * The journal's reader of the event bus: each answered request it keeps ({@link journaled}) is recorded as it is
 * told, so the entry is written before the answer goes out. `journal` is the ring or a store's shared journal; both
 * take the event itself as their entry (it has every field of one).
 */
export function journalReader(journal: { record(entry: JournalRecord): void }): (event: MockEvent) => void {
  return (e) => {
    if (e.kind === 'request.answered' && journaled(e)) journal.record(e);
  };
}

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
