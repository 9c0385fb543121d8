/**
 * Reads a `/graphql` answer: the data, or the error class it stands for (spec 7.2, 7.3). The HTTP status of an
 * error answer is not published, so the body decides whenever it is a GraphQL answer; only an answer that is not
 * one (no `data`, no `errors`) is a transport error.
 *
 * @module
 */

import { readGraphqlErrors, readValidationFields } from '../../contract/error-shapes.ts';
import { isCardIdentityPath } from '../../contract/guides.ts';
import { isPlainObject } from '../../internal/plain-object.ts';
import {
  AuthenticationError,
  GraphqlError,
  InvalidCardError,
  type RawResponse,
  TransportError,
  ValidationError,
} from '../client-errors.ts';

/** The reason codes the client reads (`Assumptions.reasonCodes`). */
export interface ClientReasonCodes {
  /** The token expired or was revoked: the client recovers once by refresh. */
  readonly recoverable: readonly string[];
  /** Every authentication reason (the recoverable ones included). */
  readonly authentication: readonly string[];
  /** A request in the guide the service does not serve: never a refused card, even at the card number's path. */
  readonly guideMismatch: string;
}

/** What one answer means to the client. */
export type GraphqlOutcome =
  | { readonly ok: true; readonly data: unknown }
  | { readonly ok: false; readonly error: Error; readonly recoverable: boolean };

/** Interprets `response` of the operation named `operation`. */
export function readGraphqlAnswer(
  operation: string,
  response: RawResponse,
  reasons: ClientReasonCodes,
): GraphqlOutcome {
  const body = response.body;
  const errors = readGraphqlErrors(body);
  if (!errors || errors.length === 0) {
    if (response.status === 200 && isPlainObject(body) && isPlainObject(body.data))
      return { ok: true, data: body.data };
    return {
      ok: false,
      recoverable: false,
      error: new TransportError(
        operation,
        `the service answered HTTP ${response.status} without GraphQL data or errors. Check baseUrl: it must be the service's base address, /graphql is added by the client.`,
        response,
      ),
    };
  }
  const fields = readValidationFields(errors);
  if (Object.keys(fields).length > 0) {
    // A guide mismatch sits at the card number's path too ("number" vs "card_number"), but the card is not the problem.
    const guideMismatch = errors.some((e) => e.extensions?.reason === reasons.guideMismatch);
    const cardPath = guideMismatch ? undefined : Object.keys(fields).find(isCardIdentityPath);
    return {
      ok: false,
      recoverable: false,
      error: cardPath
        ? new InvalidCardError(operation, fields, errors, response, cardPath)
        : new ValidationError(operation, fields, errors, response),
    };
  }
  const reason = errors[0]?.extensions?.reason;
  if (reason !== undefined && reasons.authentication.includes(reason)) {
    const recoverable = reasons.recoverable.includes(reason);
    // Thrown only after the one recovery for expired and revoked tokens; at once for the others.
    const hint = recoverable
      ? 'The service refused the token again after one refresh: check that no other process revokes it and that the token store is not shared with another client.'
      : 'The token is not one the service accepts for this client: clear the token store, or check clientId and the service the store was filled from.';
    return {
      ok: false,
      recoverable,
      error: new AuthenticationError(operation, reason, errors[0]?.message ?? '', response, hint),
    };
  }
  return { ok: false, recoverable: false, error: new GraphqlError(operation, errors, response) };
}
