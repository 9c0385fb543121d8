/**
 * The Fetch API transport: answers a `Request` with a `Response` through the same core as the `node:http` listener,
 * with no socket (in-process tests, Mock Service Worker handlers, edge-style runtimes).
 *
 * @module
 */
import { bodyOverLimit, type MockRequest, type MockRequestBody } from './exchange.ts';
import type { MockCore } from './node-adapter.ts';

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
      await reader.cancel();
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

/** Creates `fetch(request)` over `core`. */
export function createFetchHandler(core: MockCore, maxBodyBytes: number): (request: Request) => Promise<Response> {
  return async (request) => {
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
      remoteAddress: '127.0.0.1',
    };
    const reply = await core(exchange);
    // A 204 (a CORS preflight) or 304 must have a null body, or Response throws.
    const body = reply.status === 204 || reply.status === 304 ? null : (reply.body as BodyInit);
    // Bytes the core answers are plain ArrayBuffer-backed views, which Response takes as they are.
    return new Response(body, { status: reply.status, headers: reply.headers });
  };
}
