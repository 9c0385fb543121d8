/**
 * The one catalogue of error answers, each in the service's own shape:
 * - 7.1 REST: `{ status: "ERROR", message }` with the HTTP status;
 * - 7.2 GraphQL: `{ errors: [{ message, extensions: { reason } }] }`;
 * - 7.3 validation: `{ errors: [{ message: "Validation failed for the field [x].", extensions: { category: "validation", validation: { "input.path": [messages] } } }] }`.
 *
 * Messages say what failed and how to fix it. They never contain card numbers or CVVs.
 *
 * @module
 */
import type { ErrorResponse } from '../../types/rest.ts';

/** Extensions of a GraphQL error answered by the mock. */
export interface MockGraphqlErrorExtensions {
  /** Reason code (spec 7.2); values in `Assumptions.reasonCodes`. */
  reason?: string;
  /** Set to "validation" on input validation errors (spec 7.3). */
  category?: 'validation';
  /** Dotted input path → messages, on validation errors (spec 7.3). */
  validation?: Record<string, string[]>;
}

/** One entry of a GraphQL `errors` array as the mock answers it. */
export interface MockGraphqlError {
  message: string;
  path?: readonly (string | number)[];
  locations?: readonly { line: number; column: number }[];
  extensions: MockGraphqlErrorExtensions;
}

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

/** Builds the REST error body of spec 7.1. */
export function restErrorBody(message: string): ErrorResponse {
  return { status: 'ERROR', message };
}

/** A REST error (spec 7.1 shape) with the given HTTP status. */
export function restError(status: number, message: string, headers?: Record<string, string>): MockHttpError {
  return new MockHttpError(status, restErrorBody(message), headers);
}

/** A GraphQL error entry with a reason code (spec 7.2). */
export function graphqlError(message: string, reason: string, path?: readonly (string | number)[]): MockGraphqlError {
  return path ? { message, path, extensions: { reason } } : { message, extensions: { reason } };
}

/** A GraphQL answer holding only errors (spec 7.2 body). */
export function graphqlErrorBody(errors: readonly MockGraphqlError[]): { errors: readonly MockGraphqlError[] } {
  return { errors };
}

/**
 * A validation error entry (spec 7.3) for the root field `field`, mapping dotted input paths to messages.
 *
 * @example
 * validationError('processPaymentRequest', { 'input.contact': [requiredMessage('input.contact')] })
 * // a guide mismatch also carries a reason, so a client can tell it from a refused card:
 * validationError('processPaymentRequest', { 'input.credit_card.number': [message] }, reasons.guideMismatch)
 */
export function validationError(
  field: string,
  validation: Record<string, string[]>,
  reason?: string,
): MockGraphqlError {
  return {
    message: `Validation failed for the field [${field}].`,
    path: [field],
    extensions:
      reason === undefined ? { category: 'validation', validation } : { category: 'validation', validation, reason },
  };
}

/** Message for a missing required input (spec 7.3: "contact required" on input.contact). */
export function requiredMessage(path: string): string {
  return `The ${path} field is required.`;
}
