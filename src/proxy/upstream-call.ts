/**
 * One HTTP exchange with a server the proxy forwards to (the service, or a webhook receiver), over undici's
 * dispatcher rather than node:http's client or fetch: fetch decompresses and normalises headers, and the consumer must
 * get the service's exact bytes; node:http's `ClientRequest`, its agent and its streams cost the proxy about as much
 * per request as its own server side (decision 0030). The dispatcher hands over the status, the raw header list in its
 * order and spelling, and the body chunks, nothing more. The answer's body is buffered up to a bound (the checker reads
 * it, and a fault must be answered before any byte went out), and the whole exchange has one deadline, so a slow or
 * endless server holds only its own requests.
 *
 * @module
 */
import { Agent, type Dispatcher } from 'undici';

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
  /**
   * Flat `[name, value, ...]` list, sent as given: hop-by-hop headers, Content-Length (undici writes the body's) and
   * Expect (undici refuses it) already left out by the caller, as `nextHopHeaders` does.
   */
  readonly rawHeaders: readonly string[];
  readonly body: Buffer | undefined;
  /** Deadline of the whole exchange, body included, in ms. */
  readonly timeoutMs: number;
  /** Largest answer body taken, in bytes. */
  readonly maxBodyBytes: number;
}

/** The keep-alive connection pools of one proxy, for every origin it forwards to. */
export interface UpstreamAgents {
  /** One undici agent: a pool per origin (the service, each webhook receiver), http and https alike. */
  readonly dispatcher: Dispatcher;
  /** Closes every pooled connection. */
  destroy(): void;
}

/**
 * Creates the connection pools of one proxy (keep-alive: a new TCP and TLS handshake per request is most of a hop).
 * undici's own header and body time-outs are off: {@link callUpstream} keeps one deadline for the whole exchange.
 */
export function createUpstreamAgents(): UpstreamAgents {
  const dispatcher = new Agent({ headersTimeout: 0, bodyTimeout: 0 });
  return {
    dispatcher,
    destroy() {
      // Requests still in flight end with an error their callers already answer as a fault.
      dispatcher.destroy().catch(() => undefined);
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

function errorCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : 'ERROR';
}

function faultOf(error: NodeJS.ErrnoException, answered: boolean): UpstreamFault {
  const code = errorCode(error);
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
    let settled = false;
    let answered = false;
    let abort: ((error?: Error) => void) | undefined;
    const done = (outcome: UpstreamOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    // Settles first, then drops the connection: the error undici reports for the abort finds the call settled.
    const giveUp = (outcome: UpstreamFault) => {
      done(outcome);
      abort?.(new Error(outcome.detail));
    };
    const timer = setTimeout(
      () => giveUp({ ok: false, fault: 'timeout', detail: `no complete answer within ${req.timeoutMs} ms` }),
      req.timeoutMs,
    );
    let status = 502;
    let statusMessage = '';
    let rawHeaders: string[] = [];
    const chunks: Buffer[] = [];
    let size = 0;
    const handler: Dispatcher.DispatchHandlers = {
      onConnect(abortRequest) {
        abort = abortRequest;
        if (settled) abortRequest(new Error('given up'));
      },
      onError(error) {
        done(faultOf(error as NodeJS.ErrnoException, answered));
      },
      onHeaders(statusCode, headers, _resume, statusText) {
        // 1xx answers (103 Early Hints) come before the final one, which is the answer.
        if (statusCode < 200) return true;
        answered = true;
        status = statusCode;
        statusMessage = statusText;
        // latin1, as node:http reads header bytes: each byte one character, so writing them back keeps the bytes.
        rawHeaders = headers.map((h) => h.toString('latin1'));
        return true;
      },
      onData(chunk) {
        size += chunk.length;
        if (size > req.maxBodyBytes) {
          giveUp({ ok: false, fault: 'too-large', detail: `the answer passed ${req.maxBodyBytes} bytes` });
          return false;
        }
        chunks.push(chunk);
        return true;
      },
      onComplete() {
        done({ ok: true, status, statusMessage, rawHeaders, body: Buffer.concat(chunks, size) });
      },
    };
    try {
      agents.dispatcher.dispatch(
        {
          origin: req.url.origin,
          path: `${req.url.pathname}${req.url.search}`,
          method: req.method as Dispatcher.HttpMethod,
          headers: req.rawHeaders as string[],
          body: req.body,
        },
        handler,
      );
    } catch (error) {
      // A request undici refuses to write (a header value node's own parser let through): nothing was sent.
      done({ ok: false, fault: 'unreachable', detail: `the request could not be sent (${errorCode(error)})` });
    }
  });
}
