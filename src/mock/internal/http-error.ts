/**
 * The mock's error answers: the HTTP error its handlers throw, built on the contract layer's 7.1 / 7.2 / 7.3 shapes
 * (`src/contract/error-shapes.ts`, which says what each shape is).
 *
 * Messages say what failed and how to fix it. They never contain card numbers or CVVs.
 *
 * @module
 */
import {
  type GraphqlErrorEntry,
  type GraphqlErrorExtensions,
  graphqlError,
  graphqlErrorBody,
  restErrorBody,
  validationError,
} from '../../contract/error-shapes.ts';

// The shapes and their builders live in the contract layer; the mock re-exports them under the names its modules use.
export { graphqlError, graphqlErrorBody, restErrorBody, validationError };

/** Extensions of a GraphQL error answered by the mock (the contract layer's 7.2 / 7.3 extensions). */
export type MockGraphqlErrorExtensions = GraphqlErrorExtensions;

/** One entry of a GraphQL `errors` array as the mock answers it (the contract layer's entry). */
export type MockGraphqlError = GraphqlErrorEntry;

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

/** Message for a missing required input (spec 7.3: "contact required" on input.contact). */
export function requiredMessage(path: string): string {
  return `The ${path} field is required.`;
}
