/**
 * The Fetch API transport: answers a `Request` with a `Response` through the same core as the `node:http` listener,
 * with no socket (in-process tests, Mock Service Worker handlers, edge-style runtimes).
 *
 * @module
 */
import { bodyOverLimit, type MockCore, type MockRequest, type MockRequestBody } from './exchange.ts';

/** Reads at most `limit` bytes of `request`'s body; stops reading as soon as it is over. */
async function readBody(request: Request, limit: number): Promise<MockRequestBody> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) return bodyOverLimit;
  if (request.body === null) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      // Not awaited: a body msw has cloned is one branch of a tee, whose cancel settles only once every branch is
      // cancelled, so awaiting it would hang the answer for good.
      reader.cancel().catch(() => undefined);
      return bodyOverLimit;
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return all;
}

/**
 * The requesting address recorded for an in-process request when the caller names none: there is no socket, so the
 * mock does not pretend one (a payment without `ip_address` stores this as its requesting IP).
 */
export const inProcessAddress = 'in-process';

/** Per-call options of the in-process `fetch`. */
export interface FetchCallOptions {
  /**
   * The address to record as the requester (the default of a payment's `ip_address`), such as the payer IP a test
   * wants to see; default {@link inProcessAddress}. Headers such as `x-forwarded-for` are not read for it.
   */
  readonly remoteAddress?: string;
}

/**
 * Creates `fetch(request, options?)` over `core`.
 *
 * @example
 * const fetch = createFetchHandler(core, 1_048_576);
 * await fetch(new Request('http://mock/graphql', init), { remoteAddress: '203.0.113.7' });
 */
export function createFetchHandler(
  core: MockCore,
  maxBodyBytes: number,
): (request: Request, options?: FetchCallOptions) => Promise<Response> {
  return async (request, options) => {
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const exchange: MockRequest = {
      method: request.method,
      path: url.pathname,
      query: url.search.slice(1),
      headers,
      body: await readBody(request, maxBodyBytes),
      remoteAddress: options?.remoteAddress ?? inProcessAddress,
    };
    const reply = await core(exchange);
    // A 204 (a CORS preflight) or 304 must have a null body, or Response throws.
    const body = reply.status === 204 || reply.status === 304 ? null : (reply.body as BodyInit);
    // Bytes the core answers are plain ArrayBuffer-backed views, which Response takes as they are.
    return new Response(body, { status: reply.status, headers: reply.headers });
  };
}
