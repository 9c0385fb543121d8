/**
 * The sandbox's epoch and clock as one replica follows them on a Redis store (decision 0040, step 2). The clock
 * lives in Redis (`P<e>:clock`) and a reset is a new epoch (`P`epoch): every request reads both in the round trip
 * it already makes (the token check, or the store layer's read), and this process applies the reading before the
 * request runs. A newer epoch empties what this process holds at once, as a reset does; every other part of the
 * sandbox lives under the epoch's keys, so the new epoch starts empty for every replica.
 *
 * Readings come back in the order they were asked (one connection), so an older epoch than this process knows means
 * one of two things: its own reset is still on its way to the store (the reading is stale: skip it), or the store
 * lost what it held (Redis restarted without its data, or was flushed) and the store's epoch is the truth again.
 *
 * @module
 */
import type { ClockStatePort, SandboxReading } from './clock-state.ts';
import type { TokenStatePort } from './token-state.ts';

/** What the epoch drives in this process: its clock and its view (bound once every part exists). */
export interface EpochView {
  readonly clock: { advance(ms: number): number; advanced(): number };
  /** Empties every part's view, the clock included (not the id sources), as a reset does. */
  readonly resetView: () => void;
}

/** The epoch of one replica. */
export interface SandboxEpoch {
  /** The epoch this process's view is of; -1 before its first reading. */
  current(): number;
  /**
   * A reading of the store: another epoch empties the view first (a newer one, or an older one once no reset of this
   * process is on its way: the store lost its data); the clock moves up to the reading's.
   */
  seen(reading: SandboxReading): void;
  /** Reads the store in one round trip (after this process's background writes) and applies it as {@link seen}. */
  read(): Promise<void>;
  /** This process's control reset (its view is emptied already): a new epoch, made in the store in the background. */
  reset(): void;
  /** This process's clock move of `ms` (applied here already), made in the store in the background. */
  advanced(ms: number): void;
  bind(view: EpochView): void;
}

/** What {@link createSandboxEpoch} needs. */
export interface SandboxEpochDeps {
  readonly clock: ClockStatePort;
  /** Its reset is the sandbox's: it starts the new epoch for every part. */
  readonly tokens: TokenStatePort;
  /** Tracks a write no call waits for (the next answer and `control.durable()` do; store-wiring.ts). */
  readonly background: (write: Promise<unknown>) => void;
  readonly idle: () => Promise<void> | undefined;
}

/**
 * The epoch over `deps`.
 *
 * @example
 * const epoch = createSandboxEpoch({ clock: store.clockState(), tokens: store.tokenState(), background, idle });
 * epoch.bind({ clock, resetView });
 * await epoch.read();
 */
export function createSandboxEpoch(deps: SandboxEpochDeps): SandboxEpoch {
  let known = -1;
  /** The clock of the last reading in epoch `known` (ms moved). */
  let clockMs = 0;
  let view: EpochView | undefined;
  // Own resets not yet answered by the store: while one is on its way, an older epoch's reading is stale.
  let resetsOnTheirWay = 0;
  // This process's own writes come first: a reading must not undo the move or the reset its caller was answered.
  const afterOwn = <T>(work: () => Promise<T>): Promise<T> => {
    const wait = deps.idle();
    return wait === undefined ? work() : wait.then(work);
  };

  function moveTo(epoch: number): void {
    // Not at the first reading: the view is empty then (this process has applied nothing yet).
    if (known >= 0) view?.resetView();
    known = epoch;
    clockMs = 0;
  }

  function restoreClock(): void {
    const behind = clockMs - (view?.clock.advanced() ?? 0);
    if (behind > 0) view?.clock.advance(behind);
  }

  function seen(reading: SandboxReading): void {
    if (reading.epoch < known && resetsOnTheirWay > 0) return;
    if (reading.epoch !== known) moveTo(reading.epoch);
    clockMs = Math.max(clockMs, reading.clockMs);
    restoreClock();
  }

  return {
    current: () => known,
    seen,
    read: () => afterOwn(() => deps.clock.read()).then(seen),
    reset() {
      // The changes made from now on belong to the epoch the reset starts. Should another replica reset at the same
      // time, the store answers a later epoch: the view goes once more, with what this process made in between.
      known += 1;
      clockMs = 0;
      resetsOnTheirWay += 1;
      deps.background(
        afterOwn(() => deps.tokens.reset())
          .then((epoch) => {
            if (epoch > known) moveTo(epoch);
          })
          .finally(() => {
            resetsOnTheirWay -= 1;
          }),
      );
    },
    advanced(ms) {
      deps.background(afterOwn(() => deps.clock.advance(ms)).then(seen));
    },
    bind(v) {
      view = v;
    },
  };
}
