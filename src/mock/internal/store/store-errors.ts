/**
 * The store's errors: a store that cannot be reached or written for now ({@link StoreUnavailableError}, which the
 * request pipeline answers with a 503), and one that cannot work in this installation at all
 * ({@link StoreSetupError}, which stops the start). The stores raise them; the parts above test for them.
 *
 * @module
 */
import { errorLine } from '../../../internal/messages.ts';

/**
 * The store cannot be reached or written (server down, disk full, read-only file); `reason` says which, as a clause
 * the mock's messages quote in parentheses (no kit prefix, no closing full stop): each of them says what the mock
 * does about it there.
 * `mayHaveApplied` is true when a write reached the store but its acknowledgement did not come back (the server
 * died or hung between the two): the change may be kept, and a reader sees it once the store answers again.
 */
export class StoreUnavailableError extends Error {
  readonly reason: string;
  readonly mayHaveApplied: boolean;
  constructor(reason: string, options?: { cause?: unknown; mayHaveApplied?: boolean }) {
    super(reason, options);
    this.name = 'StoreUnavailableError';
    this.reason = reason;
    this.mayHaveApplied = options?.mayHaveApplied ?? false;
  }
}

/** A store fault as {@link StoreUnavailableError} (a store may reject with anything). */
export function asUnavailable(error: unknown): StoreUnavailableError {
  return error instanceof StoreUnavailableError
    ? error
    : new StoreUnavailableError(`store-error: ${errorLine(error)}`, { cause: error });
}

/**
 * A store that cannot work in this installation at all (its client library is missing), as opposed to one that is
 * down for now. Its message is whole (what is missing, the command that installs it, the other stores), so the start
 * shows it as it is, with nothing wrapped around it.
 */
export class StoreSetupError extends StoreUnavailableError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreSetupError';
  }
}
