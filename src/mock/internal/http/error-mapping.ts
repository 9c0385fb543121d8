/**
 * The one route for errors: turns what went wrong into the spec's answer. A {@link MockHttpError} (a caller's
 * mistake, already in the spec's shape) is sent as it is; anything else is a bug in the mock, logged as one and
 * answered with the 7.1 body and status 500.
 *
 * @module
 */
import type { Assumptions } from '../../../assumptions.ts';
import { graphqlError, restErrorBody } from '../../../contract/error-shapes.ts';
import { kitMessage } from '../../../internal/messages.ts';
import { MockHttpError } from '../http-error.ts';
import type { Outcome, RouteKind } from './exchange.ts';

/** Maps errors to answers. */
export interface ErrorMapper {
  /** A client mistake found by the HTTP layer (bad body, 405, 413), in the error shape of the route. */
  layer(kind: RouteKind | undefined, status: number, message: string, headers?: Record<string, string>): Outcome;
  /** Whatever a handler threw or rejected with. */
  fromError(error: unknown, method: string, path: string): Outcome;
  /** Logs a bug in the mock and answers the 7.1 500 body. */
  internal(error: unknown, method: string, path: string): Outcome;
}

/** A 7.2 GraphQL failure with its status. */
export function graphqlFailure(status: number, message: string, reason: string): Outcome {
  return { status, body: { errors: [graphqlError(message, reason)] } };
}

/** The text of an unexpected error for the log: its stack when it has one. */
export function errorDetail(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/** Creates the mapper; `logLine` receives one line per bug. */
export function createErrorMapper(assumptions: Assumptions, logLine: (text: string) => void): ErrorMapper {
  const badRequest = assumptions.reasonCodes.badRequest;
  const internal = (error: unknown, method: string, path: string): Outcome => {
    logLine(
      kitMessage(`internal error on ${method} ${path} (a bug in the mock; please report it): ${errorDetail(error)}`),
    );
    return { status: 500, body: restErrorBody(kitMessage('Internal server error in the mock; see its log.')) };
  };
  return {
    layer(kind, status, message, headers) {
      const body = kind === 'graphql' ? { errors: [graphqlError(message, badRequest)] } : restErrorBody(message);
      return headers ? { status, body, headers } : { status, body };
    },
    fromError(error, method, path) {
      if (!(error instanceof MockHttpError)) return internal(error, method, path);
      return Object.keys(error.headers).length > 0
        ? { status: error.status, body: error.body, headers: error.headers }
        : { status: error.status, body: error.body };
    },
    internal,
  };
}
