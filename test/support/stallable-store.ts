/**
 * A Redis store whose every call can be held at a gate: a replica that stopped (a GC pause, SIGSTOP), as Redis sees
 * it. Its timers still run in the test process; their store calls wait at the gate too, and go on, in order, when it
 * opens.
 *
 * @module
 */
import type { SandboxStore, SharedStateStore } from './mock-internals/store.ts';

/** A store whose calls can be held at a gate, and let go. */
export interface Stallable {
  readonly store: SharedStateStore;
  stallNow(): void;
  resume(): void;
}

/** `base` (a Redis store) whose every call can be held at a gate: a replica that stopped, as Redis sees it. */
export function stallableStore(base: SandboxStore): Stallable {
  if (base.kind !== 'redis') throw new TypeError('stallableStore: only a Redis store holds what replicas share');
  let gate: Promise<void> | undefined;
  let open = () => {};
  const stallNow = () => {
    gate ??= new Promise<void>((resolve) => {
      open = () => {
        gate = undefined;
        resolve();
      };
    });
  };
  const held = <T>(call: () => Promise<T>): Promise<T> => (gate ? gate.then(call) : call());
  // Every part's scripts wait at the gate: the tokens, the clock and the epoch, the failures, payments, deliveries
  // and the journal.
  const store: SharedStateStore = {
    kind: 'redis',
    open: () => base.open(),
    increment: (name) => held(() => base.increment(name)),
    close: () => base.close(),
    tokenState: () => heldPort(base.tokenState(), held),
    clockState: () => heldPort(base.clockState(), held),
    failureState: () => heldPort(base.failureState(), held),
    paymentState: () => heldPort(base.paymentState(), held),
    deliveryState: () => heldPort(base.deliveryState(), held),
    journalState: () => heldPort(base.journalState(), held),
  };
  return { store, stallNow, resume: () => open() };
}

/** `port` whose every call waits at `held`'s gate. */
function heldPort<T extends object>(port: T, held: <R>(call: () => Promise<R>) => Promise<R>): T {
  const calls = Object.entries(port).map(([name, call]) => [
    name,
    (...args: unknown[]) => held(() => (call as (...a: unknown[]) => Promise<unknown>)(...args)),
  ]);
  return Object.fromEntries(calls) as T;
}
