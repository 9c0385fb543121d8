/**
 * What a route answers inside the core, before it becomes a {@link MockReply}: a status with a JSON value (or JSON
 * text the GraphQL engine serialized itself), plus what the journal and the log need.
 *
 * @module
 */
import { jsonHeaders, type MockReply, type MockRequest } from './exchange.ts';

/** A route's answer. `raw` wins over `json`, and `json` over `body`. */
export interface Outcome {
  readonly status: number;
  readonly body?: unknown;
  readonly json?: string;
  /** A body that is not JSON (the browser pages and their assets), sent as is; set its `content-type` in `headers`. */
  readonly raw?: string | Uint8Array;
  readonly headers?: Readonly<Record<string, string>>;
  readonly operationName?: string | undefined;
  readonly guide?: 'current' | 'legacy' | undefined;
  readonly summary?: unknown;
}

/**
 * Checks a request's credentials before its handler runs: answers the caller's client id, the failure to send (in
 * the route's own error shape), or `undefined` when this request needs no credentials (a browser asking for a page).
 */
export type Authenticator = (request: MockRequest) => string | Outcome | undefined;

/** One route of the core: an optional credentials check, then the handler. */
export interface RouteEntry {
  readonly auth?: Authenticator | undefined;
  readonly handle: (request: MockRequest, clientId: string | undefined) => Outcome | Promise<Outcome>;
}

/** Serializes `outcome` as a JSON reply; throws when its body cannot be serialized (a bug the pipeline maps). */
export function toReply(outcome: Outcome): MockReply {
  if (outcome.raw !== undefined) return { status: outcome.status, headers: outcome.headers ?? {}, body: outcome.raw };
  return {
    status: outcome.status,
    headers: outcome.headers ? { ...jsonHeaders, ...outcome.headers } : jsonHeaders,
    body: outcome.json ?? JSON.stringify(outcome.body ?? null),
  };
}
