import {
  type PositionedRecord,
  type SandboxStore,
  type StoreRecord,
  StoreUnavailableError,
} from './mock-internals/store.ts';

/** One sandbox's shared state and its replicas' handles. */
export interface SharedMemorySandbox {
  /** A handle for one more replica. */
  replica(): SharedMemoryHandle;
  /** Every record appended so far (compacted ones excepted). */
  records(): readonly StoreRecord[];
  /** Makes every handle's calls reject (`true`) or work again (`false`): the store server down or back. */
  setDown(down: boolean): void;
}

/** A replica's handle, which a test can sever. */
export interface SharedMemoryHandle extends SandboxStore {
  /** From now on every call rejects: the replica is as good as dead to the sandbox. */
  sever(): void;
}

/**
 * Creates an empty shared sandbox.
 *
 * @example
 * const sandbox = createSharedMemorySandbox();
 * const a = buildNodeMockApp({ store: sandbox.replica() }, {});
 * const b = buildNodeMockApp({ store: sandbox.replica() }, {});
 */
export function createSharedMemorySandbox(now: () => number = Date.now): SharedMemorySandbox {
  let log: PositionedRecord[] = [];
  let last = 0;
  let down = false;
  const counters = new Map<string, number>();
  const claims = new Map<string, { owner: string; until: number }>();
  const watchers = new Set<() => void>();

  function replica(): SharedMemoryHandle {
    let severed = false;
    let mine: (() => void) | undefined;
    const check = () => {
      if (severed) throw new StoreUnavailableError('severed: this replica is cut off from the sandbox');
      if (down) throw new StoreUnavailableError('down: the shared test store is down');
    };
    // Every call answers after a macrotask, as a network store would: nothing is synchronous by accident.
    const later = <T>(work: () => T): Promise<T> =>
      new Promise((resolve, reject) =>
        setImmediate(() => {
          try {
            check();
            resolve(work());
          } catch (error) {
            reject(error);
          }
        }),
      );
    return {
      kind: 'redis',
      shared: true,
      open: () => later(() => undefined),
      append: (records) =>
        later(() => {
          for (const record of records) log.push({ position: String(++last), record: structuredClone(record) });
          for (const w of watchers) if (w !== mine) setImmediate(w);
        }),
      readAfter: (position, limit) =>
        later(() => {
          const after = position === undefined ? 0 : Number(position);
          return log.filter((r) => Number(r.position) > after).slice(0, limit);
        }),
      compact: (snapshot, upTo) =>
        later(() => {
          const cut = Number(upTo);
          const base = cut - snapshot.length;
          log = [
            ...snapshot.map((record, i) => ({ position: String(base + i + 1), record })),
            ...log.filter((r) => Number(r.position) > cut),
          ];
        }),
      claim: (key, owner, leaseMs) =>
        later(() => {
          const held = claims.get(key);
          if (held && held.owner !== owner && held.until > now()) return false;
          claims.set(key, { owner, until: now() + leaseMs });
          return true;
        }),
      release: (key, owner) =>
        later(() => {
          if (claims.get(key)?.owner === owner) claims.delete(key);
        }),
      increment: (name) =>
        later(() => {
          const v = (counters.get(name) ?? 0) + 1;
          counters.set(name, v);
          return v;
        }),
      watch(onAppend) {
        mine = onAppend;
        watchers.add(onAppend);
        return () => watchers.delete(onAppend);
      },
      close: () => {
        if (mine) watchers.delete(mine);
        return Promise.resolve();
      },
      sever() {
        severed = true;
        if (mine) watchers.delete(mine);
      },
    };
  }

  return {
    replica,
    records: () => log.map((r) => r.record),
    setDown(value) {
      down = value;
    },
  };
}
