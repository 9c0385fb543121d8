/**
 * The armed failures a shared store holds for every replica (decision 0040, step 3): `failNextRequest` arms a
 * path's failure in the store, and each use is taken there in one atomic step, so a failure armed through one
 * replica answers the very next request through any other, and no use is answered twice. Memory and the file store
 * have no such port: the failures are the process's own (domain/failure-injection.ts), and the file store journals
 * them (`fail`, `take`).
 *
 * @module
 */

/** What an armed failure answers: its status, and its message (undefined: the kit's default one). */
export interface ArmedFailure {
  readonly status: number;
  readonly message: string | undefined;
}

/** The shared failures of the current epoch; every method may reject with `StoreUnavailableError`. */
export interface FailureStatePort {
  /** Arms `times` uses of `failure` for `path`, replacing any still armed for it. */
  arm(path: string, failure: ArmedFailure, times: number): Promise<void>;
  /** Takes one use of the failure armed for `path` (the last use disarms it); undefined when none is. */
  take(path: string): Promise<ArmedFailure | undefined>;
}

/** The shared failures as the failure injection gets them from the composition root. */
export interface SharedFailureState {
  readonly port: FailureStatePort;
  /** Tracks a write a synchronous call could not wait for (`control.failNextRequest()`), as for the token state. */
  background(write: Promise<unknown>): void;
  /** Resolves (never rejects) once the background writes made so far are done; undefined when there are none. */
  idle(): Promise<void> | undefined;
}
