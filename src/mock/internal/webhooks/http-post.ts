/**
 * One webhook POST over node:http(s), the Node platform's webhook transport: no dependency, an AbortSignal to cut it
 * short, and errors reduced to a short code (`ECONNREFUSED`, `timeout`, ...) for the delivery log.
 *
 * @module
 */
import http from 'node:http';
import type https from 'node:https';
import { type AttemptAbort, PostError, type PostResult, SNIPPET_BYTES, type WebhookTransport } from './transport.ts';

/**
 * node:https, loaded on the first https delivery: loading it brings TLS with it, which would lengthen the CLI's cold
 * start for every sandbox, and most sandboxes post to plain http receivers.
 */
let httpsModule: Promise<typeof https> | undefined;
const loadHttps = (): Promise<typeof https> => {
  httpsModule ??= import('node:https').then((m) => m.default);
  return httpsModule;
};

/** Sockets shared by one dispatcher; destroyed on close so nothing keeps the process alive. */
interface PostAgents {
  readonly http: http.Agent;
  /** The https agent, made from the loaded node:https on the first https delivery. */
  https(module: typeof https): https.Agent;
  destroy(): void;
}

/** Keep-alive agents bounded in sockets, so a burst of settlements does not open thousands of connections. */
function createPostAgents(maxSockets = 64): PostAgents {
  const h = new http.Agent({ keepAlive: true, maxSockets });
  let s: https.Agent | undefined;
  return {
    http: h,
    https(module) {
      s ??= new module.Agent({ keepAlive: true, maxSockets });
      return s;
    },
    destroy() {
      h.destroy();
      s?.destroy();
    },
  };
}

/** POSTs `body` to `url`; resolves with any HTTP answer, rejects with a {@link PostError} when none came. */
function post(
  url: URL,
  headers: Readonly<Record<string, string>>,
  body: string,
  agents: PostAgents,
  abort: AttemptAbort,
): Promise<PostResult> {
  if (url.protocol !== 'https:') return postWith(http, agents.http, url, headers, body, abort);
  return loadHttps().then((module) => postWith(module, agents.https(module), url, headers, body, abort));
}

function postWith(
  client: typeof http | typeof https,
  agent: http.Agent,
  url: URL,
  headers: Readonly<Record<string, string>>,
  body: string,
  abort: AttemptAbort,
): Promise<PostResult> {
  return new Promise((resolve, reject) => {
    if (abort.aborted) {
      reject(new PostError(String(abort.reason ?? 'aborted'), 'aborted before sending'));
      return;
    }
    const request = client.request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      agent,
    });
    const done = abort.onAbort(() =>
      request.destroy(new PostError(String(abort.reason ?? 'aborted'), 'attempt aborted')),
    );
    const fail = (error: NodeJS.ErrnoException) => {
      done();
      reject(error instanceof PostError ? error : new PostError(error.code ?? 'ERROR', error.message));
    };
    request.on('error', fail);
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      response.on('data', (chunk: Buffer) => {
        // Read the whole answer so the socket can be reused, but keep only the start for the log.
        if (kept < SNIPPET_BYTES) {
          chunks.push(chunk);
          kept += chunk.length;
        }
      });
      response.on('error', fail);
      // A receiver that resets the connection mid-answer: no 'end' comes; settle on 'close' rather than wait for
      // the attempt timeout.
      response.on('close', () => {
        if (response.complete) return;
        done();
        reject(new PostError('ECONNRESET', 'the receiver closed the connection before its answer ended'));
      });
      response.on('end', () => {
        done();
        const retryAfter = response.headers['retry-after'];
        resolve({
          status: response.statusCode ?? 0,
          retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
          date: response.headers.date,
          bodySnippet: kept === 0 ? '' : Buffer.concat(chunks).subarray(0, SNIPPET_BYTES).toString('utf8'),
        });
      });
    });
    request.end(body);
  });
}

/** The default transport: {@link post} over keep-alive agents that {@link WebhookTransport.release} replaces. */
export function createHttpTransport(): WebhookTransport {
  let agents = createPostAgents();
  return {
    send: (url, headers, body, abort) => post(url, headers, body, agents, abort),
    release() {
      agents.destroy();
      agents = createPostAgents();
    },
  };
}
