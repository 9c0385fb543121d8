/**
 * The state store's layer inside the mock (decision 0015): records of this process's changes are buffered
 * and appended in batches; a request's answer waits until the records it produced are durable; other processes'
 * records (or this store's past, at start) are applied to this process's view; once-only work runs where its claim
 * is won; a store fault marks the view stale, and the view is rebuilt from the store when it answers again.
 *
 * Built only with a file or Redis store: with `memory:` no module has a recorder and the pipeline never calls here.
 *
 * @module
 */
import { errorLine, kitMessage } from '../../../internal/messages.ts';
import { type CompactionThresholds, createCompactor } from './compaction.ts';
import type { FencedWork, OnceOnly } from './once-only.ts';
import type { RecordApplier, RecordBody } from './records.ts';
import type { SandboxEpoch } from './sandbox-epoch.ts';
import {
  type FencedAppendResult,
  type SandboxStore,
  type StoreRecord,
  StoreUnavailableError,
} from './sandbox-store.ts';
import { type FenceLoss, fenceLossCounter, lossCounter } from './sync-losses.ts';

/** What the sync layer drives. */
export interface StateSyncDeps {
  readonly store: SandboxStore;
  /** This process's id: the `o` of its records. */
  readonly processId: string;
  /** Every module's applier, in dependency order (the state before settlement, which reads it). */
  readonly appliers: readonly RecordApplier[];
  /** Empties every module's view (not the id sources): before a rebuild. */
  readonly resetView: () => void;
  /** Told this start's boot number (1 on a fresh store) before anything is replayed. */
  readonly onBoot: (boot: number) => void;
  /** Claim lease (ms): a dead holder's work is taken over this long after its last renewal. */
  readonly leaseMs: number;
  /** How often a shared store is read without requests (ms). */
  readonly followMs: number;
  /** Writes a line to the mock's log. */
  readonly log: (line: string) => void;
  /** Every module's snapshot records, in the appliers' order (compaction; none: never compact by size). */
  readonly snapshot?: (() => readonly RecordBody[]) | undefined;
  /** When to compact (`Assumptions.store.compactAfterRecords` / `compactAfterBytes`). */
  readonly compactAfter?: CompactionThresholds | undefined;
  /** The store's epoch and clock (Redis): records carry their epoch, and every read of the store takes it. */
  readonly epoch?: SandboxEpoch | undefined;
}

/** The sync layer as the pipeline, the composition root and the settlement see it. */
export interface StateSync {
  /**
   * Every module's recorder: buffers the record and flushes it soon. `claim`: the once-only work the record is an
   * outcome of (`settle:<uuid>`); while this process holds that claim the append is fenced by it.
   */
  record(body: RecordBody, claim?: string): void;
  /** Once-only work through the store's claims. */
  readonly once: OnceOnly;
  /** Resolves when the store is open and the view replayed; rejects with {@link StoreUnavailableError}. */
  ready(): Promise<void>;
  /**
   * What a request waits for before it runs: open, rebuild or catch-up; undefined when nothing. `readsShared` false
   * (a request that reads only configuration) skips the catch-up: the follow loop keeps the view current. With an
   * epoch the catch-up reads it and the clock beside it (one round trip's wait; a fee list's token check reads them).
   */
  before(readsShared?: boolean): Promise<void> | undefined;
  /** What an answer waits for: the records produced so far made durable; undefined when none is pending. */
  after(): Promise<void> | undefined;
  /** Appends what is buffered (tests, close). */
  flush(): Promise<void>;
  /** Journal entries lost to failed appends (logged as they go; their requests had been answered). */
  deferredLost(): number;
  /**
   * Pieces of once-only work (claims) whose records the store refused because this process no longer held the claim
   * (it stalled past its lease and another process took the work over; decision 0033). Each is logged once.
   */
  fencedOut(): number;
  /**
   * Compacts the store now: a snapshot of this process's view replaces the records it covers. Resolves false when
   * this process did not (another holds the claim, the view is stale, or the store refused a stale snapshot).
   */
  compact(): Promise<boolean>;
  /** Compactions this process made, and views it rebuilt because a compaction passed its position. */
  compactions(): { readonly made: number; readonly caughtUpFromSnapshot: number };
  /** Stops following and renewing, appends what is buffered and closes the store. */
  close(): Promise<void>;
}

/** Records read per round trip while catching up or replaying. */
const READ_BATCH = 1000;

/** A store fault as {@link StoreUnavailableError} (a store may reject with anything). */
export function asUnavailable(error: unknown): StoreUnavailableError {
  return error instanceof StoreUnavailableError
    ? error
    : new StoreUnavailableError(`store-error: ${errorLine(error)}`, { cause: error });
}

interface Job {
  readonly key: string;
  readonly needed: () => boolean;
  // biome-ignore lint/suspicious/noConfusingVoidType: work with no fenced outcome returns nothing.
  readonly work: () => FencedWork | undefined | void;
  readonly holdWhile?: (() => boolean) | undefined;
}

/**
 * Records no answer waits for: a request's journal entry (`jr`) is written after its answer, so it rides along with
 * the next batch (or goes on its own within a follow interval). Nothing acknowledged depends on it: a failed append
 * of it is logged and counted, and the answer stands.
 */
const deferredTypes: ReadonlySet<string> = new Set(['jr']);

/** The appending half: records buffered, appended in order, one batch at a time. */
interface Appender {
  /** Buffers `body`; `fence`: the claim its append is conditional on (decision 0033). */
  record(body: RecordBody, fence?: string): void;
  /**
   * Appends `bodies` (not yet applied to the view) only while `fence` is held: resolves true when appended, false
   * when the store refused them because the claim was lost; rejects when the store is down.
   */
  commit(bodies: readonly RecordBody[], fence: string): Promise<boolean>;
  flush(): Promise<void>;
  /** Whether records an answer must wait for are buffered, or an append of such records is under way. */
  busy(): boolean;
  /** Drops what is buffered (a rebuild: never acknowledged); returns how many deferred records went with it. */
  drop(): number;
  /** The last append, settled either way. */
  settled(): Promise<void>;
  /**
   * Flushes now and resolves with the position of the last record appended so far (undefined when the store cannot
   * say or nothing was appended): every record made before the call is at or before it.
   */
  flushed(): Promise<string | undefined>;
}

const nothing = () => undefined;

/** The timer that flushes deferred records on their own after `deferMs` (unref'd; one at a time). */
function createDeferTimer(deferMs: number, flush: () => Promise<unknown>) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    arm(): void {
      if (timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        flush().catch(nothing);
      }, deferMs);
      (timer as { unref?: () => void }).unref?.();
    },
    clear(): void {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}

/** A flush that took the buffer, as `commit` waits for it (boxed: a promise would be adopted, not passed on). */
interface TakenBatch {
  readonly p: Promise<string | undefined>;
}

/** `commit` callers waiting for the flush that takes their records, so the commits of many payments share a batch. */
function createTakers() {
  let waiting: ((batch: TakenBatch) => void)[] = [];
  const took = (p: Promise<string | undefined>) => {
    const now = waiting;
    waiting = [];
    for (const take of now) take({ p });
  };
  return {
    /** The flush that takes what is buffered now. */
    next: () => new Promise<TakenBatch>((resolve) => waiting.push(resolve)),
    took,
    /** The buffer was dropped (a store fault): its commits fail as the fault did. */
    dropped(): void {
      const gone = Promise.reject(new StoreUnavailableError('the records were dropped: the state store failed'));
      gone.catch(nothing);
      took(gone);
    },
  };
}

/** The claims of the records buffered for one batch: kept beside the buffer only from its first fenced record on. */
function createFenceList() {
  let fences: (string | undefined)[] = [];
  let count = 0;
  return {
    /** Notes the fence of the record about to be buffered after `before` others. */
    push(fence: string | undefined, before: number): void {
      if (fence === undefined && count === 0) return;
      if (count === 0) fences = new Array<string | undefined>(before).fill(undefined);
      fences.push(fence);
      if (fence !== undefined) count += 1;
    },
    /** The batch's fences (undefined: none fenced), starting afresh for the next batch. */
    take(): readonly (string | undefined)[] | undefined {
      const out = count > 0 ? fences : undefined;
      fences = [];
      count = 0;
      return out;
    },
  };
}

/** One batch to the store: fenced when it holds a fenced record and the store can fence (decision 0033). */
async function appendBatch(
  store: SandboxStore,
  me: string,
  batch: readonly StoreRecord[],
  fences: readonly (string | undefined)[] | undefined,
): Promise<FencedAppendResult> {
  if (fences && store.appendFenced) return store.appendFenced(batch, fences, me);
  const at = await store.append(batch);
  return { position: typeof at === 'string' ? at : undefined, lost: [] };
}

/** What a refusal of `lost` (indexes into `batch`) means: the claims, and whether the view already held them. */
function fenceLoss(
  batch: readonly StoreRecord[],
  fences: readonly (string | undefined)[],
  lost: readonly number[],
  uncommitted: WeakSet<StoreRecord>,
): FenceLoss {
  const keys = new Set<string>();
  let applied = false;
  for (const i of lost) {
    const key = fences[i];
    if (key !== undefined) keys.add(key);
    if (!uncommitted.has(batch[i]!)) applied = true;
  }
  return { keys, records: lost.length, applied };
}

function createAppender(
  store: SandboxStore,
  me: string,
  deferMs: number,
  refused: () => StoreUnavailableError | undefined,
  onFailure: (e: StoreUnavailableError, deferredOnly: number) => void,
  onAppended: () => void,
  onFenceLost: (loss: FenceLoss) => void,
  epoch: SandboxEpoch | undefined,
): Appender {
  let buffer: StoreRecord[] = [];
  const fences = createFenceList();
  /** Records of `commit`, not yet in the view: a refusal of only those changes nothing here. */
  const uncommitted = new WeakSet<StoreRecord>();
  /** The claims whose records the last batch lost (read by `commit` right after its batch). */
  const lostBy = new WeakMap<Promise<string | undefined>, ReadonlySet<string>>();
  /** Records in `buffer` an answer waits for (the others are deferred types). */
  let urgent = 0;
  let flushQueued = false;
  const deferred = createDeferTimer(deferMs, () => flush());
  /** The last append (each one starts after the one before), resolving with the last position appended so far. */
  let chain: Promise<string | undefined> = Promise.resolve(undefined);
  let lastPosition: string | undefined;
  /** Appends under way that hold records an answer waits for. */
  let appending = 0;
  const takers = createTakers();

  function flush(): Promise<string | undefined> {
    flushQueued = false;
    deferred.clear();
    if (buffer.length === 0) return chain;
    const batch = buffer;
    const batchFences = fences.take();
    const holds = urgent > 0;
    buffer = [];
    urgent = 0;
    if (holds) appending += 1;
    const p: Promise<string | undefined> = chain
      .catch(() => undefined)
      .then(async () => {
        const down = refused();
        if (down) throw down;
        try {
          const answer = await appendBatch(store, me, batch, batchFences);
          if (answer.position !== undefined) lastPosition = answer.position;
          if (answer.lost.length > 0 && batchFences) {
            const loss = fenceLoss(batch, batchFences, answer.lost, uncommitted);
            lostBy.set(p, loss.keys);
            onFenceLost(loss);
          }
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
    takers.took(p);
    return p;
  }

  /** Flushes in a microtask (records made in the same task share the batch). */
  function soon(): void {
    if (flushQueued) return;
    flushQueued = true;
    queueMicrotask(() => {
      if (flushQueued) flush().catch(() => undefined);
    });
  }

  function push(body: RecordBody, fence: string | undefined): StoreRecord {
    (body as { o?: string }).o = me;
    epoch?.stamp(body);
    fences.push(fence, buffer.length);
    buffer.push(body as StoreRecord);
    return body as StoreRecord;
  }

  return {
    commit(bodies, fence) {
      for (const body of bodies) {
        uncommitted.add(push(body, fence));
        urgent += 1;
      }
      soon();
      return takers.next().then(({ p }) => p.then(() => !lostBy.get(p)?.has(fence)));
    },
    record(body, fence) {
      push(body, fence);
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
    flush: () => flush().then(() => undefined),
    flushed: flush,
    busy: () => urgent > 0 || appending > 0,
    drop() {
      const lost = buffer.length - urgent;
      buffer = [];
      fences.take();
      urgent = 0;
      flushQueued = false;
      deferred.clear();
      takers.dropped();
      return lost;
    },
    settled: () => chain.then(nothing, nothing),
  };
}

/** The claiming half: once-only jobs, retried after the lease when held elsewhere, and claims held and renewed. */
interface ClaimRunner {
  attempt(job: Job): Promise<void>;
  /** Whether this process believes it holds `key` now (a stalled holder may still believe it: the store decides). */
  holds(key: string): boolean;
  /** Stops renewing `key`: the store refused a record fenced by it (another process holds the work now). */
  lost(key: string): void;
  /** Runs `run` after `ms` of real time (unless closed). */
  later(run: () => void, ms: number): void;
  close(): Promise<void>;
}

function createClaimRunner(
  store: SandboxStore,
  me: string,
  leaseMs: number,
  o: {
    readonly catchUp: () => Promise<void>;
    readonly flush: () => Promise<void>;
    readonly commit: (bodies: readonly RecordBody[], fence: string) => Promise<boolean>;
  },
): ClaimRunner {
  const held = new Map<string, () => boolean>();
  // A renewal never takes a free key back (a stalled holder must not regain a claim another may have used).
  const renewClaim = (key: string) => (store.renew ?? store.claim).call(store, key, me, leaseMs);
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let renew: ReturnType<typeof setInterval> | undefined;
  let closed = false;

  function later(run: () => void, ms: number): void {
    if (closed) return;
    const t = setTimeout(() => {
      timers.delete(t);
      run();
    }, ms);
    (t as { unref?: () => void }).unref?.();
    timers.add(t);
  }

  async function attempt(job: Job): Promise<void> {
    if (closed) return;
    try {
      if (store.shared) await o.catchUp();
      if (!job.needed()) return;
      if (!(await store.claim(job.key, me, leaseMs))) {
        // Held elsewhere: look again after the lease; if the holder died, its claim has run out by then.
        later(() => void attempt(job), leaseMs);
        return;
      }
      // Renewed from now until the outcome is durable, and once more when it is: the lease then runs a whole lease
      // past the durable outcome, and is left to lapse rather than released (a process that read the store just
      // before the flush and claimed just after a release would see the work undone and do it again).
      held.set(job.key, () => true);
      startRenewing();
      try {
        // Read again now that the claim is ours: the last holder's outcome was durable before its claim could
        // lapse, so this read sees it.
        if (store.shared) await o.catchUp();
        if (!job.needed()) return;
        const outcome = job.work();
        // Fenced (decision 0033): the outcome goes to the store only while the claim is still this process's, and
        // changes the view (and starts its side effects) only once the store took it.
        if (outcome) {
          if (!(await o.commit(outcome.records, job.key))) return;
          outcome.commit();
        }
        await o.flush();
      } finally {
        held.delete(job.key);
      }
      if (!(await renewClaim(job.key))) return;
      if (job.holdWhile?.()) hold(job.key, job.holdWhile);
    } catch {
      // The store is down (logged by the flush or the read): try again after the lease.
      later(() => void attempt(job), leaseMs);
    }
  }

  function renewAll(): void {
    for (const [k, still] of held) {
      if (still())
        renewClaim(k)
          .then((ok) => {
            // Lapsed (this process stalled past its lease): another may hold it; stop renewing.
            if (!ok && held.get(k) === still) held.delete(k);
          })
          .catch(() => undefined);
      else {
        // Done: durable, renewed once more, then left to lapse (see attempt).
        held.delete(k);
        o.flush()
          .then(() => renewClaim(k))
          .catch(() => undefined);
      }
    }
    if (held.size === 0 && renew) {
      clearInterval(renew);
      renew = undefined;
    }
  }

  function hold(key: string, holdWhile: () => boolean): void {
    held.set(key, holdWhile);
    startRenewing();
  }

  function startRenewing(): void {
    if (renew || closed) return;
    renew = setInterval(renewAll, Math.max(50, Math.floor(leaseMs / 3)));
    (renew as { unref?: () => void }).unref?.();
  }

  return {
    attempt,
    later,
    holds: (key) => held.has(key),
    lost(key) {
      held.delete(key);
    },
    async close() {
      closed = true;
      if (renew) clearInterval(renew);
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const k of held.keys()) await store.release(k, me).catch(() => undefined);
    },
  };
}

/** A read met the start of a snapshot after the reader's position was compacted away: rebuild the view. */
class SnapshotRestart extends Error {
  constructor() {
    super('the store was compacted past this reader: its view is rebuilt from the snapshot');
    this.name = 'SnapshotRestart';
  }
}

/** The reading half: records after the last position read, applied in order. */
function createReader(
  store: SandboxStore,
  me: string,
  deps: Pick<StateSyncDeps, 'appliers' | 'resetView' | 'epoch'>,
  onFailure: (e: StoreUnavailableError) => void,
) {
  let position: string | undefined;
  /** Position of the last `rst` record read: everything up to it describes nothing the view still holds. */
  let lastReset: string | undefined;
  let reading: Promise<void> | undefined;
  let rereadQueued: Promise<void> | undefined;

  /**
   * Reads and applies everything after `position`. Records of this process are already in the view, except in a
   * replay after the view was emptied (`own`), and in a snapshot (another process wrote them down). A read that
   * starts over from a snapshot throws {@link SnapshotRestart} before applying anything, unless replaying: then the
   * view is emptied and the snapshot applied.
   */
  async function readAll(own: boolean): Promise<void> {
    for (;;) {
      let batch: Awaited<ReturnType<SandboxStore['readAfter']>>;
      try {
        batch = await store.readAfter(position, READ_BATCH);
      } catch (error) {
        const e = asUnavailable(error);
        onFailure(e);
        throw e;
      }
      // Compacted past this reader; or a reader that has read nothing yet (the store was empty at its start) meets a
      // snapshot, which may carry this process's own changes its view already holds (a clock move applied twice).
      const first = batch[0]?.snapshot;
      if ((first === 'start' && position !== undefined) || (first !== undefined && position === undefined && !own)) {
        if (!own) throw new SnapshotRestart();
        deps.resetView();
      }
      for (const { position: at, record: r, snapshot } of batch) {
        position = at;
        if (r.t === 'rst') lastReset = at;
        const applies = (own || snapshot !== undefined || r.o !== me) && (deps.epoch?.admits(r) ?? true);
        if (applies) for (const a of deps.appliers) a.apply(r);
      }
      if (batch.length < READ_BATCH) return;
    }
  }

  function start(own: boolean): Promise<void> {
    reading = readAll(own).finally(() => {
      reading = undefined;
    });
    return reading;
  }

  /** One read at a time (a replay included); a caller arriving during one waits for the next, which sees what it must. */
  function catchUp(): Promise<void> {
    if (!reading) return start(false);
    rereadQueued ??= reading
      .catch(() => undefined)
      .then(() => {
        rereadQueued = undefined;
        return catchUp();
      });
    return rereadQueued;
  }

  return {
    catchUp,
    reading: () => reading !== undefined,
    lastReset: () => lastReset,
    position: () => position,
    /** Everything from the start, this process's own records included, once no other read is under way. */
    async replay() {
      while (reading) await reading.catch(() => undefined);
      position = undefined;
      return start(true);
    },
  };
}

/**
 * A store only this process writes (file): records up to the last reset rebuild nothing, so they go (compaction by
 * the store's atomic rename). A failure only leaves the log longer.
 */
async function compactToReset(store: SandboxStore, upTo: string | undefined, log: (line: string) => void) {
  if (upTo === undefined) return;
  await store.compact([], upTo).catch((error: unknown) => {
    log(kitMessage(`compacting the state store failed; it stays as it was: ${asUnavailable(error).reason}`));
  });
}

/** The log line of a store fault. */
const staleMessage = (error: StoreUnavailableError) =>
  kitMessage(
    `the state store failed (${error.reason}): requests answer 503 until it is back, then the mock rebuilds its state from it by itself. Changes not yet acknowledged to a caller are dropped.`,
  );

/**
 * The catching-up half: reads what others appended, and compacts by size. A read that meets a snapshot past this
 * view (a compaction passed its position: this process stalled, or read nothing, while the store took more records
 * than the compaction keeps) rebuilds the view: what this process appended goes first, then the view is emptied and
 * rebuilt from the snapshot and what follows it, as at a restart. Requests wait for it, as for any catch-up.
 */
function createFollower(o: {
  readonly deps: StateSyncDeps;
  readonly reader: ReturnType<typeof createReader>;
  readonly appender: Appender;
  readonly replay: () => Promise<void>;
  /** Open, not stale, not closed. */
  readonly usable: () => boolean;
}) {
  const { deps, reader, appender } = o;
  const behind = { rebuilding: undefined as Promise<void> | undefined, count: 0 };
  const compactor = deps.snapshot
    ? createCompactor({
        ...{ store: deps.store, processId: deps.processId, leaseMs: deps.leaseMs, snapshot: deps.snapshot },
        ...{ thresholds: deps.compactAfter ?? { records: 0, bytes: 0 }, flushed: appender.flushed, catchUp },
        ...{ position: reader.position, log: deps.log, usable: () => o.usable() && !behind.rebuilding },
      })
    : undefined;

  function catchUp(): Promise<void> {
    if (behind.rebuilding) return behind.rebuilding;
    return reader.catchUp().then(
      () => compactor?.check(),
      (error: unknown) => {
        if (error instanceof SnapshotRestart) return rebuildView(true);
        throw error;
      },
    );
  }

  /**
   * Rebuilds the view from the store: `compacted`, because a compaction passed this process's position; else because
   * the store refused fenced records the view already held (decision 0033: the view drops them, taking the store's).
   */
  function rebuildView(compacted: boolean): Promise<void> {
    behind.rebuilding ??= (async () => {
      await appender.flush().catch(() => undefined);
      if (!o.usable()) return;
      deps.resetView();
      await o.replay();
      if (!compacted) return;
      behind.count += 1;
      deps.log(kitMessage('the state store was compacted past this process: its state was rebuilt from the snapshot.'));
    })().finally(() => {
      behind.rebuilding = undefined;
    });
    return behind.rebuilding;
  }

  const controls: Pick<StateSync, 'compact' | 'compactions'> = {
    compact: () => compactor?.run() ?? Promise.resolve(false),
    compactions: () => ({ made: compactor?.count() ?? 0, caughtUpFromSnapshot: behind.count }),
  };
  return { catchUp, compactor, controls, rebuildView };
}

/** After a store fault: drops what was never acknowledged, probes the store, and replays it into an emptied view. */
async function rebuildAfterFault(
  store: SandboxStore,
  appender: Appender,
  resetView: () => void,
  replay: () => Promise<void>,
): Promise<void> {
  appender.drop();
  await appender.settled();
  // Is the store back? A write probes it (a read may work on a full or read-only disk).
  try {
    await store.increment('probe');
  } catch (error) {
    throw asUnavailable(error);
  }
  resetView();
  await replay();
}

/**
 * Follows the other processes: `poll` on the store's watch and every `followMs`; the interval also reads the epoch
 * and the clock (no record brings a clock move), so due work here runs without a request. Returns the stop.
 */
function startFollowing(store: SandboxStore, deps: Pick<StateSyncDeps, 'followMs' | 'epoch'>, poll: () => void) {
  const follow = setInterval(() => {
    poll();
    deps.epoch?.read().catch(() => undefined);
  }, deps.followMs);
  (follow as { unref?: () => void }).unref?.();
  const unwatch = store.watch?.(poll);
  return () => {
    clearInterval(follow);
    unwatch?.();
  };
}

/**
 * Creates the sync layer; nothing is opened until {@link StateSync.ready} or the first request.
 *
 * @example
 * const sync = createStateSync({ store, processId, appliers: [tokens, state, settlement], resetView, onBoot, leaseMs: 3000, followMs: 250, log });
 * await sync.ready();
 */
export function createStateSync(deps: StateSyncDeps): StateSync {
  const { store, processId: me } = deps;
  let opening: Promise<void> | undefined;
  let opened = false;
  let stale: StoreUnavailableError | undefined;
  let rebuilding: Promise<void> | undefined;
  let replaying = false;
  let closed = false;
  const deferred: Job[] = [];
  let stopFollowing: (() => void) | undefined;
  const lost = lossCounter(deps.log);
  const appended = () => follower.compactor?.check();
  const appender = createAppender(
    store,
    me,
    deps.followMs,
    () => stale,
    markStale,
    appended,
    (l) => fenced.count(l),
    deps.epoch,
  );
  const reader = createReader(store, me, deps, markStale);
  const catchUp = () => follower.catchUp();
  const claims = createClaimRunner(store, me, deps.leaseMs, { catchUp, ...appender });
  const follower = createFollower({ deps, reader, appender, replay, usable: () => opened && !stale && !closed });
  const fenced = fenceLossCounter(deps.log, claims.lost, () => follower.rebuildView(false));

  // Emptied at once (no timer may act on a change its caller got a 503 for), rebuilt once the store answers.
  function markStale(error: StoreUnavailableError, deferredLost = 0): void {
    lost.count(deferredLost, error.reason);
    if (stale !== undefined || !opened) return;
    stale = error;
    deps.log(staleMessage(error));
    lost.count(appender.drop(), error.reason);
    deps.resetView();
    claims.later(recover, deps.followMs);
  }

  function recover(): void {
    if (stale === undefined || closed) return;
    startRebuild().catch(() => claims.later(recover, deps.followMs));
  }

  function startRebuild(): Promise<void> {
    rebuilding ??= rebuild().finally(() => {
      rebuilding = undefined;
    });
    return rebuilding;
  }

  async function replay(): Promise<void> {
    replaying = true;
    try {
      // The epoch first: the records of older ones are not replayed (and the clock is the store's).
      await deps.epoch?.read();
      await reader.replay();
    } finally {
      replaying = false;
    }
    for (const job of deferred.splice(0)) void claims.attempt(job);
  }

  async function open(): Promise<void> {
    try {
      await store.open();
      deps.onBoot(await store.increment('boot'));
    } catch (error) {
      throw asUnavailable(error);
    }
    await replay();
    opened = true;
    if (!store.shared) return compactToReset(store, reader.lastReset(), deps.log);
    const poll = () => {
      if (!closed && !stale && !reader.reading()) catchUp().catch(() => undefined);
    };
    stopFollowing = startFollowing(store, deps, poll);
  }

  function ready(): Promise<void> {
    opening ??= open().catch((error: unknown) => {
      opening = undefined;
      throw asUnavailable(error);
    });
    return opening;
  }

  async function rebuild(): Promise<void> {
    await rebuildAfterFault(store, appender, deps.resetView, replay);
    stale = undefined;
    deps.log(kitMessage('the state store answers again: state rebuilt from it; requests are served again.'));
  }

  return {
    record: (body, claim) => appender.record(body, claim !== undefined && claims.holds(claim) ? claim : undefined),
    once: {
      run: (key, job) => (replaying || !opened ? deferred.push({ key, ...job }) : claims.attempt({ key, ...job })),
    },
    ready,
    before(readsShared = true) {
      if (!opened) return ready();
      if (stale) return startRebuild();
      if (!store.shared || !readsShared) return undefined;
      return deps.epoch ? Promise.all([catchUp(), deps.epoch.read()]).then(() => undefined) : catchUp();
    },
    after: () => (appender.busy() ? appender.flush() : undefined),
    flush: appender.flush,
    deferredLost: lost.total,
    fencedOut: fenced.total,
    ...follower.controls,
    async close() {
      closed = true;
      stopFollowing?.();
      // What is buffered becomes durable before the claims go: another process must not redo finished work.
      await appender.flush().catch(() => undefined);
      await claims.close();
      await store.close().catch(() => undefined);
    },
  };
}
