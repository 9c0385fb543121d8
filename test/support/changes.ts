/**
 * Waiting for a condition without a timer: whatever can make the condition true calls {@link Changes.notify}, and
 * {@link Changes.until} checks the condition again then, and only then. A test waits exactly as long as the work
 * takes, on a loaded machine as on an idle one; a condition that never holds fails at the test's time-out.
 *
 * @module
 */

/** One source of "something changed" and the waits that listen to it. */
export interface Changes {
  /** Tells every pending {@link Changes.until} to check its condition again. */
  readonly notify: () => void;
  /**
   * Resolves once `condition()` holds: checked now, then after each {@link Changes.notify}. The condition may answer
   * a promise (a read of the mock's control handle): a notify while it is being read makes it be read again.
   */
  until(condition: () => boolean | Promise<boolean>): Promise<void>;
}

/**
 * Creates a source of changes with no waits.
 *
 * @example
 * const changes = createChanges();
 * const receiver = await startReceiver(0, changes.notify);
 * await changes.until(() => receiver.received.length === 1);
 */
export function createChanges(): Changes {
  let waiting: (() => void)[] = [];
  return {
    notify() {
      const woken = waiting;
      waiting = [];
      for (const wake of woken) wake();
    },
    async until(condition) {
      for (;;) {
        // Listen before looking: a notify while an async condition is read wakes this wait rather than being lost.
        let wake = () => {};
        const changed = new Promise<void>((resolve) => {
          wake = resolve;
        });
        waiting.push(wake);
        if (await condition()) {
          waiting = waiting.filter((w) => w !== wake);
          return;
        }
        await changed;
      }
    },
  };
}
