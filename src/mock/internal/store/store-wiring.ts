/**
 * How the composition root plugs a state store in: the recorder every module gets (late-bound: the sync
 * layer needs the modules it applies records to), the once-only runner, the payment id source that forks by boot
 * number, and the sync layer itself. With `memory:` there is nothing to plug: {@link planStore} returns undefined
 * and every module runs without a recorder.
 *
 * @module
 */
import { kitMessage } from '../../../internal/messages.ts';
import type { SeededRandom } from '../random.ts';
import type { DeliveryStatePort } from './delivery-state.ts';
import type { SharedFailureState } from './failure-state.ts';
import type { JournalStatePort } from './journal-state.ts';
import type { OnceOnly } from './once-only.ts';
import type { PaymentStatePort, SharedCardAccounts } from './payment-state.ts';
import type { RecordApplier, Recorder, RecordSnapshot } from './records.ts';
import { createSandboxEpoch, type SandboxEpoch } from './sandbox-epoch.ts';
import type { SandboxStore } from './sandbox-store.ts';
import { createStateSync, type StateSync, type StateSyncDeps } from './state-sync.ts';
import { parseStoreUrl } from './store-url.ts';
import type { SharedTokenState } from './token-state.ts';

/** Opens a `file:` or `redis://` store by URL: the Node entry's seam (the core stays isomorphic). */
export type StoreOpener = (url: string) => SandboxStore;

/** A store planned for the app being built. */
export interface StorePlan {
  readonly store: SandboxStore;
  /** This process's id (`o` of its records). */
  readonly processId: string;
  /** The modules' recorder. */
  readonly record: Recorder;
  /** The settlement's once-only runner. */
  readonly once: OnceOnly;
  /** The token state the store holds for every process (Redis); undefined when the token service records (file). */
  readonly tokens: SharedTokenState | undefined;
  /** The epoch and clock the store holds (Redis; sandbox-epoch.ts); undefined when resets and moves are records. */
  readonly epoch: SandboxEpoch | undefined;
  /** The armed failures the store holds in its epoch (Redis); undefined when arms and uses are records. */
  readonly failures: SharedFailureState | undefined;
  /** The card accounts the store holds in its epoch (Redis); undefined when they are records. */
  readonly cards: SharedCardAccounts | undefined;
  /**
   * The payments, settlements and deliveries the store holds in its epoch (Redis), with the background writes the
   * answers wait for; undefined when they are records.
   */
  readonly payments:
    | {
        readonly port: PaymentStatePort;
        readonly deliveries: DeliveryStatePort;
        readonly background: (write: Promise<unknown>) => void;
        readonly idle: () => Promise<void> | undefined;
      }
    | undefined;
  /** The request journal the store holds in its epoch (Redis); undefined when its entries are records. */
  readonly journal: JournalStatePort | undefined;
  /** Builds the sync layer once every module exists. */
  bind(deps: Omit<StateSyncDeps, 'store' | 'processId'>): StateSync;
}

/**
 * The store of `option`, or undefined for memory. A URL other than `memory:` needs `openStore` (the Node entry's);
 * without one (the browser build) a `TypeError` says so.
 *
 * @example
 * const plan = planStore(opts.store, seams.openStore);
 */
export function planStore(option: string | SandboxStore, openStore: StoreOpener | undefined): StorePlan | undefined {
  let store: SandboxStore;
  if (typeof option === 'string') {
    if (parseStoreUrl(option).kind === 'memory') return undefined;
    if (!openStore)
      throw new TypeError(
        kitMessage(
          `store "${option}" needs Node (a file or a Redis connection): in a browser or worker the mock keeps its state in memory; leave the store option out.`,
        ),
      );
    store = openStore(option);
  } else store = option;
  const bytes = new Uint8Array(4);
  globalThis.crypto.getRandomValues(bytes);
  const processId = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  let sync: StateSync | undefined;
  const port = store.tokenState?.();
  const writes = port ? backgroundWrites() : undefined;
  const clock = store.clockState?.();
  const epoch = port && clock && writes ? createSandboxEpoch({ clock, tokens: port, ...writes }) : undefined;
  // Failures live in the epoch: without one (a store without the clock) they stay records.
  const failurePort = epoch ? store.failureState?.() : undefined;
  const paymentPort = epoch ? store.paymentState?.() : undefined;
  const deliveryPort = epoch ? store.deliveryState?.() : undefined;
  const early = () => new Error(kitMessage('a state store record was made before the sync layer was bound (a bug).'));
  return {
    store,
    processId,
    record: (r, claim) => {
      if (!sync) throw early();
      sync.record(r, claim);
    },
    once: {
      run(key, job) {
        if (!sync) throw early();
        sync.once.run(key, job);
      },
    },
    tokens:
      port && writes
        ? { port, background: writes.background, idle: writes.idle, seen: (r) => epoch?.seen(r) }
        : undefined,
    epoch,
    failures:
      failurePort && writes ? { port: failurePort, background: writes.background, idle: writes.idle } : undefined,
    cards: paymentPort && writes ? { port: paymentPort, background: writes.background } : undefined,
    payments:
      paymentPort && deliveryPort && writes
        ? { port: paymentPort, deliveries: deliveryPort, background: writes.background, idle: writes.idle }
        : undefined,
    journal: epoch ? store.journalState?.() : undefined,
    bind(deps) {
      sync = createStateSync({ ...deps, store, processId, epoch });
      return writes ? withWrites(sync, writes) : sync;
    },
  };
}

/** Writes no answer waited for, which the next answer and `durable()` wait for (their failure included). */
function backgroundWrites() {
  const inFlight = new Set<Promise<void>>();
  let failed: unknown;
  const idle = () => (inFlight.size === 0 ? undefined : Promise.all(inFlight).then(() => undefined));
  return {
    background(write: Promise<unknown>) {
      const tracked: Promise<void> = write
        .then(
          () => undefined,
          (error: unknown) => {
            failed ??= error;
          },
        )
        .finally(() => inFlight.delete(tracked));
      inFlight.add(tracked);
    },
    idle,
    /** Like `idle`, then rejects with the first failure since the last call (once). */
    settled(): Promise<void> | undefined {
      const wait = idle();
      if (wait === undefined && failed === undefined) return undefined;
      return (wait ?? Promise.resolve()).then(() => {
        const error = failed;
        failed = undefined;
        if (error !== undefined) throw error;
      });
    },
  };
}

/** `sync` whose answers and flushes also wait for the background writes. */
function withWrites(sync: StateSync, writes: ReturnType<typeof backgroundWrites>): StateSync {
  const both = (a: Promise<void> | undefined, b: Promise<void> | undefined) =>
    a === undefined ? b : b === undefined ? a : Promise.all([a, b]).then(() => undefined);
  return {
    ...sync,
    after: () => both(writes.settled(), sync.after()),
    flush: () => both(writes.settled(), sync.flush()) ?? Promise.resolve(),
  };
}

/** A {@link SeededRandom} whose source can be swapped: payment ids fork by boot number once the store is open. */
export interface SwitchableRandom extends SeededRandom {
  use(source: SeededRandom): void;
}

/** Wraps `initial`; every draw goes to the current source. */
export function switchableRandom(initial: SeededRandom): SwitchableRandom {
  let current = initial;
  return {
    get seed() {
      return current.seed;
    },
    next: () => current.next(),
    nextInt: (max) => current.nextInt(max),
    uuid: () => current.uuid(),
    uuidHex: () => current.uuidHex(),
    reset: () => current.reset(),
    fork: (label) => current.fork(label),
    use(source) {
      current = source;
    },
  };
}

/**
 * The control records: `clk` moves the clock, `rst` empties the view (as reset does; the id sources keep going). Its
 * snapshot is one `clk`: how far the clock was moved since the last reset. Not with an epoch (Redis): the clock and
 * the resets live in the store there, and no such record is made.
 */
export function controlApplier(
  clock: { advance(ms: number): number; advanced(): number },
  resetView: () => void,
): RecordApplier & RecordSnapshot {
  return {
    snapshot() {
      const ms = clock.advanced();
      return ms > 0 ? [{ t: 'clk', ms }] : [];
    },
    apply(r) {
      if (r.t === 'clk' && typeof r.ms === 'number' && r.ms >= 0) clock.advance(r.ms);
      else if (r.t === 'rst') resetView();
    },
  };
}
