/**
 * Reference (a), the REST limit: bare node:http answering every request with one fixed token-pair JSON, shaped and
 * sized like a real generate-token answer (HS256 JWTs), from a buffer built once.
 *
 * @module
 */
import { createServer } from 'node:http';
import { listenAndReport } from './listen.ts';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const expiration = Math.floor(Date.now() / 1000) + 600;
const jwt = (kind: string) =>
  `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: 'test-client', typ: kind, iat: expiration - 600, exp: expiration, jti: '5b0e6c1e-8d0c-4b6e-9f3c-2a7f1c0d9e11' })}.${'x'.repeat(43)}`;

const body = Buffer.from(
  JSON.stringify({ status: 'SUCCESS', data: { token: jwt('access'), refresh_token: jwt('refresh'), expiration } }),
);
const headers = { 'content-type': 'application/json', 'content-length': String(body.length) };

const server = createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
server.keepAliveTimeout = 60_000;

listenAndReport(server, 'rest-token reference');
