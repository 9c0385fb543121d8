/**
 * The request journal on a Redis store (decision 0040, step 7): each answered request is appended to the journal
 * Redis holds for every replica, and the handle's reads read it there. Only the Node entries pass it to the
 * composition root (a seam, as the shared token operations are), so the browser builds do not carry it.
 *
 * No answer waits for its append, but every read through this replica waits for this replica's appends first, so a
 * test that reads right after its own request finds it. A failed append is counted and logged as a lost journal
 * entry (`control.store().lostJournalEntries`), as the file store's are: its request had been answered, and nothing
 * else is lost.
 *
 * @module
 */
import type { JournalRecord } from '../history/journal-entry.ts';
import { checkPageQuery } from '../history/page.ts';
import type { JournalStatePort } from '../store/journal-state.ts';
import { lossCounter } from '../store/sync-losses.ts';
import { type JournalReads, requestWaitMessages } from './journal.ts';

/** What {@link sharedJournal} needs. */
export interface SharedJournalDeps {
  readonly port: JournalStatePort;
  readonly capacity: number;
  /** Where a lost entry is told. */
  readonly log: (line: string) => void;
}

/** How often a pending wait reads the shared journal for another replica's entry (real ms). */
export const SHARED_WAIT_POLL_MS = 25;

/**
 * The journal on a shared store: `record` appends in the background (the pipeline's journal), the reads read the
 * store. A wait reads the entries after `since` until one matches, every {@link SHARED_WAIT_POLL_MS}.
 */
export function sharedJournal(deps: SharedJournalDeps): {
  record(entry: JournalRecord): void;
  reads: JournalReads;
  /** Entries whose append failed. */
  lost(): number;
  close(): void;
} {
  const { port, capacity } = deps;
  const inFlight = new Set<Promise<void>>();
  const losses = lossCounter(deps.log);
  let closed = false;
  /** This replica's appends (each settles, failed or not). */
  async function ownWritten(): Promise<void> {
    if (inFlight.size > 0) await Promise.all(inFlight);
  }
  const reads: JournalReads = {
    written: ownWritten,
    async entries(since = 0) {
      await ownWritten();
      return port.entries(since);
    },
    async page(query, filter) {
      const checked = checkPageQuery(query, 'requestPage');
      await ownWritten();
      return port.page(checked, filter);
    },
    async counts() {
      await ownWritten();
      return port.counts();
    },
    async waitFor(predicate, options = {}) {
      const since = options.since ?? 0;
      const timeoutMs = options.timeoutMs ?? 5000;
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (closed) throw new Error(requestWaitMessages.closed);
        const found = (await reads.entries(since)).find(predicate);
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(requestWaitMessages.timedOut(timeoutMs));
        // Real time, as the in-process journal's wait: the sandbox clock may be frozen or moved.
        await new Promise<void>((resolve) => setTimeout(resolve, Math.min(SHARED_WAIT_POLL_MS, left)));
      }
    },
  };
  return {
    record(entry) {
      const tracked: Promise<void> = port
        .append(entry, capacity)
        .then(
          () => undefined,
          (error: unknown) => losses.count(1, (error as { reason?: string }).reason ?? String(error)),
        )
        .finally(() => inFlight.delete(tracked));
      inFlight.add(tracked);
    },
    reads,
    lost: losses.total,
    close() {
      closed = true;
    },
  };
}
