/**
 * The service's three error shapes (spec 7), each as a type with one builder and one reader:
 * - 7.1 REST: `{ status: "ERROR", message }` (`restErrorBody`, `readRestError`);
 * - 7.2 GraphQL: `{ errors: [{ message, extensions: { reason } }] }` (`graphqlError`, `readGraphqlErrors`);
 * - 7.3 validation: an entry whose `extensions` are `{ category: "validation", validation: { "input.path": [messages] } }`
 *   (`validationError`, `readValidationFields`).
 * The mock answers with the builders, the client and the proxy read with the readers, the Pact matchers wrap the
 * builders' output in matchers, and the checker names the shapes with {@link errorShapeText}.
 *
 * @module
 */
import { isPlainObject } from '../internal/plain-object.ts';

/** The literal `status` of a 7.1 error body. */
export const restErrorStatus = 'ERROR';

/** The literal `extensions.category` of a 7.3 validation error. */
export const validationCategory = 'validation';

/**
 * The shapes as reports name them (the checker's findings, `verify`'s mismatches).
 *
 * @example
 * list.contract({ path: 'status', expected: errorShapeText.rest, ... });
 */
export const errorShapeText = {
  rest: 'spec 7.1: { status: "ERROR", message: string }',
  graphql: 'spec 7.2: { message: string, extensions: { reason: string } }',
  validation: 'spec 7.3: extensions { category: "validation", validation: { "input.path": [string] } }',
} as const;

/**
 * The 7.1 body of a REST error (openapi.yaml's `ErrorResponse`). `M` is the message's type: a string on the wire, a
 * matcher in a pact.
 */
export interface RestErrorBody<M = string> {
  readonly status: typeof restErrorStatus;
  readonly message: M;
}

/**
 * Builds the 7.1 body.
 *
 * @example
 * restErrorBody('The x-api-key is not valid for this client.'); // { status: 'ERROR', message: '...' }
 */
export function restErrorBody<M = string>(message: M): RestErrorBody<M> {
  return { status: restErrorStatus, message };
}

/**
 * Reads a 7.1 body: the body when it is `{ status: "ERROR", message: string }`, else `undefined`.
 *
 * @example
 * const error = readRestError(JSON.parse(text));
 * if (error) console.log(error.message);
 */
export function readRestError(body: unknown): RestErrorBody | undefined {
  return isPlainObject(body) && body.status === restErrorStatus && typeof body.message === 'string'
    ? { status: restErrorStatus, message: body.message }
    : undefined;
}

/** The `extensions` of a GraphQL error entry: a 7.2 reason, a 7.3 validation map, or both. */
export interface GraphqlErrorExtensions {
  /** Reason code (spec 7.2); values in `Assumptions.reasonCodes`. */
  reason?: string;
  /** `"validation"` on input validation errors (spec 7.3). */
  category?: typeof validationCategory;
  /** Dotted input path → messages, on validation errors (spec 7.3). */
  validation?: Record<string, string[]>;
}

/** One entry of a GraphQL `errors` list as the service (and the mock) sends it. */
export interface GraphqlErrorEntry {
  message: string;
  path?: readonly (string | number)[];
  locations?: readonly { line: number; column: number }[];
  extensions: GraphqlErrorExtensions;
}

/**
 * Builds a 7.2 entry with a reason code.
 *
 * @example
 * graphqlError('The x-jwt-token header is missing.', 'TOKEN_MISSING');
 */
export function graphqlError(message: string, reason: string, path?: readonly (string | number)[]): GraphqlErrorEntry {
  return path ? { message, path, extensions: { reason } } : { message, extensions: { reason } };
}

/** A GraphQL answer holding only errors (the 7.2 body). */
export interface GraphqlErrorBody {
  readonly errors: readonly GraphqlErrorEntry[];
}

/**
 * Builds the 7.2 body around entries made by {@link graphqlError} or {@link validationError}.
 *
 * @example
 * graphqlErrorBody([graphqlError('The x-jwt-token header is missing.', 'TOKEN_MISSING')]);
 */
export function graphqlErrorBody(errors: readonly GraphqlErrorEntry[]): GraphqlErrorBody {
  return { errors };
}

/**
 * The message of a 7.3 entry for a root field (the spec's own wording).
 *
 * @example
 * validationMessage('processPaymentRequest'); // 'Validation failed for the field [processPaymentRequest].'
 */
export function validationMessage(field: string): string {
  return `Validation failed for the field [${field}].`;
}

/**
 * The message of a 7.3 entry for a missing required input (the spec's "contact required" on `input.contact`).
 *
 * @example
 * requiredMessage('input.contact'); // 'The input.contact field is required.'
 */
export function requiredMessage(path: string): string {
  return `The ${path} field is required.`;
}

/**
 * Builds a 7.3 entry for the root field `field`, mapping dotted input paths to messages. A guide mismatch also carries
 * a reason, so a client can tell it from a refused card.
 *
 * @example
 * validationError('processPaymentRequest', { 'input.contact': ['The input.contact field is required.'] });
 */
export function validationError(
  field: string,
  validation: Record<string, string[]>,
  reason?: string,
): GraphqlErrorEntry {
  return {
    message: validationMessage(field),
    path: [field],
    extensions:
      reason === undefined
        ? { category: validationCategory, validation }
        : { category: validationCategory, validation, reason },
  };
}

/**
 * An entry of a GraphQL `errors` list as read from an answer: the message is a string, the rest is as sent (other
 * services add keys of their own).
 */
export interface ReadGraphqlErrorEntry {
  readonly message: string;
  readonly extensions?: {
    readonly reason?: string;
    readonly category?: string;
    readonly validation?: Readonly<Record<string, readonly string[]>>;
    readonly [key: string]: unknown;
  };
  readonly [key: string]: unknown;
}

/**
 * Reads the `errors` of a GraphQL answer (7.2 and 7.3): the entries that have a string message, or `undefined`
 * when the body holds no `errors` list.
 *
 * @example
 * const errors = readGraphqlErrors(body);
 * const reason = errors?.[0]?.extensions?.reason;
 */
export function readGraphqlErrors(body: unknown): ReadGraphqlErrorEntry[] | undefined {
  if (!isPlainObject(body) || !Array.isArray(body.errors)) return undefined;
  return body.errors.filter(
    (entry): entry is ReadGraphqlErrorEntry => isPlainObject(entry) && typeof entry.message === 'string',
  );
}

/**
 * Reads the 7.3 fields of an `errors` list: every validation entry's map merged (a path named twice keeps all its
 * messages), as fresh plain arrays. Empty when no entry is a validation error.
 *
 * @example
 * readValidationFields(readGraphqlErrors(body) ?? [])['input.contact']; // ['The input.contact field is required.']
 */
export function readValidationFields(errors: readonly ReadGraphqlErrorEntry[]): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const entry of errors) {
    const extensions = entry.extensions;
    if (extensions?.category !== validationCategory || !isPlainObject(extensions.validation)) continue;
    for (const [path, messages] of Object.entries(extensions.validation))
      if (Array.isArray(messages)) fields[path] = [...(fields[path] ?? []), ...messages.map(String)];
  }
  return fields;
}
