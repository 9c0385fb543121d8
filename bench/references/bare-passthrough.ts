/**
 * The floor of any Node proxy: a node:http server that forwards each request's bytes to one upstream through an
 * undici Pool and hands the answer back (status, headers, body), with no checks, no recording and no hop-by-hop
 * handling. The body is buffered both ways and written in one call, as the validating proxy does, so the two differ
 * only by what the kit's proxy adds. The benchmark runs it in front of the mock like the proxy
 * (`proxy-in-front.mjs <cli> --floor`); its CPU per request is what forwarding alone costs on the host.
 *
 * Usage: node bare-passthrough.mjs <upstream base URL>
 *
 * @module
 */
import { createServer } from 'node:http';
import { Pool } from 'undici';
import { listenAndReport } from './listen.ts';

const upstream = process.argv[2];
if (!upstream) throw new Error('[payment-contract-kit] bench: pass the upstream URL as argument 1.');
const pool = new Pool(upstream, { connections: 16, headersTimeout: 0, bodyTimeout: 0 });

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const headers: string[] = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i]!.toLowerCase();
      if (name !== 'connection' && name !== 'content-length' && name !== 'host')
        headers.push(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    }
    const chunksBack: Buffer[] = [];
    let status = 502;
    let answerHeaders: string[] = [];
    // dispatch, not pool.request: no stream object per answer, the cheapest way undici offers (the proxy uses it too).
    pool.dispatch(
      { path: req.url ?? '/', method: req.method as 'GET', headers, body: body.length > 0 ? body : null },
      {
        onConnect() {},
        onError() {
          res.writeHead(502);
          res.end();
        },
        onHeaders(statusCode, raw) {
          status = statusCode;
          for (let i = 0; i < raw.length; i += 2) {
            const name = raw[i]!.toString('latin1');
            if (!/^(connection|keep-alive)$/i.test(name)) answerHeaders.push(name, raw[i + 1]!.toString('latin1'));
          }
          return true;
        },
        onData(chunk) {
          chunksBack.push(chunk);
          return true;
        },
        onComplete() {
          res.sendDate = false;
          res.writeHead(status, answerHeaders);
          res.end(Buffer.concat(chunksBack));
          answerHeaders = [];
        },
      },
    );
  });
});
server.keepAliveTimeout = 60_000;

listenAndReport(server, 'bare passthrough');
