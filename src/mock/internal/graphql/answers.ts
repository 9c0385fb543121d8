/**
 * The engine's answers before execution (parse, limit, validation and request-shape failures): an HTTP status, the
 * 7.2/7.3 body and its JSON, plus the two helpers every stage uses to word a graphql-js error without echoing card
 * data and to survive a document nested deeper than graphql-js can recurse.
 *
 * @module
 */
import { GraphQLError } from 'graphql/index.js';
import type { Assumptions } from '../../../assumptions.ts';
import { type GraphqlErrorEntry, graphqlError } from '../../../contract/error-shapes.ts';
import { kitMessage } from '../../../internal/messages.ts';
import type { Guide } from '../domain/payments.ts';
import { tooDeepMessage, validationAbortedMessage } from './limits.ts';
import { scrubMessage } from './redact.ts';

/** A ready answer: status, body and the body's JSON. */
export type Answer = { readonly status: number; readonly body: unknown; readonly json: string };

/** The answer to one request. */
export interface GraphqlResult {
  /** HTTP status: 200 for data, `Assumptions.graphqlErrorHttpStatus` for GraphQL errors, 500 for internal ones. */
  status: number;
  /** JSON body: `{ data }` or `{ errors }` (spec 7.2/7.3 shapes). */
  body: unknown;
  /** `body` already serialized (with the compiled query's serializer when there is one); send this. */
  json: string;
  /** Operation name, for the request log. */
  operationName?: string;
  /** Guide the request was answered in, for the request log. */
  guide?: Guide;
  /** The root fields of the operation that ran (or was refused after its guide was known), for the coverage report. */
  rootFields?: readonly string[];
  /** The unexpected exception behind a masked internal error, for the server's log; never sent to the client. */
  internalError?: unknown;
  /** What executed the operation, when one was executed (tests and benchmarks check which path ran). */
  executedBy?: 'graphql-jit' | 'graphql-js';
  /** Set on the 405 of a mutation sent with `readOnly` (GET); the answer must say `Allow: POST`. */
  methodNotAllowed?: true;
  /**
   * Set on a compiled success of a configuration-only query (engine.ts): until the engine's next reset, the
   * same request gets the same answer, so the /graphql route may keep it by the request's body.
   */
  kept?: true;
}

/** The reason codes of the ledger. */
export type ReasonCodes = Assumptions['reasonCodes'];

/**
 * An answer with `body` serialized once.
 *
 * @example
 * answer(400, { errors: [graphqlError('…', reasons.badRequest)] });
 */
export function answer(status: number, body: unknown): Answer {
  return { status, body, json: JSON.stringify(body) };
}

/**
 * Runs a recursive graphql-js step; a document that exhausts the call stack (nesting just under the token limit)
 * is a client mistake, answered as one, not an internal error.
 *
 * @example
 * const errors = withinStack(() => validate(schema, document));
 */
export function withinStack(step: () => readonly GraphQLError[]): readonly GraphQLError[] {
  try {
    return step();
  } catch (error) {
    if (error instanceof RangeError) return [new GraphQLError(tooDeepMessage)];
    throw error;
  }
}

/**
 * A graphql-js validation or coercion error as a 7.2 entry with the validation-failed reason, its message scrubbed
 * of card data (redact.ts).
 *
 * @example
 * errors.map((e) => validationFailure(e, assumptions.reasonCodes));
 */
export function validationFailure(e: GraphQLError, reasons: ReasonCodes): GraphqlErrorEntry {
  return {
    message: e.message === 'Validation aborted.' ? validationAbortedMessage : scrubMessage(e.message),
    ...(e.locations ? { locations: e.locations } : {}),
    extensions: { reason: reasons.graphqlValidationFailed },
  };
}

/**
 * The 405 for an operation other than a query sent with GET (GraphQL over HTTP: GET may only read); it never runs.
 *
 * @example
 * if (request.readOnly && kind !== 'query') return readOnlyRefusal(kind, op.operationName, reasons);
 */
export function readOnlyRefusal(
  kind: 'mutation' | 'subscription',
  operationName: string | undefined,
  reasons: ReasonCodes,
): GraphqlResult {
  return {
    ...answer(405, {
      errors: [
        graphqlError(
          kitMessage(
            `A ${kind} cannot be sent with GET (GraphQL over HTTP): send it with POST and a JSON body { "query", "variables" }.`,
          ),
          reasons.badRequest,
        ),
      ],
    }),
    ...(operationName === undefined ? {} : { operationName }),
    methodNotAllowed: true,
  };
}
