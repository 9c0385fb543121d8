/**
 * The request journal: every request the mock answered, in a bounded ring, and awaitable, so a test waits for "the
 * processPaymentRequest call arrived" instead of sleeping.
 *
 * Entries hold no bodies. The only request data kept is a masked summary of GraphQL variables (card numbers shown as
 * first 6 / last 4, CVVs dropped), built by {@link summarizeVariables}.
 *
 * @module
 */
import { maskCardNumber } from './domain/cards.ts';

/** One answered request. */
export interface JournalEntry {
  /** Position in the journal since the last reset, from 1; pass it as `since` to wait only for later requests. */
  readonly seq: number;
  readonly method: string;
  /** Path without the query string. */
  readonly path: string;
  /** GraphQL operation name, when the request was a GraphQL operation. */
  readonly operationName?: string | undefined;
  /** Guide the GraphQL request was answered in. */
  readonly guide?: 'current' | 'legacy' | undefined;
  /** HTTP status answered. */
  readonly status: number;
  /** Virtual time of the answer, ms since the epoch. */
  readonly at: number;
  /** Real time spent answering, in ms. */
  readonly durationMs: number;
  /** Client id, from the credentials or the access token, when known. */
  readonly clientId?: string | undefined;
  /** Masked summary of the GraphQL variables (no CVV, card numbers masked). */
  readonly summary?: unknown;
}

/** Options of {@link Journal.waitFor}. */
export interface WaitOptions {
  /** Give up after this many real milliseconds. Default 5,000. */
  readonly timeoutMs?: number;
  /** Only entries with `seq` greater than this count; default 0 (everything kept since the last reset). */
  readonly since?: number;
}

/** The journal of one mock instance. */
export interface Journal {
  /** Appends an entry and returns it (the journal assigns `seq`; optional fields may be undefined). */
  record(
    method: string,
    path: string,
    status: number,
    at: number,
    durationMs: number,
    operationName: string | undefined,
    guide: 'current' | 'legacy' | undefined,
    clientId: string | undefined,
    summary: unknown,
  ): JournalEntry;
  /** Entries kept, oldest first, optionally only those after `since`. */
  entries(since?: number): JournalEntry[];
  /** The `seq` of the latest entry (0 when empty): a cursor for `waitFor({ since })`. */
  cursor(): number;
  /** Resolves with the first entry matching `predicate`, already recorded or still to come; rejects on timeout. */
  waitFor(predicate: (entry: JournalEntry) => boolean, options?: WaitOptions): Promise<JournalEntry>;
  /** Forgets every entry and restarts `seq` at 1; pending waits keep waiting. */
  reset(): void;
  /** Rejects every pending wait (the mock is closing). */
  close(): void;
}

interface Waiter {
  readonly predicate: (entry: JournalEntry) => boolean;
  readonly since: number;
  readonly resolve: (entry: JournalEntry) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

/**
 * Creates a journal keeping the latest `capacity` entries.
 *
 * @example
 * const journal = createJournal(1000);
 * const entry = await journal.waitFor((e) => e.operationName === 'processPaymentRequest', { timeoutMs: 2000 });
 */
export function createJournal(capacity: number): Journal {
  const ring: (JournalEntry | undefined)[] = new Array(Math.max(1, capacity));
  let seq = 0;
  const waiters = new Set<Waiter>();

  function kept(since: number): JournalEntry[] {
    const out: JournalEntry[] = [];
    const first = Math.max(since + 1, seq - ring.length + 1, 1);
    for (let s = first; s <= seq; s++) {
      const e = ring[s % ring.length];
      if (e) out.push(e);
    }
    return out;
  }

  return {
    record(method, path, status, at, durationMs, operationName, guide, clientId, summary) {
      // One object of one shape per request: positional arguments avoid building and copying a second object.
      const full: JournalEntry = {
        seq: ++seq,
        method,
        path,
        operationName,
        guide,
        status,
        at,
        durationMs,
        clientId,
        summary,
      };
      ring[seq % ring.length] = full;
      if (waiters.size === 0) return full;
      for (const w of waiters) {
        if (full.seq <= w.since) continue;
        let match = false;
        try {
          match = w.predicate(full);
        } catch (error) {
          waiters.delete(w);
          clearTimeout(w.timer);
          w.reject(error instanceof Error ? error : new Error(String(error)));
          continue;
        }
        if (match) {
          waiters.delete(w);
          clearTimeout(w.timer);
          w.resolve(full);
        }
      }
      return full;
    },
    entries(since = 0) {
      return kept(since);
    },
    cursor() {
      return seq;
    },
    waitFor(predicate, options = {}) {
      const since = options.since ?? 0;
      const timeoutMs = options.timeoutMs ?? 5000;
      for (const e of kept(since)) if (predicate(e)) return Promise.resolve(e);
      return new Promise<JournalEntry>((resolve, reject) => {
        const waiter: Waiter = {
          predicate,
          since,
          resolve,
          reject,
          timer: setTimeout(() => {
            waiters.delete(waiter);
            reject(
              new Error(
                `[payment-contract-kit] No request matched within ${timeoutMs} ms; check the predicate, or read control.requests() to see what arrived.`,
              ),
            );
          }, timeoutMs),
        };
        waiters.add(waiter);
      });
    },
    reset() {
      ring.fill(undefined);
      seq = 0;
    },
    close() {
      for (const w of waiters) {
        clearTimeout(w.timer);
        w.reject(new Error('[payment-contract-kit] The mock was closed while waiting for a request.'));
      }
      waiters.clear();
    },
  };
}

/**
 * A copy of GraphQL variables safe to keep and show: card numbers (`card_number`, legacy `number`) masked to first 6 /
 * last 4, `cvv` removed at any depth. Depth and size are bounded, as the summary is for eyes, not for replay.
 *
 * Runs on every GraphQL request with variables, so it walks objects with `for…in` and compares keys directly
 * instead of `Object.entries` and Set lookups (3 % of a payment request's CPU before, profiled).
 */
export function summarizeVariables(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth > 6) return '[…]';
  if (Array.isArray(value)) {
    const n = Math.min(value.length, 20);
    const list: unknown[] = new Array(n);
    for (let i = 0; i < n; i++) list[i] = summarizeVariables(value[i], depth + 1);
    return list;
  }
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key in source) {
    if (!Object.hasOwn(source, key) || key === 'cvv') continue;
    const v = source[key];
    out[key] =
      (key === 'card_number' || key === 'number') && typeof v === 'string'
        ? maskCardNumber(v)
        : summarizeVariables(v, depth + 1);
  }
  return out;
}
