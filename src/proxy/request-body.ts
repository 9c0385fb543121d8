/**
 * Reads an incoming request's body up to a bound, and the answer for one past it: 413 in the spec's shape for the
 * path (7.1, or a 7.2 error with the ledger's `badRequest` reason on /graphql), without forwarding anything.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Assumptions } from '../assumptions.ts';
import { restErrorBody } from '../contract/error-shapes.ts';
import { servicePaths } from '../contract/service-names.ts';
import { kitMessage } from '../internal/messages.ts';

/** The body, or `too-large` once it passed `maxBytes`, or `aborted` when the client went away. */
export type BodyRead = Buffer | 'too-large' | 'aborted';

/**
 * Buffers the body of `req`, stopping at `maxBytes` (the rest is not read).
 *
 * @example
 * const body = await readRequestBody(req, 1024 * 1024);
 */
export function readRequestBody(req: IncomingMessage, maxBytes: number): Promise<BodyRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (value: BodyRead) => {
      if (done) return;
      done = true;
      resolve(value);
    };
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > maxBytes) {
        req.pause();
        finish('too-large');
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => finish(Buffer.concat(chunks, size)));
    req.on('error', () => finish('aborted'));
    req.on('close', () => finish('aborted'));
  });
}

/**
 * Answers 413 for a body past the bound and closes the connection (the rest of the body is never read).
 *
 * @example
 * if (body === 'too-large') return refuseLargeBody(res, path, max, assumptions, '--max-body-bytes');
 */
export function refuseLargeBody(res: ServerResponse, path: string, maxBytes: number, assumptions: Assumptions): void {
  const message = kitMessage(
    `proxy: the request body is larger than ${maxBytes} bytes, so it was not forwarded; send a smaller body or raise --max-body-bytes.`,
  );
  const body =
    path === servicePaths.graphql
      ? JSON.stringify({ errors: [{ message, extensions: { reason: assumptions.reasonCodes.badRequest } }] })
      : JSON.stringify(restErrorBody(message));
  res.writeHead(413, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  });
  res.end(body, () => res.req.destroy());
}
