/**
 * The client's errors: one class per kind of answer code can branch on, each keeping the raw response, and a
 * narrowing helper per class. The helpers check a brand rather than `instanceof`, so they also recognise an error
 * thrown by the other build of the package (ESM and CommonJS copies loaded side by side).
 *
 * @module
 */
import type { ReadGraphqlErrorEntry } from '../contract/error-shapes.ts';
import { clause, kitMessage } from '../internal/messages.ts';

/** The response an error was made from: HTTP status, headers (lower-case names) and the body (parsed JSON or text). */
export interface RawResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
}

/** One entry of a GraphQL `errors` list (spec 7.2 and 7.3), as the contract layer's reader gives it. */
export type GraphqlErrorEntry = ReadGraphqlErrorEntry;

/**
 * Dotted input path → the service's messages on it (7.3 `extensions.validation`, merged). Plain mutable arrays: the
 * client builds a fresh copy for each error, so teams can merge it into, or assign it to, maps of their own
 * (`Record<string, string[]>`, a form library's errors) without casts.
 *
 * @example
 * const formErrors: Record<string, string[]> = { ...myErrors, ...error.fields };
 */
export type ValidationFields = Record<string, string[]>;

/** Kinds of {@link PaymentClientError}, one per class. */
export type PaymentClientErrorKind = 'validation' | 'invalid-card' | 'authentication' | 'graphql' | 'transport';

const brand = Symbol.for('payment-contract-kit/client-error');

/** Base class of every error the client throws for an answer of the service (or the lack of one). */
export abstract class PaymentClientError extends Error {
  /** Which class this is; the same value the narrowing helpers read. */
  abstract readonly kind: PaymentClientErrorKind;
  /** The answer this error was made from; `undefined` only when no answer came (network failure). */
  readonly response: RawResponse | undefined;
  /** @internal brand read by the narrowing helpers. */
  readonly [brand] = true;

  protected constructor(message: string, response: RawResponse | undefined, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.response = response;
  }
}

/**
 * A 7.3 validation error: the service refused the input. `fields` maps each dotted input path to its messages,
 * merged over every validation entry of the answer.
 *
 * @example
 * if (isValidationError(e)) console.log(e.fields['input.credit_card.expiry_year']);
 */
export class ValidationError extends PaymentClientError {
  readonly kind: PaymentClientErrorKind = 'validation';
  /** Dotted input path → messages (the `extensions.validation` objects of the answer). */
  readonly fields: ValidationFields;
  /** The `errors` list as answered. */
  readonly errors: readonly GraphqlErrorEntry[];

  /** @internal made by the client from an answer. */
  constructor(
    operation: string,
    fields: ValidationFields,
    errors: readonly GraphqlErrorEntry[],
    response: RawResponse,
  ) {
    super(
      kitMessage(
        `${operation}: the service refused the input (spec 7.3): ${describeFields(fields)}. Fix the values at these paths and send the request again.`,
      ),
      response,
    );
    this.fields = fields;
    this.errors = errors;
  }
}

/**
 * The service refused the card itself before processing (spec 4.6 rule 4, 7.3): a validation error on the card's
 * number (`card_number`, legacy `number`) or on its `card_account_uid`. Also a {@link ValidationError}.
 *
 * @example
 * if (isInvalidCardError(e)) askForAnotherCard(e.cardMessages);
 */
export class InvalidCardError extends ValidationError {
  override readonly kind: PaymentClientErrorKind = 'invalid-card';
  /** The input path of the refused card field, such as `input.credit_card.card_number`. */
  readonly cardPath: string;
  /** The service's messages on that path. */
  readonly cardMessages: string[];

  /** @internal made by the client from an answer. */
  constructor(
    operation: string,
    fields: ValidationFields,
    errors: readonly GraphqlErrorEntry[],
    response: RawResponse,
    cardPath: string,
  ) {
    super(operation, fields, errors, response);
    this.message = kitMessage(
      `${operation}: the service refused the card at ${cardPath} (${(fields[cardPath] ?? []).join(' ')}). Ask the payer for another card; this one will be refused again.`,
    );
    this.cardPath = cardPath;
    this.cardMessages = fields[cardPath] ?? [];
  }
}

/**
 * The service did not accept the credentials or the token: a 401 of a token endpoint (spec 7.1) or a GraphQL
 * error whose reason is an authentication code (7.2, such as `TOKEN_EXPIRED` after the client's one recovery).
 */
export class AuthenticationError extends PaymentClientError {
  readonly kind: PaymentClientErrorKind = 'authentication';
  /** The GraphQL reason code (7.2); `undefined` for a REST 401, whose body has only a message (7.1). */
  readonly reason: string | undefined;
  /** HTTP status of the answer. */
  readonly status: number;
  /** The service's own message. */
  readonly serviceMessage: string;

  /** @internal made by the client from an answer. */
  constructor(what: string, reason: string | undefined, serviceMessage: string, response: RawResponse, hint: string) {
    super(
      kitMessage(`${what}: authentication failed (${reason ?? `HTTP ${response.status}`}: ${serviceMessage}). ${hint}`),
      response,
    );
    this.reason = reason;
    this.status = response.status;
    this.serviceMessage = serviceMessage;
  }
}

/** Any other GraphQL error (spec 7.2) with its reason code, such as `GRAPHQL_VALIDATION_FAILED` or `BAD_REQUEST`. */
export class GraphqlError extends PaymentClientError {
  readonly kind: PaymentClientErrorKind = 'graphql';
  /** `extensions.reason` of the first error. */
  readonly reason: string | undefined;
  /** The `errors` list as answered. */
  readonly errors: readonly GraphqlErrorEntry[];

  /** @internal made by the client from an answer. */
  constructor(operation: string, errors: readonly GraphqlErrorEntry[], response: RawResponse) {
    const first = errors[0];
    super(
      kitMessage(
        `${operation}: the service answered with an error (${first?.extensions?.reason ?? 'no reason'}: ${first?.message ?? 'no message'}).`,
      ),
      response,
    );
    this.reason = first?.extensions?.reason;
    this.errors = errors;
  }
}

/**
 * No usable answer: the request failed on the network, or the answer had an unexpected status or body (such as a
 * 500 of a token endpoint, or a body that is not JSON).
 */
export class TransportError extends PaymentClientError {
  readonly kind: PaymentClientErrorKind = 'transport';
  /** HTTP status; `undefined` when no answer came. */
  readonly status: number | undefined;
  /** The body as answered (parsed JSON or text); `undefined` when no answer came. */
  readonly body: unknown;

  /** @internal made by the client. */
  constructor(what: string, detail: string, response: RawResponse | undefined, cause?: unknown) {
    const told = pactMismatch(response) ? pactMismatchDetail : detail;
    super(kitMessage(`${what}: ${told}`), response, cause === undefined ? undefined : { cause });
    this.status = response?.status;
    this.body = response?.body;
  }
}

/**
 * Pact's mock server answers a request no interaction expects with 500 and `X-Pact: Request-Mismatch`: in a consumer
 * test that is a contract mismatch, not a service failure, and most often a header the interaction pinned.
 */
function pactMismatch(response: RawResponse | undefined): boolean {
  return response?.status === 500 && response.headers['x-pact'] === 'Request-Mismatch';
}

const pactMismatchDetail =
  "Pact's mock server matched no interaction to this request (500 Request-Mismatch): the interaction expects another method, path, header or body than the client sent. Build the request with withTokenRequest() / withGraphqlRequest() from payment-contract-kit/pact, which match Content-Type and Accept as any client sends them; if you set headers yourself, use acceptHeader() and contentTypeJson() instead of literals. The mismatch itself is in the Pact test's failure output.";

function describeFields(fields: ValidationFields): string {
  const entries = Object.entries(fields);
  if (entries.length === 0) return 'no field named';
  return entries.map(([path, messages]) => `${path}: ${clause(messages.join(' '))}`).join('; ');
}

function hasKind(value: unknown, kinds: readonly PaymentClientErrorKind[]): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { [brand]?: unknown })[brand] === true &&
    kinds.includes((value as { kind: PaymentClientErrorKind }).kind)
  );
}

/**
 * True for any error of the client.
 *
 * @example
 * try { await client.feesFor(100); } catch (e) { if (!isPaymentClientError(e)) throw e; }
 */
export function isPaymentClientError(value: unknown): value is PaymentClientError {
  return hasKind(value, ['validation', 'invalid-card', 'authentication', 'graphql', 'transport']);
}

/**
 * True for a 7.3 validation error, an {@link InvalidCardError} included.
 *
 * @example
 * if (isValidationError(e)) showFieldErrors(e.fields);
 */
export function isValidationError(value: unknown): value is ValidationError {
  return hasKind(value, ['validation', 'invalid-card']);
}

/**
 * True when the service refused the card before processing.
 *
 * @example
 * if (isInvalidCardError(e)) console.log(e.cardPath);
 */
export function isInvalidCardError(value: unknown): value is InvalidCardError {
  return hasKind(value, ['invalid-card']);
}

/**
 * True for an authentication error (credentials, token).
 *
 * @example
 * if (isAuthenticationError(e)) console.log(e.reason ?? e.status);
 */
export function isAuthenticationError(value: unknown): value is AuthenticationError {
  return hasKind(value, ['authentication']);
}

/**
 * True for any other GraphQL error with a reason code.
 *
 * @example
 * if (isGraphqlError(e)) console.log(e.reason);
 */
export function isGraphqlError(value: unknown): value is GraphqlError {
  return hasKind(value, ['graphql']);
}

/**
 * True for a network failure or an answer that could not be read.
 *
 * @example
 * if (isTransportError(e)) console.log(e.status, e.body);
 */
export function isTransportError(value: unknown): value is TransportError {
  return hasKind(value, ['transport']);
}
