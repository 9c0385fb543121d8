/**
 * A Redis store's layer inside the mock (decision 0040): the sandbox's state lives in Redis, so there is nothing
 * to replay or follow. A request reads the epoch and the clock before it runs (a reset or clock move another replica
 * made is seen by the next request here); an answer waits for the writes no call waited for (a token's use, a clock
 * move), so what it reports is kept. Every follow interval the epoch is read without a request too: a virtual-time
 * wake-up here (the due poller's) fires after a clock move another replica made.
 *
 * @module
 */
import { kitMessage } from '../../../internal/messages.ts';
import type { BackgroundWrites } from '../background-writes.ts';
import type { SandboxEpoch } from './sandbox-epoch.ts';
import type { SharedStateStore } from './sandbox-store.ts';
import type { StoreSync } from './state-sync.ts';
import { asUnavailable } from './store-errors.ts';

/** What {@link createSharedSync} drives. */
export interface SharedSyncDeps {
  readonly store: SharedStateStore;
  readonly epoch: SandboxEpoch;
  readonly writes: BackgroundWrites;
  /** Told this start's boot number (the id sources fork by it: no two replicas or restarts draw the same ids). */
  readonly onBoot: (boot: number) => void;
  /** How often the epoch and the clock are read without a request (ms). */
  readonly followMs: number;
  /** Writes a line to the mock's log: an outage once when it starts, and once when Redis answers again. */
  readonly log: (line: string) => void;
}

/**
 * Creates the layer; nothing is opened until {@link StoreSync.ready} or the first request.
 *
 * @example
 * const sync = createSharedSync({ store, epoch, writes, onBoot, followMs: 250 });
 * await sync.ready();
 */
export function createSharedSync(deps: SharedSyncDeps): StoreSync {
  const { store, epoch, writes } = deps;
  let opening: Promise<void> | undefined;
  let opened = false;
  let follow: ReturnType<typeof setInterval> | undefined;
  let down = false;

  /** Reads the epoch and the clock; the first failure of an outage is logged, and the first success after it. */
  function read(): Promise<void> {
    return epoch.read().then(
      () => {
        if (!down) return;
        down = false;
        deps.log(kitMessage('the state store answers again; requests are served again.'));
      },
      (error: unknown) => {
        const e = asUnavailable(error);
        if (!down && opened) {
          down = true;
          deps.log(
            kitMessage(
              `the state store failed (${e.reason}): requests answer 503 until it is back, and the mock goes on by itself then. Nothing it acknowledged is lost.`,
            ),
          );
        }
        throw e;
      },
    );
  }

  async function open(): Promise<void> {
    try {
      await store.open();
      deps.onBoot(await store.increment('boot'));
      await epoch.read();
    } catch (error) {
      throw asUnavailable(error);
    }
    opened = true;
    follow = setInterval(() => void read().catch(() => undefined), deps.followMs);
    (follow as { unref?: () => void }).unref?.();
  }

  function ready(): Promise<void> {
    opening ??= open().catch((error: unknown) => {
      opening = undefined;
      throw error;
    });
    return opening;
  }

  return {
    ready,
    before(readsShared = true) {
      if (!opened) return ready();
      return readsShared ? read() : undefined;
    },
    after: () => writes.settled(),
    flush: () => writes.settled() ?? Promise.resolve(),
    deferredLost: () => 0,
    compact: () => Promise.resolve(false),
    compactions: () => 0,
    async close() {
      if (follow) clearInterval(follow);
      await writes.idle();
      await store.close().catch(() => undefined);
    },
  };
}
