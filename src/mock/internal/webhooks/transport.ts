/**
 * The webhook transports: how the dispatcher sends one attempt and what an attempt gives back, the web platform's
 * `fetch` POST, and in-process receivers (the msw entry's) called directly. The Node platform's node:http(s) POST is
 * http-post.ts, kept apart so a browser build never loads node:http. Whichever sends, the answer or the failure goes
 * through the same retry rules.
 *
 * A `fetch` that may not reach a URL (a receiver on another origin without CORS, an http: URL from an https: page, a
 * network error) rejects without saying which; the attempt then fails with `fetch-failed:` and a reason that names the
 * usual causes.
 *
 * An in-process receiver is a function `(request: Request) => Response`, so a consumer's own webhook handler runs
 * inside a unit test. It gets a real `Request` with the headers and body an HTTP delivery sends; its `Response`, a
 * thrown error or the attempt's abort becomes the same `PostResult` or `PostError` an HTTP attempt gives. Each receiver
 * stands for one webhook URL of its own (`http://in-process.invalid/webhook-receivers/<n>`, a reserved name that never
 * resolves): every other URL keeps going over the network.
 *
 * @module
 */
import type { WebhookReceiver } from '../../../contract/webhook-headers.ts';
import { errorLine } from '../../../internal/messages.ts';
import { utf8ByteLength, utf8Text } from '../../../internal/text-bytes.ts';

/** What came back from one POST. */
export interface PostResult {
  readonly status: number;
  /** Raw `Retry-After` header, when present. */
  readonly retryAfter: string | undefined;
  /** Raw `Date` header, when present: the receiver's clock, to read an HTTP-date `Retry-After` against. */
  readonly date: string | undefined;
  /** First bytes of the answer body, for the delivery log. */
  readonly bodySnippet: string;
}

/** A failed POST: `code` is short and stable (`ECONNREFUSED`, `ECONNRESET`, `aborted`, ...). */
export class PostError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'PostError';
    this.code = code;
  }
}

/**
 * What cuts one attempt short (its timeout, a reset, closing the mock), as an AbortController would. Not one: making
 * an AbortController and listening to its signal costs a noticeable share of a whole POST to a local receiver, on
 * every attempt, so the signal is made only for a transport that asks for it (`fetch` and the in-process receivers take
 * one); the node:http POST only listens.
 */
export interface AttemptAbort {
  readonly aborted: boolean;
  /** What `abort` was given (an `AbortError` when it was given nothing), as `AbortSignal.reason`. */
  readonly reason: unknown;
  /** Aborts the attempt; later calls do nothing. */
  abort(reason?: unknown): void;
  /** Calls `listener` once on abort (one listener, the transport's); returns what stops listening. */
  onAbort(listener: () => void): () => void;
  /** The abort as an `AbortSignal`, made on first use. */
  readonly signal: AbortSignal;
}

/** An {@link AttemptAbort}: a class, so its getters are shared instead of made again for every attempt. */
class Abort implements AttemptAbort {
  aborted = false;
  reason: unknown = undefined;
  #controller: AbortController | undefined = undefined;
  #listener: (() => void) | undefined = undefined;

  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason ?? new DOMException('This operation was aborted', 'AbortError');
    this.#controller?.abort(this.reason);
    const told = this.#listener;
    this.#listener = undefined;
    told?.();
  }

  onAbort(listener: () => void): () => void {
    this.#listener = listener;
    return () => {
      if (this.#listener === listener) this.#listener = undefined;
    };
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.aborted) this.#controller.abort(this.reason);
    }
    return this.#controller.signal;
  }
}

/**
 * Makes the abort of one attempt.
 *
 * @example
 * const abort = createAttemptAbort();
 * transport.send(url, headers, body, abort);
 * abort.abort('timeout');
 */
export function createAttemptAbort(): AttemptAbort {
  return new Abort();
}

/**
 * How the dispatcher sends one attempt. The platform's network transport or an in-process one.
 */
export interface WebhookTransport {
  /** Sends one attempt; resolves with any answer, rejects with a {@link PostError} when none came. */
  send(url: URL, headers: Readonly<Record<string, string>>, body: string, abort: AttemptAbort): Promise<PostResult>;
  /** Drops pooled connections (reset, close); the transport stays usable afterwards. */
  release(): void;
}

/** Bytes of an answer body kept for the delivery log, by every transport. */
export const SNIPPET_BYTES = 256;

/**
 * Reads at most 256 bytes of a Fetch `Response` body for the delivery log and cancels the rest (a receiver may stream
 * without end). Shared by the `fetch` transport and the in-process receivers.
 */
async function snippetOf(response: Response): Promise<string> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let kept = 0;
  while (kept < SNIPPET_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    kept += value.length;
  }
  await reader.cancel().catch(() => {});
  const all = new Uint8Array(kept);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return utf8Text(all.subarray(0, SNIPPET_BYTES));
}

/** Headers a browser sets itself and refuses from a script (sending them would only be ignored or throw). */
const browserOwned = new Set(['content-length', 'user-agent', 'host', 'connection']);

/**
 * Why a `fetch` that rejected did: the abort's reason, or the usual causes a browser does not tell apart. The code is
 * what the delivery log shows for the attempt, so it carries the explanation, as an in-process receiver's does.
 */
function failureOf(error: unknown, signal: AbortSignal): PostError {
  if (signal.aborted) return new PostError(String(signal.reason ?? 'aborted'), 'attempt aborted');
  const code =
    `fetch-failed: the runtime refused or could not reach the URL (${errorLine(error).slice(0, 80)}). From a page, ` +
    'a receiver on another origin must allow CORS for POST and the webhook headers, an https: page cannot post to ' +
    'http:, and blocked ports are refused; to test a handler in the page, pass it in webhookReceivers.';
  return new PostError(code, 'the runtime refused or could not make the request');
}

/**
 * Creates the transport. `fetchImpl` defaults to the global `fetch`, read at each attempt (a test may replace it).
 *
 * @example
 * const transport = createFetchTransport();
 * await transport.send(new URL('https://example.test/hook'), headers, body, createAttemptAbort());
 */
export function createFetchTransport(fetchImpl?: typeof fetch): WebhookTransport {
  return {
    async send(url, headers, body, abort): Promise<PostResult> {
      const signal = abort.signal;
      const sent: Record<string, string> = {};
      for (const name in headers) if (!browserOwned.has(name.toLowerCase())) sent[name] = headers[name]!;
      let response: Response;
      try {
        response = await (fetchImpl ?? fetch)(url, { method: 'POST', headers: sent, body, signal, redirect: 'manual' });
      } catch (error) {
        throw failureOf(error, signal);
      }
      return {
        status: response.status,
        retryAfter: response.headers.get('retry-after') ?? undefined,
        date: response.headers.get('date') ?? undefined,
        bodySnippet: await snippetOf(response).catch(() => ''),
      };
    },
    // fetch pools its own connections; there is nothing of ours to drop.
    release() {},
  };
}

// The receiver's type is the contract layer's, shared with the msw entry.
export type { WebhookReceiver };

/** The URL that stands for the receiver at `index` in the delivery log (1-based in the URL, as people count). */
export function receiverUrl(index: number): string {
  return `http://in-process.invalid/webhook-receivers/${index + 1}`;
}

/** Whether `value` looks like a Fetch `Response` (duck-typed: a receiver may build it in another realm). */
function isResponse(value: unknown): value is Response {
  const v = value as Partial<Response> | null;
  return typeof v === 'object' && v !== null && typeof v.status === 'number' && typeof v.headers?.get === 'function';
}

/** Calls `receiver` with one attempt; settles like an HTTP POST would. */
function callReceiver(
  receiver: WebhookReceiver,
  url: URL,
  headers: Readonly<Record<string, string>>,
  body: string,
  signal: AbortSignal,
): Promise<PostResult> {
  return new Promise((resolve, reject) => {
    const aborted = () => new PostError(String(signal.reason ?? 'aborted'), 'attempt aborted');
    if (signal.aborted) {
      reject(aborted());
      return;
    }
    // An attempt timeout or a reset wins over a receiver that never answers; the receiver can watch request.signal.
    const onAbort = () => reject(aborted());
    signal.addEventListener('abort', onAbort, { once: true });
    const request = new Request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(utf8ByteLength(body)) },
      body,
      signal,
    });
    Promise.resolve()
      .then(() => receiver(request))
      .then(
        async (response: unknown) => {
          if (!isResponse(response))
            throw new PostError(
              'receiver-invalid-answer',
              `the receiver returned ${typeof response}, not a Response; return e.g. new Response(null, { status: 204 }).`,
            );
          resolve({
            status: response.status,
            retryAfter: response.headers.get('retry-after') ?? undefined,
            date: response.headers.get('date') ?? undefined,
            bodySnippet: await snippetOf(response),
          });
        },
        (error: unknown) => {
          // The code is what the delivery log shows, so it carries the receiver's own error, on one short line.
          throw new PostError(`receiver-threw: ${errorLine(error).slice(0, 200)}`, 'the receiver threw');
        },
      )
      .catch((error: unknown) => reject(error instanceof PostError ? error : new PostError('ERROR', errorLine(error))))
      .finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * A transport sending to in-process receivers by URL ({@link receiverUrl}) and everything else through `network`.
 *
 * @example
 * const transport = createInProcessTransport([onWebhook], platform.createNetworkTransport());
 * transport.send(new URL(receiverUrl(0)), headers, body, createAttemptAbort()); // calls onWebhook(request)
 */
export function createInProcessTransport(
  receivers: readonly WebhookReceiver[],
  network: WebhookTransport,
): WebhookTransport {
  const byUrl = new Map(receivers.map((receiver, i) => [receiverUrl(i), receiver] as const));
  return {
    send(url, headers, body, abort) {
      const receiver = byUrl.get(url.href);
      return receiver === undefined
        ? network.send(url, headers, body, abort)
        : callReceiver(receiver, url, headers, body, abort.signal);
    },
    release: () => network.release(),
  };
}

/**
 * Adds `receivers` to a mock's options: each becomes one more default webhook URL ({@link receiverUrl}), and the
 * fan-out gets transports that call them (`network`, the platform's transport, for every other URL). No receivers
 * leave both as they were.
 *
 * @example
 * const inProcess = inProcessReceivers(options, [onWebhook], platform.createNetworkTransport);
 * const opts = resolveMockOptions(inProcess.options);
 * createWebhookFanout({ ...deps, ...inProcess.fanout });
 */
export function inProcessReceivers<Options extends { readonly webhookUrls?: readonly string[] | undefined }>(
  options: Options,
  receivers: readonly WebhookReceiver[],
  network: () => WebhookTransport,
): { readonly options: Options; readonly createTransport: () => WebhookTransport } {
  if (receivers.length === 0) return { options, createTransport: network };
  const webhookUrls = [...(options.webhookUrls ?? []), ...receivers.map((_, i) => receiverUrl(i))];
  return {
    options: { ...options, webhookUrls },
    createTransport: () => createInProcessTransport(receivers, network()),
  };
}
