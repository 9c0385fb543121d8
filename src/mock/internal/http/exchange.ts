/**
 * The transport-neutral exchange the mock's core answers: a request already read (method, path, raw query, lower-cased
 * headers, body bytes) and a reply ready to write (status, headers, body). The `node:http` listener and the Fetch API
 * entry are thin adapters that build a {@link MockRequest} and write a {@link MockReply}; nothing in the core knows
 * which one called it.
 *
 * @module
 */

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
