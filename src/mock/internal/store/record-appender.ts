/**
 * The appending half of the file store's layer (state-sync.ts): records buffered and appended in batches, the
 * records an answer waits for apart from those that ride along with the next batch (a journal entry).
 *
 * @module
 */

import type { RecordBody } from './records.ts';
import type { RecordLogStore, StoreRecord } from './sandbox-store.ts';
import { asUnavailable, StoreUnavailableError } from './store-errors.ts';

const nothing = () => undefined;

/**
 * Records no answer waits for: a request's journal entry (`jr`) is written after its answer, so it rides along with
 * the next batch (or goes on its own within a follow interval). Nothing acknowledged depends on it: a failed append
 * of it is logged and counted, and the answer stands.
 */
const deferredTypes: ReadonlySet<string> = new Set(['jr']);

/** The timer that flushes deferred records on their own after `ms` (unref'd; one at a time). */
function deferTimer(ms: number, flush: () => Promise<unknown>) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    arm(): void {
      if (timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        flush().catch(nothing);
      }, ms);
      (timer as { unref?: () => void }).unref?.();
    },
    clear(): void {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}

/**
 * The file store's appender: records buffered, appended in order, one batch at a time.
 *
 * @example
 * const appender = createAppender(store, processId, 250, () => stale, markStale, () => compactor.check());
 * appender.record({ t: 'card', a: account });
 */
export function createAppender(
  store: RecordLogStore,
  me: string,
  deferMs: number,
  refused: () => StoreUnavailableError | undefined,
  onFailure: (e: StoreUnavailableError, deferredOnly: number) => void,
  onAppended: () => void,
) {
  let buffer: StoreRecord[] = [];
  /** Records in `buffer` an answer waits for (the others are deferred types). */
  let urgent = 0;
  let flushQueued = false;
  const deferred = deferTimer(deferMs, () => flush());
  /** The last append (each one starts after the one before), resolving with the last position appended so far. */
  let chain: Promise<string | undefined> = Promise.resolve(undefined);
  let lastPosition: string | undefined;
  /** Appends under way that hold records an answer waits for. */
  let appending = 0;
  /** `commit` callers waiting for the flush that takes their records (boxed: a promise would be adopted). */
  const takers: ((batch: { p: Promise<unknown> }) => void)[] = [];
  const took = (p: Promise<unknown>) => {
    for (const take of takers.splice(0)) take({ p });
  };

  function flush(): Promise<string | undefined> {
    flushQueued = false;
    deferred.clear();
    if (buffer.length === 0) return chain;
    const batch = buffer;
    const holds = urgent > 0;
    buffer = [];
    urgent = 0;
    if (holds) appending += 1;
    const p: Promise<string | undefined> = chain
      .catch(nothing)
      .then(async () => {
        const down = refused();
        if (down) throw down;
        try {
          lastPosition = (await store.append(batch)) ?? lastPosition;
        } catch (error) {
          const e = asUnavailable(error);
          onFailure(e, holds ? 0 : batch.length);
          throw e;
        }
        onAppended();
        return lastPosition;
      })
      .finally(() => {
        if (holds) appending -= 1;
      });
    chain = p;
    took(p);
    return p;
  }

  /** Flushes in a microtask (records made in the same task share the batch). */
  function soon(): void {
    if (flushQueued) return;
    flushQueued = true;
    queueMicrotask(() => {
      if (flushQueued) flush().catch(nothing);
    });
  }

  function push(body: RecordBody): void {
    (body as { o?: string }).o = me;
    buffer.push(body as StoreRecord);
  }

  return {
    /** Appends `bodies` (not yet applied to the view) with the next batch; resolves once they are durable. */
    commit(bodies: readonly RecordBody[]): Promise<void> {
      for (const body of bodies) push(body);
      urgent += bodies.length;
      soon();
      return new Promise<{ p: Promise<unknown> }>((resolve) => takers.push(resolve)).then(({ p }) => p.then(nothing));
    },
    record(body: RecordBody): void {
      push(body);
      if (deferredTypes.has(body.t)) {
        // Appended with the next batch, or on its own after a while: never a round trip of its own per request.
        if (!flushQueued) deferred.arm();
        return;
      }
      urgent += 1;
      // Work outside requests (settlement, webhooks, direct control calls) is appended soon; a failure there is
      // already logged and marks the view stale.
      soon();
    },
    flush: () => flush().then(nothing),
    /** Flushes now; resolves with the position of the last record appended so far. */
    flushed: flush,
    /** Whether records an answer must wait for are buffered, or an append of such records is under way. */
    busy: () => urgent > 0 || appending > 0,
    /** Drops what is buffered (a rebuild: never acknowledged); returns how many deferred records went with it. */
    drop(): number {
      const lost = buffer.length - urgent;
      buffer = [];
      urgent = 0;
      flushQueued = false;
      deferred.clear();
      const gone = Promise.reject(new StoreUnavailableError('the records were dropped: the state store failed'));
      gone.catch(nothing);
      took(gone);
      return lost;
    },
    /** The last append, settled either way. */
    settled: () => chain.then(nothing, nothing),
  };
}
