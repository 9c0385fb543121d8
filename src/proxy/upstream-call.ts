/**
 * One HTTP exchange with a server the proxy forwards to (the service, or a webhook receiver), over node:http(s)
 * rather than fetch: fetch decompresses and normalises headers, and the consumer must get the service's exact bytes.
 * The answer's body is buffered up to a bound (the checker reads it, and a fault must be answered before any byte
 * went out), and the whole exchange has one deadline, so a slow or endless server holds only its own requests.
 *
 * @module
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** An answer received in full. */
export interface UpstreamAnswer {
  readonly ok: true;
  readonly status: number;
  readonly statusMessage: string;
  /** Headers as received: a flat `[name, value, ...]` list, original spelling and order. */
  readonly rawHeaders: readonly string[];
  readonly body: Buffer;
}

/** Why no usable answer came. */
export type UpstreamFaultKind = 'unreachable' | 'timeout' | 'reset' | 'too-large';

/** No answer, or one the proxy could not take in full. */
export interface UpstreamFault {
  readonly ok: false;
  readonly fault: UpstreamFaultKind;
  /** What happened, in words (a system error code, the bound that was passed); safe to log. */
  readonly detail: string;
}

/** What one call gives. */
export type UpstreamOutcome = UpstreamAnswer | UpstreamFault;

/** One request to send. */
export interface UpstreamRequest {
  readonly url: URL;
  readonly method: string;
  /** Flat `[name, value, ...]` list, sent as given (hop-by-hop headers already removed by the caller). */
  readonly rawHeaders: readonly string[];
  readonly body: Buffer | undefined;
  /** Deadline of the whole exchange, body included, in ms. */
  readonly timeoutMs: number;
  /** Largest answer body taken, in bytes. */
  readonly maxBodyBytes: number;
}

/** Keep-alive agents, one per protocol, shared by every call of one proxy. */
export interface UpstreamAgents {
  readonly http: HttpAgent;
  readonly https: HttpsAgent;
  /** Closes every pooled connection. */
  destroy(): void;
}

/** Creates the connection pools of one proxy (keep-alive: a new TCP and TLS handshake per request is most of a hop). */
export function createUpstreamAgents(): UpstreamAgents {
  const http = new HttpAgent({ keepAlive: true, scheduling: 'lifo' });
  const https = new HttpsAgent({ keepAlive: true, scheduling: 'lifo' });
  return {
    http,
    https,
    destroy() {
      http.destroy();
      https.destroy();
    },
  };
}

const unreachableCodes: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
]);

function faultOf(error: NodeJS.ErrnoException, answered: boolean): UpstreamFault {
  const code = error.code ?? 'ERROR';
  if (!answered && unreachableCodes.has(code))
    return { ok: false, fault: 'unreachable', detail: `connection failed (${code})` };
  return {
    ok: false,
    fault: 'reset',
    detail: answered ? `the connection broke during the answer (${code})` : `the connection broke (${code})`,
  };
}

/**
 * Sends one request and resolves with the whole answer or the fault; never rejects.
 *
 * @example
 * const outcome = await callUpstream(agents, { url, method: 'POST', rawHeaders, body, timeoutMs: 30_000, maxBodyBytes });
 * if (!outcome.ok) console.log(outcome.fault);
 */
export function callUpstream(agents: UpstreamAgents, req: UpstreamRequest): Promise<UpstreamOutcome> {
  return new Promise((resolve) => {
    const secure = req.url.protocol === 'https:';
    let settled = false;
    let answered = false;
    const done = (outcome: UpstreamOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const options = {
      method: req.method,
      headers: req.rawHeaders as string[],
      agent: secure ? agents.https : agents.http,
    };
    const outgoing = (secure ? httpsRequest : httpRequest)(req.url, options, (incoming: IncomingMessage) => {
      answered = true;
      const chunks: Buffer[] = [];
      let size = 0;
      incoming.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > req.maxBodyBytes) {
          done({ ok: false, fault: 'too-large', detail: `the answer passed ${req.maxBodyBytes} bytes` });
          outgoing.destroy();
          return;
        }
        chunks.push(chunk);
      });
      incoming.on('end', () =>
        done({
          ok: true,
          status: incoming.statusCode ?? 502,
          statusMessage: incoming.statusMessage ?? '',
          rawHeaders: incoming.rawHeaders,
          body: Buffer.concat(chunks, size),
        }),
      );
      incoming.on('error', (error: NodeJS.ErrnoException) => done(faultOf(error, true)));
      incoming.on('aborted', () => done(faultOf(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }), true)));
    });
    const timer = setTimeout(() => {
      done({ ok: false, fault: 'timeout', detail: `no complete answer within ${req.timeoutMs} ms` });
      outgoing.destroy();
    }, req.timeoutMs);
    outgoing.on('error', (error: NodeJS.ErrnoException) => done(faultOf(error, answered)));
    // Small bodies as latin1 strings: node joins them to the request head, so the request leaves in one write.
    if (req.body !== undefined && req.body.length > 0 && req.body.length <= 64 * 1024)
      outgoing.end(req.body.toString('latin1'), 'latin1');
    else outgoing.end(req.body);
  });
}
