/**
 * What a route answers inside the core, before it becomes a {@link MockReply}: a status with a JSON value (or JSON
 * text the GraphQL engine serialized itself), plus what the journal and the log need.
 *
 * @module
 */
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
 * The `extensions.reason` of an answer's first GraphQL error, if any (for the JSON request log). Engine answers
 * arrive as JSON text; it is parsed only when it holds a reason, so successful answers cost a substring search.
 */
export function reasonOf(outcome: Outcome): string | undefined {
  let body = outcome.body;
  if (outcome.json !== undefined) {
    if (!outcome.json.includes('"reason"')) return undefined;
    try {
      body = JSON.parse(outcome.json);
    } catch {
      return undefined;
    }
  }
  const errors = (body as { errors?: unknown } | null | undefined)?.errors;
  const first = Array.isArray(errors) ? (errors[0] as { extensions?: { reason?: unknown } } | undefined) : undefined;
  const reason = first?.extensions?.reason;
  return typeof reason === 'string' ? reason : undefined;
}
