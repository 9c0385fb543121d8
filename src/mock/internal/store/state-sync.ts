/**
 * The file store's layer inside the mock (decision 0015): records of this process's changes are buffered and
 * appended in batches; a request's answer waits until the records it produced are durable; at start the log is
 * replayed into the emptied parts; a store fault marks the view stale, and the view is rebuilt from the log when the
 * store answers again. The log grows until compaction by size rewrites it to a snapshot of the view.
 *
 * Built only with a file store: with `memory:` no module has a recorder, and a Redis store holds the state itself
 * (shared-sync.ts).
 *
 * @module
 */
import { errorLine, kitMessage } from '../../../internal/messages.ts';
import type { FencedWork, OnceOnly } from './once-only.ts';
import { createAppender } from './record-appender.ts';
import type { RecordApplier, RecordBody } from './records.ts';
import type { RecordLogStore, StoreRecord } from './sandbox-store.ts';
import { asUnavailable, type StoreUnavailableError } from './store-errors.ts';
import { lossCounter } from './sync-losses.ts';

/** When to compact: records or bytes beyond the last snapshot (0: that bound is off). */
export interface CompactionThresholds {
  readonly records: number;
  readonly bytes: number;
}

/** What the sync layer drives. */
export interface StateSyncDeps {
  readonly store: RecordLogStore;
  /** This process's id: the `o` of its records. */
  readonly processId: string;
  /** Every module's applier, in dependency order (the state before settlement, which reads it). */
  readonly appliers: readonly RecordApplier[];
  /** Empties every module's view (not the id sources): before a rebuild. */
  readonly resetView: () => void;
  /** Told this start's boot number (1 on a fresh store) before anything is replayed. */
  readonly onBoot: (boot: number) => void;
  /** How long a deferred record (a journal entry) waits for a batch to ride along with, and the retry delay (ms). */
  readonly followMs: number;
  /** Writes a line to the mock's log. */
  readonly log: (line: string) => void;
  /** Every module's snapshot records, in the appliers' order (compaction). */
  readonly snapshot: () => readonly RecordBody[];
  /** When to compact (`Assumptions.store.compactAfterRecords` / `compactAfterBytes`). */
  readonly compactAfter: CompactionThresholds;
}

/** What the pipeline, the handle and the composition root ask of a store's layer (the file's or Redis's). */
export interface StoreSync {
  /** Resolves when the store is open and the view ready; rejects with {@link StoreUnavailableError}. */
  ready(): Promise<void>;
  /**
   * What a request waits for before it runs (open, rebuild, the store's reading); undefined when nothing.
   * `readsShared` false: a request that reads only configuration.
   */
  before(readsShared?: boolean): Promise<void> | undefined;
  /** What an answer waits for: the changes made so far made durable; undefined when none is pending. */
  after(): Promise<void> | undefined;
  /** Makes durable what is buffered (tests, `control.durable()`, close). */
  flush(): Promise<void>;
  /** Journal entries lost to failed writes (logged as they go; their requests had been answered). */
  deferredLost(): number;
  /** Compacts the store now; resolves false when nothing was compacted (a store that never compacts). */
  compact(): Promise<boolean>;
  /** Compactions this process made. */
  compactions(): number;
  /** Stops its timers, makes durable what is buffered and closes the store. */
  close(): Promise<void>;
}

/** The file store's layer: {@link StoreSync} with the recorder and the once-only runner of the parts. */
export interface StateSync extends StoreSync {
  /** Every module's recorder: buffers the record and flushes it soon. */
  record(body: RecordBody): void;
  /** Once-only work: run after the replay, its outcome durable before it changes the view. */
  readonly once: OnceOnly;
}

const nothing = () => undefined;

/** Records read per round trip while replaying. */
const READ_BATCH = 1000;

interface Job {
  readonly needed: () => boolean;
  // biome-ignore lint/suspicious/noConfusingVoidType: work with no fenced outcome returns nothing.
  readonly work: () => FencedWork | undefined | void;
}

/**
 * Compaction by size (decision 0029): once the log holds `compactAfter` records or bytes beyond its last snapshot,
 * the view is written down (every module's snapshot records) and the store rewrites the log to it. The snapshot and
 * the flush of what it covers start in one synchronous step, so the snapshot holds exactly the records up to the
 * position that flush resolves with.
 */
function createCompactor(
  deps: StateSyncDeps,
  flushed: () => Promise<string | undefined>,
  usable: () => boolean,
  committing: () => Promise<unknown> | undefined,
) {
  const { store, compactAfter: bounds } = deps;
  let running: Promise<boolean> | undefined;
  let notBefore = 0;
  let made = 0;
  let position: string | undefined;

  function due(): boolean {
    const { records, bytes } = store.backlog();
    return (bounds.records > 0 && records >= bounds.records) || (bounds.bytes > 0 && bytes >= bounds.bytes);
  }

  async function compact(): Promise<boolean> {
    // An outcome durable but not yet in the view would be covered by the compaction point and missing from the
    // snapshot: wait until none is between the two.
    for (let wait = committing(); wait; wait = committing()) await wait;
    const records: StoreRecord[] = deps.snapshot().map((r) => ({ ...r, o: deps.processId }));
    const upTo = (await flushed()) ?? position;
    if (!usable() || upTo === undefined) return false;
    await store.compact(records, upTo);
    made += 1;
    return true;
  }

  function run(): Promise<boolean> {
    running ??= compact()
      .catch((error: unknown) => {
        notBefore = Date.now() + deps.followMs;
        deps.log(
          kitMessage(
            `compacting the state store failed; it stays as it was and the mock tries again later: ${errorLine(error)}`,
          ),
        );
        return false;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  return {
    /** Starts a compaction when the backlog is past a bound and none is running (no round trip). */
    check(): void {
      if (running || Date.now() < notBefore || !usable() || !due()) return;
      void run();
    },
    run,
    count: () => made,
    /** The position the replay read up to: the compaction point while this process has appended nothing. */
    readTo(at: string | undefined): void {
      position = at;
    },
  };
}

/** Reads the whole log into the appliers, in batches; resolves with the last position read and the last reset's. */
async function replayLog(store: RecordLogStore, appliers: readonly RecordApplier[]) {
  let position: string | undefined;
  let lastReset: string | undefined;
  for (;;) {
    const batch = await store.readAfter(position, READ_BATCH);
    for (const { position: at, record } of batch) {
      position = at;
      if (record.t === 'rst') lastReset = at;
      for (const a of appliers) a.apply(record);
    }
    if (batch.length < READ_BATCH) return { position, lastReset };
  }
}

/** Runs `run` after `ms` of real time, until stopped (unref'd: a retry never keeps a process alive). */
function retryTimers(ms: number) {
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let stopped = false;
  return {
    later(run: () => void): void {
      if (stopped) return;
      const t = setTimeout(() => {
        timers.delete(t);
        run();
      }, ms);
      (t as { unref?: () => void }).unref?.();
      timers.add(t);
    },
    stop(): void {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}

/**
 * The once-only runner: jobs wait while the log is replayed, then run; a job's outcome is durable before it changes
 * the view, and a store fault tries it again later.
 */
function onceRunner(appender: ReturnType<typeof createAppender>, later: (run: () => void) => void) {
  const waiting: Job[] = [];
  /** Once-only work between its outcome's append and its change of the view. */
  const committing = new Set<Promise<void>>();
  let held = true;

  async function attempt(job: Job): Promise<void> {
    if (!job.needed()) return;
    try {
      const outcome = job.work();
      if (outcome) {
        const commit = appender.commit(outcome.records).then(() => outcome.commit());
        const tracked = commit.catch(nothing).finally(() => committing.delete(tracked));
        committing.add(tracked);
        await commit;
      }
      await appender.flush();
    } catch {
      later(() => void attempt(job));
    }
  }

  return {
    run: (job: Job) => (held ? waiting.push(job) : void attempt(job)),
    /** Holds new jobs (a replay starts) or runs them and those held (it ended). */
    hold(on: boolean): void {
      held = on;
      if (!on) for (const job of waiting.splice(0)) void attempt(job);
    },
    /** Settles when no outcome is between its append and its change of the view; undefined when none is. */
    committing: () => (committing.size === 0 ? undefined : Promise.all(committing)),
  };
}

/** The log line of a store fault. */
const staleMessage = (error: StoreUnavailableError) =>
  kitMessage(
    `the state store failed (${error.reason}): requests answer 503 until it is back, then the mock rebuilds its state from it by itself. Changes not yet acknowledged to a caller are dropped.`,
  );

/**
 * Creates the file store's layer; nothing is opened until {@link StateSync.ready} or the first request.
 *
 * @example
 * const sync = createStateSync({ store, processId, appliers: [tokens, state, settlement], resetView, onBoot, followMs: 250, log, snapshot, compactAfter });
 * await sync.ready();
 */
export function createStateSync(deps: StateSyncDeps): StateSync {
  const { store } = deps;
  let opening: Promise<void> | undefined;
  let opened = false;
  let stale: StoreUnavailableError | undefined;
  let rebuilding: Promise<void> | undefined;
  let closed = false;
  const { later, stop } = retryTimers(deps.followMs);
  const lost = lossCounter(deps.log);
  const appender = createAppender(
    store,
    deps.processId,
    deps.followMs,
    () => stale,
    markStale,
    () => compactor.check(),
  );
  const usable = () => opened && !stale && !closed;
  const once = onceRunner(appender, later);
  const compactor = createCompactor(deps, appender.flushed, usable, once.committing);

  // Emptied at once (no timer may act on a change its caller got a 503 for), rebuilt once the store answers.
  function markStale(error: StoreUnavailableError, deferredLost = 0): void {
    lost.count(deferredLost, error.reason);
    if (stale !== undefined || !opened) return;
    stale = error;
    deps.log(staleMessage(error));
    lost.count(appender.drop(), error.reason);
    deps.resetView();
    later(recover);
  }

  function recover(): void {
    if (stale === undefined || closed) return;
    startRebuild().catch(() => later(recover));
  }

  function startRebuild(): Promise<void> {
    rebuilding ??= rebuild().finally(() => {
      rebuilding = undefined;
    });
    return rebuilding;
  }

  /** Replays the log; resolves with the position of its last reset. Once-only work waits for it to succeed. */
  async function replay(): Promise<string | undefined> {
    once.hold(true);
    const read = await replayLog(store, deps.appliers).catch((error: unknown) => {
      throw asUnavailable(error);
    });
    for (const a of deps.appliers) a.replayed?.();
    compactor.readTo(read.position);
    once.hold(false);
    return read.lastReset;
  }

  /** Records up to the last reset rebuild nothing, so they go. A failure only leaves the log longer. */
  async function compactToReset(upTo: string): Promise<void> {
    await store.compact([], upTo).catch((error: unknown) => {
      deps.log(kitMessage(`compacting the state store failed; it stays as it was: ${asUnavailable(error).reason}`));
    });
  }

  async function open(): Promise<void> {
    try {
      await store.open();
      deps.onBoot(await store.increment('boot'));
    } catch (error) {
      throw asUnavailable(error);
    }
    const lastReset = await replay();
    opened = true;
    if (lastReset !== undefined) await compactToReset(lastReset);
  }

  function ready(): Promise<void> {
    opening ??= open().catch((error: unknown) => {
      opening = undefined;
      throw asUnavailable(error);
    });
    return opening;
  }

  /** After a store fault: drops what was never acknowledged, probes the store, and replays it into an emptied view. */
  async function rebuild(): Promise<void> {
    appender.drop();
    await appender.settled();
    // Is the store back? A write probes it (a read may work on a full or read-only disk).
    await store.increment('probe').catch((error: unknown) => {
      throw asUnavailable(error);
    });
    deps.resetView();
    await replay();
    stale = undefined;
    deps.log(kitMessage('the state store answers again: state rebuilt from it; requests are served again.'));
  }

  return {
    record: (body) => appender.record(body),
    once: { run: once.run },
    ready,
    before() {
      if (!opened) return ready();
      if (stale) return startRebuild();
      return undefined;
    },
    after: () => (appender.busy() ? appender.flush() : undefined),
    flush: appender.flush,
    deferredLost: lost.total,
    compact: () => compactor.run(),
    compactions: compactor.count,
    async close() {
      closed = true;
      stop();
      await appender.flush().catch(nothing);
      await store.close().catch(nothing);
    },
  };
}
