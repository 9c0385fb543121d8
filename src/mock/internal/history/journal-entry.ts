/**
 * What the request journal keeps of each answered request, and how a page of it is filtered: plain data, below the
 * journal itself (domain/journal.ts) so the control handle's types (handle/control-handle.ts) name an entry without
 * importing the control plane that keeps them.
 *
 * @module
 */

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
  /**
   * What came of it: `ok`; the reason code of a refused GraphQL call (`TOKEN_EXPIRED`); `validation: <paths>` for a
   * 7.3 refusal (even when the HTTP status is 200); `HTTP <status>` for a REST refusal or an unknown path.
   */
  readonly outcome: string;
}

/** What the journal's `record` takes: an answered request before the journal numbers it. */
export type JournalRecord = Omit<JournalEntry, 'seq'>;

/** Filters of a page of the journal; every given one must match. */
export interface JournalFilter {
  readonly method?: string | undefined;
  /** Path without the query string. */
  readonly path?: string | undefined;
  readonly operationName?: string | undefined;
  readonly status?: number | undefined;
  readonly clientId?: string | undefined;
}

/**
 * An entry as a positional array, the form a state store keeps it in (the file's `jr` records, the Redis journal):
 * method, path, status, at, durationMs, operationName, guide, clientId, summary, outcome. JSON has no undefined, so
 * gaps are null. Stored files and Redis streams already hold entries in this form.
 */
export function journalArray(e: JournalRecord): unknown[] {
  const { method, path, status, at, durationMs, operationName, guide, clientId, summary, outcome } = e;
  return [
    method,
    path,
    status,
    at,
    durationMs,
    operationName ?? null,
    guide ?? null,
    clientId ?? null,
    summary ?? null,
    outcome,
  ];
}

/** The entry a {@link journalArray} holds. */
export function journalRecordOf(a: readonly unknown[]): JournalRecord {
  const [method, path, status, at, durationMs, operationName, guide, clientId, summary, outcome] = a.map(
    (v) => v ?? undefined,
  );
  return { method, path, status, at, durationMs, operationName, guide, clientId, summary, outcome } as JournalRecord;
}
