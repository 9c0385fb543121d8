/**
 * The `node:http` transport: reads a request's body (bounded; an oversized one is drained, not buffered), hands the
 * core a {@link MockRequest} and writes its {@link MockReply} with one `writeHead` + `end`, the lean path node:http is
 * fastest on.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  bodyAborted,
  bodyOverLimit,
  type MockCore,
  type MockReply,
  type MockRequest,
  type MockRequestBody,
} from './exchange.ts';

const noBody = new Uint8Array(0);

/** Reads the body of `req`, at most `limit` bytes, then calls `done` once. */
function readBody(req: IncomingMessage, limit: number, done: (body: MockRequestBody) => void): void {
  const declared = req.headers['content-length'];
  // Most token calls carry no body: answer them without subscribing to the stream.
  if (declared === '0' || (declared === undefined && req.headers['transfer-encoding'] === undefined)) {
    done(noBody);
    return;
  }
  if (declared !== undefined && Number(declared) > limit) {
    req.resume();
    done(bodyOverLimit);
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let settled = false;
  const settle = (body: MockRequestBody) => {
    if (settled) return;
    settled = true;
    done(body);
  };
  req.on('data', (chunk: Buffer) => {
    if (size > limit) return;
    size += chunk.length;
    if (size > limit) chunks.length = 0;
    else chunks.push(chunk);
  });
  req.on('end', () =>
    settle(size > limit ? bodyOverLimit : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)),
  );
  req.on('aborted', () => settle(bodyAborted));
  req.on('error', () => settle(bodyAborted));
}

/** Writes `reply`. Never throws on a socket the client already closed. */
function writeReply(res: ServerResponse, reply: MockReply): void {
  if (res.headersSent || res.destroyed) return;
  const { body } = reply;
  // The flat array form of writeHead skips node's header object processing: measurably faster on the hot path.
  const headers: string[] = [
    'content-length',
    String(typeof body === 'string' ? Buffer.byteLength(body) : body.length),
  ];
  for (const name in reply.headers) headers.push(name, reply.headers[name]!);
  res.writeHead(reply.status, headers);
  res.end(body);
}

/**
 * Creates the `node:http` request listener over `core`. `onWriteError` hears of a reply that could not be written (a
 * bug); the exchange is then ended rather than left hanging.
 */
export function createNodeListener(
  core: MockCore,
  maxBodyBytes: number,
  onWriteError: (error: unknown) => void,
): (req: IncomingMessage, res: ServerResponse) => void {
  const fail = (res: ServerResponse, error: unknown) => {
    onWriteError(error);
    res.destroy();
  };
  return (req, res) => {
    readBody(req, maxBodyBytes, (body) => {
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      const request: MockRequest = {
        method: req.method ?? 'GET',
        path: q === -1 ? url : url.slice(0, q),
        query: q === -1 ? '' : url.slice(q + 1),
        headers: req.headers,
        body,
        remoteAddress: req.socket.remoteAddress ?? '127.0.0.1',
      };
      try {
        const reply = core(request);
        if (reply instanceof Promise) reply.then((r) => writeReply(res, r)).catch((error: unknown) => fail(res, error));
        else writeReply(res, reply);
      } catch (error) {
        fail(res, error);
      }
    });
  };
}
