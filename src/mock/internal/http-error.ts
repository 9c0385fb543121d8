/**
 * The error that ends a request with an answer: the HTTP error every part of the mock throws for a caller's mistake
 * carries its whole answer (status, body in the spec's shape, headers), and the error mapping (`http/exchange.ts`)
 * sends it as it is. It sits at the root because the paged histories (`history/`, the bottom layer) throw it as the
 * parts above do. A store that cannot be reached is the store's own error (`store/store-errors.ts`), which the pipeline
 * answers with a 503. The shapes themselves (7.1 / 7.2 / 7.3) and their builders are the contract layer's
 * (`src/contract/error-shapes.ts`).
 *
 * Messages say what failed and how to fix it. They never contain card numbers or CVVs.
 *
 * @module
 */
import { restErrorBody } from '../../contract/error-shapes.ts';
import { kitMessage } from '../../internal/messages.ts';

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
