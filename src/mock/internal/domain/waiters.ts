/**
 * "Wait until something matching happens", written once for the request journal and the webhook dispatcher: each
 * wait has a predicate and a timeout; {@link Waiters.offer} resolves the waits a new value matches; a predicate that
 * throws fails its own wait only; closing rejects every pending wait, so nothing hangs after the mock is closed.
 *
 * @module
 */

/** Pending waits for values of type `T`. */
export interface Waiters<T> {
  /** Whether any wait is pending: lets the caller skip building the value to offer. */
  pending(): boolean;
  /** Resolves every wait `value` matches. */
  offer(value: T): void;
  /** Waits for the first value offered from now on that matches; rejects with `timeoutMessage()` after `timeoutMs`. */
  wait(predicate: (value: T) => boolean, timeoutMs: number, timeoutMessage: () => string): Promise<T>;
  /** Rejects every pending wait with `message`. */
  close(message: string): void;
}

interface Wait<T> {
  readonly predicate: (value: T) => boolean;
  readonly resolve: (value: T) => void;
  readonly reject: (error: Error) => void;
  readonly timer: ReturnType<typeof setTimeout>;
}

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

/** Creates an empty set of waits. */
export function createWaiters<T>(): Waiters<T> {
  const waits = new Set<Wait<T>>();
  const settle = (w: Wait<T>) => {
    waits.delete(w);
    clearTimeout(w.timer);
  };
  return {
    pending: () => waits.size > 0,
    offer(value) {
      for (const w of waits) {
        let match: boolean;
        try {
          match = w.predicate(value);
        } catch (error) {
          // The waiter's own predicate failed: that wait fails, everything else goes on.
          settle(w);
          w.reject(asError(error));
          continue;
        }
        if (match) {
          settle(w);
          w.resolve(value);
        }
      }
    },
    wait(predicate, timeoutMs, timeoutMessage) {
      return new Promise<T>((resolve, reject) => {
        const w: Wait<T> = {
          predicate,
          resolve,
          reject,
          timer: setTimeout(() => {
            waits.delete(w);
            reject(new Error(timeoutMessage()));
          }, timeoutMs),
        };
        waits.add(w);
      });
    },
    close(message) {
      for (const w of waits) {
        settle(w);
        w.reject(new Error(message));
      }
    },
  };
}
