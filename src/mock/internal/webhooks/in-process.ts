/**
 * In-process webhook receivers: a transport that hands an attempt to a function `(request: Request) => Response`
 * instead of posting it over the network, so a consumer's own webhook handler runs inside a unit test. The receiver
 * gets a real `Request` with the headers and body an HTTP delivery sends; its `Response` (status, `Retry-After`,
 * `Date`, first bytes of the body), a thrown error or the attempt's abort becomes the same `PostResult` or
 * `PostError` an HTTP attempt gives, so the dispatcher's retry rules, 410 and the delivery log apply unchanged.
 *
 * Each receiver stands for one webhook URL of its own (`http://in-process.invalid/webhook-receivers/<n>`, a reserved
 * name that never resolves): every other URL keeps going over HTTP.
 *
 * @module
 */
import type { WebhookReceiver } from '../../../contract/webhook-headers.ts';
import { errorLine } from '../../../internal/messages.ts';
import { utf8ByteLength } from '../../../internal/text-bytes.ts';
import { PostError, type PostResult, snippetOf, type WebhookTransport } from './transport.ts';

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
 * transport.send(new URL(receiverUrl(0)), headers, body, signal); // calls onWebhook(request)
 */
export function createInProcessTransport(
  receivers: readonly WebhookReceiver[],
  network: WebhookTransport,
): WebhookTransport {
  const byUrl = new Map(receivers.map((receiver, i) => [receiverUrl(i), receiver] as const));
  return {
    send(url, headers, body, signal) {
      const receiver = byUrl.get(url.href);
      return receiver === undefined
        ? network.send(url, headers, body, signal)
        : callReceiver(receiver, url, headers, body, signal);
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
