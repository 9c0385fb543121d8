/**
 * Writes to a shared state store that no answer waited for (a control call's issue or arm, a token's use), tracked
 * so the next answer and a flush wait for them, and so a later read of the same state comes after them.
 *
 * @module
 */

/** Writes no answer waited for, which the next answer and `flush()` wait for (their failure included). */
export interface BackgroundWrites {
  /** Tracks `write`. */
  background(write: Promise<unknown>): void;
  /** Resolves when every tracked write settled; undefined when none is in flight. */
  idle(): Promise<void> | undefined;
  /** Like `idle`, then rejects with the first failure since the last call (once). */
  settled(): Promise<void> | undefined;
}

/**
 * Runs `work` once this process's background writes (`idle`) have settled, at once when none is in flight: a write
 * whose caller was already answered (a control issue, an arm, a reset) comes before the next read of the same state.
 */
export function afterIdle<T>(idle: () => Promise<void> | undefined, work: () => Promise<T>): Promise<T> {
  const wait = idle();
  return wait === undefined ? work() : wait.then(work);
}

/** Creates an empty set of background writes. */
export function backgroundWrites(): BackgroundWrites {
  const inFlight = new Set<Promise<void>>();
  let failed: unknown;
  const idle = () => (inFlight.size === 0 ? undefined : Promise.all(inFlight).then(() => undefined));
  return {
    background(write) {
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
    settled() {
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
