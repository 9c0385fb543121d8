/**
 * Reference (a′), the generate-token floor: bare node:http that reads x-client-id and x-api-key, checks them against
 * one client, signs a fresh HS256 JWT (node:crypto HMAC, header precomputed), makes a random refresh token and
 * answers the token pair. No state, no journal, no log. Compared with (a), it shows what signing a token per call
 * costs whatever the implementation; the mock's generate-token is judged against it.
 *
 * @module
 */
import { createHmac, createSecretKey, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { answerJson, listenAndReport } from './listen.ts';

const key = createSecretKey(Buffer.alloc(32, 7));
const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
const apiKeys = new Map([['test-client', 'test-api-key']]);
const unauthorized = JSON.stringify({ status: 'ERROR', message: 'unknown client or wrong API key' });

const server = createServer((req, res) => {
  const clientId = req.headers['x-client-id'];
  if (typeof clientId !== 'string' || apiKeys.get(clientId) !== req.headers['x-api-key']) {
    answerJson(res, 401, unauthorized);
    return;
  }
  const iat = Math.floor(Date.now() / 1000);
  const claims = { sub: clientId, typ: 'access', jti: randomUUID(), iat, exp: iat + 600 };
  const signed = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  const token = `${signed}.${createHmac('sha256', key).update(signed).digest('base64url')}`;
  const json = JSON.stringify({
    status: 'SUCCESS',
    data: { token, refresh_token: `rt_${randomUUID().replaceAll('-', '')}`, expiration: iat + 600 },
  });
  answerJson(res, 200, json);
});
server.keepAliveTimeout = 60_000;

listenAndReport(server, 'rest-token-signed reference');
