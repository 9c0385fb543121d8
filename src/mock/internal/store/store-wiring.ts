/**
 * How the composition root plugs a state store in. A file store is a record log: every module gets the recorder
 * (late-bound: the sync layer needs the modules it applies records to) and the settlement the once-only runner. A
 * Redis store holds the state itself: each part gets its port, and nothing is recorded. With `memory:` there is
 * nothing to plug: {@link planStore} returns undefined and every module runs without a store.
 *
 * @module
 */
import { kitMessage } from '../../../internal/messages.ts';
import { backgroundWrites } from '../background-writes.ts';
import type { DeliveryStatePort } from './delivery-state.ts';
import type { SharedFailureState } from './failure-state.ts';
import type { JournalStatePort } from './journal-state.ts';
import type { OnceOnly } from './once-only.ts';
import type { PaymentStatePort, SharedCardAccounts } from './payment-state.ts';
import type { RecordApplier, Recorder, RecordSnapshot } from './records.ts';
import { createSandboxEpoch, type SandboxEpoch } from './sandbox-epoch.ts';
import type { RecordLogStore, SandboxStore, SharedStateStore } from './sandbox-store.ts';
import { createSharedSync } from './shared-sync.ts';
import { createStateSync, type StateSync, type StateSyncDeps, type StoreSync } from './state-sync.ts';
import { parseStoreUrl } from './store-url.ts';
import type { SharedTokenState } from './token-state.ts';

/** Opens a `file:` or `redis://` store by URL: the Node entry's seam (the core stays isomorphic). */
export type StoreOpener = (url: string) => SandboxStore;

/** A file store planned for the app being built. */
export interface RecordLogPlan {
  readonly kind: 'file';
  readonly store: RecordLogStore;
  /** The modules' recorder. */
  readonly record: Recorder;
  /** The settlement's once-only runner. */
  readonly once: OnceOnly;
  /** Builds the sync layer once every module exists. */
  bind(deps: Omit<StateSyncDeps, 'store' | 'processId'>): StateSync;
}

/** A Redis store planned for the app being built: the ports of the parts it holds. */
export interface SharedStatePlan {
  readonly kind: 'redis';
  readonly store: SharedStateStore;
  readonly tokens: SharedTokenState;
  readonly epoch: SandboxEpoch;
  readonly failures: SharedFailureState;
  readonly cards: SharedCardAccounts;
  /** The payments, settlements and deliveries, with the background writes the answers wait for. */
  readonly payments: {
    readonly port: PaymentStatePort;
    readonly deliveries: DeliveryStatePort;
    readonly background: (write: Promise<unknown>) => void;
    readonly idle: () => Promise<void> | undefined;
  };
  readonly journal: JournalStatePort;
  /** Builds the store's layer (open, the epoch read before each request, the writes each answer waits for). */
  bind(deps: {
    readonly onBoot: (boot: number) => void;
    readonly followMs: number;
    readonly log: (line: string) => void;
  }): StoreSync;
}

/** A store planned for the app being built. */
export type StorePlan = RecordLogPlan | SharedStatePlan;

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
  return store.kind === 'redis' ? sharedPlan(store) : logPlan(store);
}

function logPlan(store: RecordLogStore): RecordLogPlan {
  const bytes = new Uint8Array(4);
  globalThis.crypto.getRandomValues(bytes);
  const processId = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  let sync: StateSync | undefined;
  const early = () => new Error(kitMessage('a state store record was made before the sync layer was bound (a bug).'));
  return {
    kind: 'file',
    store,
    record(r) {
      if (!sync) throw early();
      sync.record(r);
    },
    once: {
      run(job) {
        if (!sync) throw early();
        sync.once.run(job);
      },
    },
    bind(deps) {
      sync = createStateSync({ ...deps, store, processId });
      return sync;
    },
  };
}

function sharedPlan(store: SharedStateStore): SharedStatePlan {
  const writes = backgroundWrites();
  const { background, idle } = writes;
  const port = store.tokenState();
  const epoch = createSandboxEpoch({ clock: store.clockState(), tokens: port, background, idle });
  const payments = store.paymentState();
  return {
    kind: 'redis',
    store,
    tokens: { port, background, idle, seen: (r) => epoch.seen(r) },
    epoch,
    failures: { port: store.failureState(), background, idle },
    cards: { port: payments, background },
    payments: { port: payments, deliveries: store.deliveryState(), background, idle },
    journal: store.journalState(),
    bind: (deps) => createSharedSync({ ...deps, store, epoch, writes }),
  };
}

/**
 * The control records of a file store: `clk` moves the clock, `rst` empties the view (as reset does; the id sources
 * keep going). Its snapshot is one `clk`: how far the clock was moved since the last reset.
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
