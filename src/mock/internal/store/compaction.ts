/**
 * Compaction of a state store by size (decision 0029): once the store holds `compactAfterRecords` records
 * or `compactAfterBytes` bytes beyond its last snapshot, this process writes the sandbox as it sees it (every
 * module's snapshot records) and the store drops the records the snapshot replaces. Redis trims its stream
 * (`XTRIM MINID`); the file store rewrites its log atomically.
 *
 * On a shared store one process compacts at a time (the claim `compact`, whose holder the store checks again at the
 * swap: a compactor that stalled past its lease is refused). The snapshot is built in one synchronous step from a
 * view that holds exactly the records up to the reader's position, plus this process's own records up to the
 * position of the flush started in that same step; the store is told both, so a reader that starts from the
 * snapshot skips those own records rather than apply them twice.
 *
 * @module
 */
import { errorLine, kitMessage } from '../../../internal/messages.ts';
import type { RecordBody } from './records.ts';
import type { SandboxStore, StoreRecord } from './sandbox-store.ts';

/** When to compact: records or bytes beyond the last snapshot (0: that bound is off). */
export interface CompactionThresholds {
  readonly records: number;
  readonly bytes: number;
}

/** What the compactor needs of the sync layer. */
export interface CompactorDeps {
  readonly store: SandboxStore;
  readonly processId: string;
  readonly leaseMs: number;
  readonly thresholds: CompactionThresholds;
  /** Every module's snapshot records, in the appliers' order. */
  readonly snapshot: () => readonly RecordBody[];
  /** The reader's position now (the view holds every record up to it). */
  readonly position: () => string | undefined;
  /** Flushes now; resolves with the position of the last record this process appended. */
  readonly flushed: () => Promise<string | undefined>;
  /** Reads what other processes appended (shared stores). */
  readonly catchUp: () => Promise<void>;
  /** False while the view is stale, not yet open, or closed: no compaction then. */
  readonly usable: () => boolean;
  readonly log: (line: string) => void;
}

/** The compactor: `check` after each append or read; `run` compacts now (tests, and `check` when due). */
export interface Compactor {
  /** Starts a compaction when the store's backlog is past a threshold and none is running (no round trip). */
  check(): void;
  /** Compacts now; resolves true when this process compacted, false when it did not (another did, or refused). */
  run(): Promise<boolean>;
  /** Compactions this process made. */
  count(): number;
}

/** The claim a compactor holds on a shared store. */
export const compactionClaim = 'compact';

/** Creates the compactor of one sync layer. */
export function createCompactor(deps: CompactorDeps): Compactor {
  const { store, processId: me, thresholds } = deps;
  let running: Promise<boolean> | undefined;
  let notBefore = 0;
  let made = 0;

  function due(): boolean {
    const backlog = store.backlog?.();
    if (!backlog) return false;
    return (
      (thresholds.records > 0 && backlog.records >= thresholds.records) ||
      (thresholds.bytes > 0 && backlog.bytes >= thresholds.bytes)
    );
  }

  async function compactHeld(force: boolean): Promise<boolean> {
    if (store.shared) await deps.catchUp();
    // Another process may have compacted while this one waited: the read just now says.
    if (!deps.usable() || (!force && !due())) return false;
    // One synchronous step: the view, its position and the flush of what the view holds of this process's own.
    const from = deps.position();
    const records: StoreRecord[] = deps.snapshot().map((r) => ({ ...r, o: me }));
    const lastOwn = await deps.flushed();
    if (!deps.usable()) return false;
    const upTo = store.shared ? (from ?? '0-0') : (lastOwn ?? from);
    if (upTo === undefined) return false;
    const fence = store.shared ? { key: compactionClaim, owner: me } : undefined;
    if (fence && !(await store.claim(fence.key, me, deps.leaseMs))) return false;
    const covers = store.shared && lastOwn !== undefined ? { origin: me, upTo: lastOwn } : undefined;
    // A replica less than a lease (and half a threshold of records) behind reads on; one further behind rebuilds.
    const keepMs = store.shared ? deps.leaseMs : 0;
    const keepMax = Math.floor((thresholds.records > 0 ? thresholds.records : 10_000) / 2);
    const done = (await store.compact(records, upTo, { covers, fence, keepMs, keepMax })) !== false;
    if (done) made += 1;
    return done;
  }

  async function compact(force: boolean): Promise<boolean> {
    if (store.shared && !(await store.claim(compactionClaim, me, deps.leaseMs))) {
      // Another process compacts: the backlog this one sees drops with its next read.
      notBefore = Date.now() + deps.leaseMs;
      return false;
    }
    try {
      return await compactHeld(force);
    } finally {
      if (store.shared) await store.release(compactionClaim, me).catch(() => undefined);
    }
  }

  function run(force = true): Promise<boolean> {
    running ??= compact(force)
      .catch((error: unknown) => {
        notBefore = Date.now() + deps.leaseMs;
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
    check() {
      if (running || Date.now() < notBefore || !deps.usable() || !due()) return;
      void run(false);
    },
    run,
    count: () => made,
  };
}
