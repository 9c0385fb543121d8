/**
 * One request's life in the core, as types: a request already read (method, path, raw query, lower-cased headers,
 * body bytes), what a route answers ({@link Outcome}) and the reply ready to write (status, headers, body). The
 * `node:http` listener and the Fetch API entry are thin adapters that build a {@link MockRequest} and write a
 * {@link MockReply}; nothing in the core knows which one called it. Here too: parsing the body the transport read
 * (decoded once, parsed once; failures are values the route turns into its own error shape, so no client mistake
 * becomes a 500), an outcome's mapping to its reply and its verdict, and the one route for errors: a
 * {@link MockHttpError} (a caller's mistake, already in the spec's shape) is sent as it is; anything else is a bug in
 * the mock, logged as one and answered with the 7.1 body and status 500.
 *
 * @module
 */
import type { Assumptions, RequestLimits } from '../../../assumptions.ts';
import { graphqlError, restErrorBody } from '../../../contract/error-shapes.ts';
import { jsonDepthWithin, tooDeepJsonMessage } from '../../../internal/json-depth.ts';
import { kitMessage } from '../../../internal/messages.ts';
import { isPlainObject } from '../../../internal/plain-object.ts';
import { type RequestVerdict, verdictOf } from '../domain/events.ts';
import { badRequest, MockHttpError, restError } from '../http-error.ts';
import type { ArmedFailure } from '../store/failure-state.ts';

/** Marker body: the request body was larger than `maxBodyBytes`, so the adapter stopped reading it. */
export const bodyOverLimit: unique symbol = Symbol('body over maxBodyBytes');

/** Marker body: the client went away before its body ended. */
export const bodyAborted: unique symbol = Symbol('body aborted');

/** A request body as the core sees it: every byte already read, or a marker saying why not. */
export type MockRequestBody = Uint8Array | typeof bodyOverLimit | typeof bodyAborted;

/** One request, as the core answers it. */
export interface MockRequest {
  readonly method: string;
  /** Path without the query string, as sent (not decoded). */
  readonly path: string;
  /** Raw query string without the leading `?` (empty when none). */
  readonly query: string;
  /** Header values by lower-cased name; node's repeated `set-cookie` (an array) is never read by the mock. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: MockRequestBody;
  /** The caller's address; in-process callers pass the loopback address. */
  readonly remoteAddress: string;
}

/** One answer, ready for any transport to write. */
export interface MockReply {
  readonly status: number;
  /** Response headers by lower-cased name (content-length is left to the transport). */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Uint8Array;
}

/** Headers of a JSON answer with nothing else to say: shared, so the hot path allocates none. */
export const jsonHeaders: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'application/json; charset=utf-8',
});

/** A header's value when it was sent once as a string, else `undefined`. */
export function requestHeader(request: MockRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** The core as the adapters (node:http, Fetch) call it. */
export type MockCore = (request: MockRequest) => MockReply | Promise<MockReply>;

/** What parsing the body gave: a failure carries its status (413 over the limit, else 400) for the route's shape. */
type BodyResult =
  | { readonly ok: true; readonly empty: boolean; readonly value: unknown }
  | { readonly ok: false; readonly status: 413 | 400; readonly message: string };

/** The limits a JSON body is read within: its size (checked by the transport too) and its nesting. */
export type BodyLimits = Pick<RequestLimits, 'maxBodyBytes' | 'maxJsonDepth'>;

const aborted: BodyResult = {
  ok: false,
  status: 400,
  message: kitMessage('The request body was cut off before it ended.'),
};
const emptyBody: BodyResult = { ok: true, empty: true, value: undefined };
const decoder = new TextDecoder();

/** The text of body bytes (UTF-8; what {@link parseJsonBody} parses). */
export const bodyText = (bytes: Uint8Array): string => decoder.decode(bytes);

/**
 * Parses a JSON body; an empty body is `{ ok: true, empty: true }`. `text`, when given, is the body's
 * {@link bodyText} the caller already decoded. A body nested deeper than `limits.maxJsonDepth` is malformed for the
 * mock: what reads the value afterwards (variable coercion, the answer keys, the journal's summary) walks it.
 */
export function parseJsonBody(body: MockRequestBody, limits: BodyLimits, text?: string): BodyResult {
  if (body === bodyOverLimit)
    return {
      ok: false,
      status: 413,
      message: kitMessage(
        `Request body larger than the mock's limit of ${limits.maxBodyBytes} bytes (maxBodyBytes): send a smaller body, or raise the limit with --max-body-bytes or the mock option maxBodyBytes.`,
      ),
    };
  if (body === bodyAborted) return aborted;
  if (body.length === 0) return emptyBody;
  const json = text ?? decoder.decode(body);
  if (!jsonDepthWithin(json, limits.maxJsonDepth)) {
    const flags = '--max-json-depth or the mock option assumptions.limits.maxJsonDepth';
    return {
      ok: false,
      status: 400,
      message: kitMessage(tooDeepJsonMessage('Request body', limits.maxJsonDepth, flags)),
    };
  }
  try {
    return { ok: true, empty: false, value: JSON.parse(json) };
  } catch (error) {
    return {
      ok: false,
      status: 400,
      message: kitMessage(
        `Request body is not valid JSON (${(error as Error).message}): send a JSON object with Content-Type: application/json.`,
      ),
    };
  }
}

/**
 * The JSON object body of a control route (`{}` when empty); a body too large, malformed or not an object throws the
 * control API's 413/400.
 *
 * @example
 * const { path, status } = jsonObject(request, assumptions.limits, 'POST /__pck/fail-next');
 */
export function jsonObject(request: MockRequest, limits: BodyLimits, route: string): Record<string, unknown> {
  const body = parseJsonBody(request.body, limits);
  if (!body.ok) throw restError(body.status, body.message);
  if (body.empty) return {};
  if (!isPlainObject(body.value)) throw badRequest(`${route} needs a JSON object body.`);
  return body.value;
}

/** Which error shape a route answers in: 7.1 on REST and control paths, 7.2 on /graphql. */
export type RouteKind = 'rest' | 'graphql' | 'control';

/**
 * A route's answer. `text` (a page, a published file, an empty preflight answer; its `content-type` given in
 * `headers`) wins over `json`, which wins over `body`.
 */
export interface Outcome {
  readonly status: number;
  readonly body?: unknown;
  readonly json?: string;
  readonly text?: string | Uint8Array;
  readonly headers?: Readonly<Record<string, string>>;
  readonly operationName?: string | undefined;
  readonly guide?: 'current' | 'legacy' | undefined;
  /** The GraphQL root fields the request selected (the coverage report reads them off the answered event). */
  readonly rootFields?: readonly string[] | undefined;
  readonly summary?: unknown;
  /**
   * What came of the request, for the log and the journal ({@link verdictOf}), when the route knows it cheaply (the
   * GraphQL route reads its answer object); otherwise the pipeline works it out from the status and `body`.
   */
  readonly verdict?: RequestVerdict | undefined;
  /**
   * Set by the /graphql route on the outcome of an answer the engine kept (a configuration-only query): the same
   * body may be answered with this outcome again until the engine's reset (routes.ts).
   */
  readonly kept?: true | undefined;
}

/**
 * Checks a request's credentials before its handler runs: answers the caller's client id, the failure to send (in
 * the route's own error shape), or `undefined` when this request needs no credentials (a browser asking for a page).
 */
export type Authenticator = (
  request: MockRequest,
) => string | Outcome | undefined | Promise<string | Outcome | undefined>;

/** One route of the core: an optional credentials check, then the handler. */
export interface RouteEntry {
  readonly auth?: Authenticator | undefined;
  readonly handle: (request: MockRequest, clientId: string | undefined) => Outcome | Promise<Outcome>;
  /**
   * With a shared state store: false when this request reads only configuration and what its token check
   * keeps locally, so it runs without first catching up with other processes. Absent: it reads shared state.
   */
  readonly readsShared?: ((request: MockRequest) => boolean) | undefined;
  /** True when `auth` takes the request's injected failure in its own store round trip (/graphql on Redis). */
  readonly takesFailure?: boolean | undefined;
}

/** Serializes `outcome` as a reply (JSON unless it is `text`); throws when its body cannot be serialized (a bug the pipeline maps). */
export function toReply(outcome: Outcome): MockReply {
  if (outcome.text !== undefined) return { status: outcome.status, headers: outcome.headers ?? {}, body: outcome.text };
  return {
    status: outcome.status,
    headers: outcome.headers ? { ...jsonHeaders, ...outcome.headers } : jsonHeaders,
    body: outcome.json ?? JSON.stringify(outcome.body ?? null),
  };
}

/**
 * The verdict of an answer the route gave none: its `body`, or its JSON text parsed only when it can hold errors
 * (a refusal status, or an `"errors"` key), so successful answers cost a substring search.
 *
 * @example
 * const verdict = outcome.verdict ?? verdictOfOutcome(outcome);
 */
export function verdictOfOutcome(outcome: Outcome): RequestVerdict {
  if (outcome.json === undefined || (outcome.status < 400 && !outcome.json.includes('"errors"')))
    return verdictOf(outcome.status, outcome.text === undefined ? outcome.body : undefined);
  try {
    return verdictOf(outcome.status, JSON.parse(outcome.json));
  } catch {
    return verdictOf(outcome.status, undefined);
  }
}

/** Maps errors to answers. */
export interface ErrorMapper {
  /** A client mistake found by the HTTP layer (bad body, 405, 413), in the error shape of the route. */
  layer(kind: RouteKind | undefined, status: number, message: string, headers?: Record<string, string>): Outcome;
  /** Whatever a handler threw or rejected with. */
  fromError(error: unknown, method: string, path: string): Outcome;
  /** Logs a bug in the mock and answers the 7.1 500 body. */
  internal(error: unknown, method: string, path: string): Outcome;
  /** The answer of an injected failure (`failNextRequest`) taken for a request, in the error shape of the route. */
  injected(failure: ArmedFailure, kind: RouteKind): Outcome;
}

/** A 7.2 GraphQL failure with its status. */
export function graphqlFailure(status: number, message: string, reason: string): Outcome {
  return { status, body: { errors: [graphqlError(message, reason)] } };
}

/** The answer of an injected failure taken for a request, in the route's shape; a promise when a shared store took it. */
export function injectedAnswer(
  errors: ErrorMapper,
  taken: ArmedFailure | Promise<ArmedFailure | undefined> | undefined,
  kind: RouteKind,
): Outcome | Promise<Outcome | undefined> | undefined {
  if (!(taken instanceof Promise)) return taken && errors.injected(taken, kind);
  return taken.then((f) => f && errors.injected(f, kind));
}

/** The text of an unexpected error for the log: its stack when it has one. */
export function errorDetail(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/** Creates the mapper; `logLine` receives one line per bug. */
export function createErrorMapper(assumptions: Assumptions, logLine: (text: string) => void): ErrorMapper {
  const reasons = assumptions.reasonCodes;
  const badRequestReason = reasons.badRequest;
  const internal = (error: unknown, method: string, path: string): Outcome => {
    logLine(
      kitMessage(`internal error on ${method} ${path} (a bug in the mock; please report it): ${errorDetail(error)}`),
    );
    return { status: 500, body: restErrorBody(kitMessage('Internal server error in the mock; see its log.')) };
  };
  return {
    layer(kind, status, message, headers) {
      const body = kind === 'graphql' ? { errors: [graphqlError(message, badRequestReason)] } : restErrorBody(message);
      return headers ? { status, body, headers } : { status, body };
    },
    fromError(error, method, path) {
      if (!(error instanceof MockHttpError)) return internal(error, method, path);
      return Object.keys(error.headers).length > 0
        ? { status: error.status, body: error.body, headers: error.headers }
        : { status: error.status, body: error.body };
    },
    internal,
    injected({ status, message = kitMessage(`Injected failure (failNextRequest) with status ${status}.`) }, kind) {
      return kind === 'graphql'
        ? graphqlFailure(status, message, status >= 500 ? reasons.internal : reasons.badRequest)
        : { status, body: restErrorBody(message) };
    },
  };
}
