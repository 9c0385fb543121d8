/**
 * The errors that end a request with an answer. The HTTP error every part of the mock throws for a caller's mistake
 * carries its whole answer (status, body in the spec's shape, headers), and the error mapping (`http/exchange.ts`)
 * sends it as it is. A store that cannot be reached is {@link StoreUnavailableError}, which the same mapping answers
 * with a 503; it lives here rather than in store/ because every request's error path tests for it. The shapes
 * themselves (7.1 / 7.2 / 7.3) and their builders are the contract layer's (`src/contract/error-shapes.ts`).
 *
 * Messages say what failed and how to fix it. They never contain card numbers or CVVs.
 *
 * @module
 */
import { restErrorBody } from '../../contract/error-shapes.ts';
import { errorLine, kitMessage } from '../../internal/messages.ts';

/**
 * An error that carries its complete HTTP answer. Handlers throw it; the top-level handler sends `status` and `body`
 * as they are.
 */
export class MockHttpError extends Error {
  /** HTTP status to answer with. */
  readonly status: number;
  /** JSON body to answer with, already in the spec's shape. */
  readonly body: unknown;
  /** Extra response headers, such as `Allow` on a 405. */
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, body: unknown, headers: Record<string, string> = {}) {
    super(typeof body === 'object' && body && 'message' in body ? String(body.message) : `HTTP ${status}`);
    this.name = 'MockHttpError';
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}

/** A REST error (spec 7.1 shape) with the given HTTP status. */
export function restError(status: number, message: string, headers?: Record<string, string>): MockHttpError {
  return new MockHttpError(status, restErrorBody(message), headers);
}

/** A 400 (spec 7.1 shape) for a mistake in a control or list call, with `message` in the kit's voice. */
export function badRequest(message: string): MockHttpError {
  return restError(400, kitMessage(message));
}

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
