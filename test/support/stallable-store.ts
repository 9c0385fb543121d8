/**
 * A state store whose every call can be held at a gate (issue 23, fencing tests): a replica that stopped (a GC pause,
 * SIGSTOP), as the store sees it. Its timers still run in the test process; their store calls wait at the gate too,
 * and go on, in order, when it opens.
 *
 * @module
 */
import type { SandboxStore, StoreRecord } from './mock-internals/store.ts';

/** A store whose calls can be held at a gate, and let go. */
export interface Stallable {
  readonly store: SandboxStore;
  /** Stalls at the first fenced append that `when` picks (before it reaches Redis). */
  stallWhen(when: (records: readonly StoreRecord[], fences: readonly (string | undefined)[]) => boolean): void;
  stallNow(): void;
  stalled(): boolean;
  /**
   * Resolves once an append whose records `when` picks reaches this store (held at the gate or passed on): the
   * signal that the replica produced that change, without waiting a guessed time for it.
   */
  arrived(when: (records: readonly StoreRecord[]) => boolean): Promise<void>;
  resume(): void;
}

/** `base` whose every call can be held at a gate: a replica that stopped, as Redis sees it. */
export function stallableStore(base: SandboxStore): Stallable {
  let gate: Promise<void> | undefined;
  let open = () => {};
  let trigger: Parameters<Stallable['stallWhen']>[0] | undefined;
  const stallNow = () => {
    gate ??= new Promise<void>((resolve) => {
      open = () => {
        gate = undefined;
        resolve();
      };
    });
  };
  const held = <T>(call: () => Promise<T>): Promise<T> => (gate ? gate.then(call) : call());
  const watchers: { when: (records: readonly StoreRecord[]) => boolean; resolve: () => void }[] = [];
  const seen = (records: readonly StoreRecord[]) => {
    for (const w of watchers.filter((x) => x.when(records))) {
      watchers.splice(watchers.indexOf(w), 1);
      w.resolve();
    }
  };
  const store: SandboxStore = {
    kind: base.kind,
    shared: base.shared,
    open: () => base.open(),
    append(records) {
      seen(records);
      return held(() => base.append(records));
    },
    appendFenced(records, fences, owner) {
      seen(records);
      if (trigger?.(records, fences)) {
        trigger = undefined;
        stallNow();
      }
      return held(() => base.appendFenced!(records, fences, owner));
    },
    readAfter: (position, limit) => held(() => base.readAfter(position, limit)),
    compact: (snapshot, upTo, options) => held(() => base.compact(snapshot, upTo, options)),
    backlog: () => base.backlog?.() ?? { records: 0, bytes: 0 },
    claim: (key, owner, ms) => held(() => base.claim(key, owner, ms)),
    renew: (key, owner, ms) => held(() => base.renew!(key, owner, ms)),
    release: (key, owner) => held(() => base.release(key, owner)),
    increment: (name) => held(() => base.increment(name)),
    watch: (onAppend) => base.watch?.(onAppend) ?? (() => {}),
    close: () => base.close(),
    // The state Redis holds itself (tokens, the clock and the epoch, armed failures): its scripts wait at the gate too.
    ...(base.tokenState ? { tokenState: () => heldPort(base.tokenState!(), held) } : {}),
    ...(base.clockState ? { clockState: () => heldPort(base.clockState!(), held) } : {}),
    ...(base.failureState ? { failureState: () => heldPort(base.failureState!(), held) } : {}),
    ...(base.paymentState ? { paymentState: () => heldPort(base.paymentState!(), held) } : {}),
    ...(base.deliveryState ? { deliveryState: () => heldPort(base.deliveryState!(), held) } : {}),
  };
  const s: Stallable = {
    store,
    stallWhen(when) {
      trigger = when;
    },
    stallNow,
    stalled: () => gate !== undefined,
    resume: () => open(),
    arrived: (when) => new Promise<void>((resolve) => watchers.push({ when, resolve })),
  };
  return s;
}

/** `port` whose every call waits at `held`'s gate. */
function heldPort<T extends object>(port: T, held: <R>(call: () => Promise<R>) => Promise<R>): T {
  const calls = Object.entries(port).map(([name, call]) => [
    name,
    (...args: unknown[]) => held(() => (call as (...a: unknown[]) => Promise<unknown>)(...args)),
  ]);
  return Object.fromEntries(calls) as T;
}
