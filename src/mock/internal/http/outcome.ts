/**
 * What a route answers inside the core, before it becomes a {@link MockReply}: a status with a JSON value (or JSON
 * text the GraphQL engine serialized itself), plus what the journal and the log need.
 *
 * @module
 */
import { type RequestVerdict, verdictOf } from '../verdict.ts';
import { jsonHeaders, type MockReply, type MockRequest } from './exchange.ts';

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
   * body may be answered with this outcome again until the engine's reset (kept-graphql-answers.ts).
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
