/**
 * `startWebhookListener`: a local receiver of payment status webhooks, in the spirit of `stripe listen`. It takes the
 * mock's (or the real service's) deliveries on a port, checks each with {@link checkWebhookSignature}, answers 204
 * for a valid one, 401 for a signature that fails, 400 for a body that is not a payment status webhook and 413 for a
 * body over the limit, reports one {@link ListenedDelivery} per request, and can pass each delivery on, unchanged,
 * to the team's own endpoint. `payment-contract-kit webhook listen` is its command line; not part of the package's
 * entries (a development tool, kept off the public surface).
 *
 * @module
 */
import { Buffer } from 'node:buffer';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { maskDigits } from '../contract/card-masking.ts';
import { errorLine, kitMessage } from '../internal/messages.ts';
import { checkWebhookSignature, DEFAULT_WEBHOOK_HEADER_NAMES } from './check-webhook-signature.ts';
import { STANDARD_WEBHOOKS_HEADERS } from './standard-webhooks.ts';

/** The port `webhook listen` takes by default: the one after the mock's 4010. */
export const DEFAULT_LISTEN_PORT = 4011;
/** Largest body read, in bytes: the mock's own default request limit. */
export const DEFAULT_LISTEN_MAX_BODY_BYTES = 1_048_576;
/** How long the team's endpoint has to answer a forwarded delivery. */
export const DEFAULT_FORWARD_TIMEOUT_MS = 10_000;

/** Options of {@link startWebhookListener}. */
export interface WebhookListenerOptions {
  /** Port to listen on; 0 picks a free one. Default {@link DEFAULT_LISTEN_PORT}. */
  readonly port?: number;
  /** Host to listen on. Default `127.0.0.1`. */
  readonly host?: string;
  /** The webhook signing key deliveries must carry; a list accepts any of them. */
  readonly signingKey: string | readonly string[];
  /** The client id deliveries must carry. */
  readonly clientId: string;
  /** Also require a valid Standard Webhooks signature with this `whsec_` secret. */
  readonly standardWebhooksSecret?: string | undefined;
  /** Pass every delivery on to this URL (body and signature headers unchanged) and report its answer. */
  readonly forwardTo?: string | undefined;
  /** Largest body read, in bytes; a bigger one is answered 413. Default {@link DEFAULT_LISTEN_MAX_BODY_BYTES}. */
  readonly maxBodyBytes?: number;
  /** How long the forward target has to answer. Default {@link DEFAULT_FORWARD_TIMEOUT_MS}. */
  readonly forwardTimeoutMs?: number;
  /** Told about every request, once its answer (and its forwarding, if any) is done. */
  readonly onDelivery?: (delivery: ListenedDelivery) => void;
}

/** One request the listener received, as reported. Strings from the request are shown masked and shortened. */
export interface ListenedDelivery {
  readonly method: string;
  readonly path: string;
  /** The status the listener answered. */
  readonly status: number;
  /** The payload's `uuid` and `status` when the body could be read as JSON. */
  readonly uuid?: string;
  readonly paymentStatus?: string;
  /** The delivery id header, when sent. */
  readonly deliveryId?: string;
  /** Whether the delivery was accepted, or why not (a code of the signature check, or the listener's own). */
  readonly check: { readonly ok: true } | { readonly ok: false; readonly code: string; readonly message: string };
  /** What the forward target answered, or why it did not; absent without `forwardTo`. */
  readonly forwarded?: { readonly url: string; readonly status?: number; readonly error?: string };
}

/** A running listener. */
export interface WebhookListener {
  /** Where it listens, e.g. `http://127.0.0.1:4011`; any path is taken (`/webhooks` reads well). */
  readonly url: string;
  /** Stops listening; resolves once every delivery in flight has been answered, forwarded and reported. */
  close(): Promise<void>;
}

/** The headers passed on to the forward target: the content type and every header of the webhook's signature. */
const forwardedHeaders = [
  'content-type',
  ...Object.values(DEFAULT_WEBHOOK_HEADER_NAMES),
  ...Object.values(STANDARD_WEBHOOKS_HEADERS),
];

/**
 * Starts a listener (port 0 works) and resolves once it listens. Options are checked first: a mistake throws a
 * `TypeError` naming the option.
 *
 * @example
 * const listener = await startWebhookListener({ port: 0, signingKey: 'test-signing-key', clientId: 'test-client',
 *   onDelivery: (d) => console.log(deliveryLine(d)) });
 * // start the mock with --webhook-url `${listener.url}/webhooks`, pay, then:
 * await listener.close();
 */
export async function startWebhookListener(options: WebhookListenerOptions): Promise<WebhookListener> {
  const settings = checkListenerOptions(options);
  const inFlight = new Set<Promise<void>>();
  const server = createServer((req, res) => {
    const done = handle(req, res, settings).then(
      (delivery) => {
        options.onDelivery?.(delivery);
      },
      // The handler answers every failure itself; reaching here is a bug, reported and survived.
      (error: unknown) => {
        process.stderr.write(`${kitMessage(`webhook listen: ${errorLine(error)} (a bug; please report it)`)}\n`);
        if (!res.headersSent) res.writeHead(500).end();
      },
    );
    inFlight.add(done);
    done.finally(() => inFlight.delete(done));
  });
  // A client that resets mid-request is its own business; the listener keeps listening.
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port, settings.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
  return {
    url: `http://${host}:${port}`,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await Promise.all([...inFlight]);
    },
  };
}

type ListenerSettings = Required<Omit<WebhookListenerOptions, 'onDelivery' | 'standardWebhooksSecret' | 'forwardTo'>> &
  Pick<WebhookListenerOptions, 'standardWebhooksSecret' | 'forwardTo'>;

/** The options with their defaults, or a `TypeError` naming the option that is wrong. */
function checkListenerOptions(o: WebhookListenerOptions): ListenerSettings {
  const refuse = (text: string): never => {
    throw new TypeError(kitMessage(`startWebhookListener: ${text}`));
  };
  const port = o.port ?? DEFAULT_LISTEN_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) refuse(`port must be 0 to 65535, got ${o.port}.`);
  const keys = typeof o.signingKey === 'string' ? [o.signingKey] : (o.signingKey ?? []);
  if (keys.length === 0 || keys.some((k) => typeof k !== 'string' || k === ''))
    refuse('signingKey must be the non-empty webhook signing key (or a list of them).');
  if (typeof o.clientId !== 'string' || o.clientId === '') refuse('clientId must be a non-empty client id.');
  if (o.forwardTo !== undefined && !/^https?:\/\/[^/]/.test(o.forwardTo))
    refuse(`forwardTo must be an http(s) URL such as http://127.0.0.1:3000/webhooks, got "${o.forwardTo}".`);
  const maxBodyBytes = o.maxBodyBytes ?? DEFAULT_LISTEN_MAX_BODY_BYTES;
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes < 1) refuse('maxBodyBytes must be a whole number above 0.');
  return {
    port,
    host: o.host ?? '127.0.0.1',
    signingKey: keys,
    clientId: o.clientId,
    standardWebhooksSecret: o.standardWebhooksSecret,
    forwardTo: o.forwardTo,
    maxBodyBytes,
    forwardTimeoutMs: o.forwardTimeoutMs ?? DEFAULT_FORWARD_TIMEOUT_MS,
  };
}

/** What reading a body gave: the bytes, or that it was over the limit (the rest is drained, not kept). */
type ReadBody = { readonly bytes: Buffer } | { readonly tooLarge: true };

function readBody(req: IncomingMessage, limit: number): Promise<ReadBody> {
  return new Promise((resolve) => {
    const declared = Number(req.headers['content-length']);
    let size = 0;
    let over = Number.isFinite(declared) && declared > limit;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) over = true;
      if (!over) chunks.push(chunk);
    });
    req.on('end', () => resolve(over ? { tooLarge: true } : { bytes: Buffer.concat(chunks) }));
    // A sender that went away mid-body: what arrived is judged as it is (it will not match, or not parse).
    req.on('error', () => resolve(over ? { tooLarge: true } : { bytes: Buffer.concat(chunks) }));
  });
}

async function handle(req: IncomingMessage, res: ServerResponse, s: ListenerSettings): Promise<ListenedDelivery> {
  const method = req.method ?? 'GET';
  const path = shown((req.url ?? '/').split('?')[0] ?? '/');
  const answer = (status: number, text: string) => {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(text === '' ? undefined : `${text}\n`);
  };
  const refused = (status: number, code: string, message: string, known: Partial<ListenedDelivery> = {}) => {
    answer(status, kitMessage(message));
    return { method, path, status, ...known, check: { ok: false as const, code, message } };
  };
  if (method !== 'POST') {
    req.resume();
    res.setHeader('allow', 'POST');
    return refused(405, 'NOT_POST', `webhook listen takes POST deliveries, got ${shown(method)}.`);
  }
  const body = await readBody(req, s.maxBodyBytes);
  if ('tooLarge' in body)
    return refused(
      413,
      'BODY_TOO_LARGE',
      `the body is over ${s.maxBodyBytes} bytes; a payment status webhook is a few hundred. Not read, not forwarded.`,
    );
  const known = describe(req, body.bytes);
  let result: ReturnType<typeof checkWebhookSignature>;
  try {
    result = checkWebhookSignature({
      headers: req.headers,
      rawBody: body.bytes,
      signingKey: s.signingKey,
      clientId: s.clientId,
      ...(s.standardWebhooksSecret === undefined ? {} : { standardWebhooks: { secret: s.standardWebhooksSecret } }),
    });
  } catch (error) {
    // Misuse of the check cannot come from a request (the options were checked); say what happened all the same.
    return refused(400, 'UNCHECKABLE', errorLine(error), known);
  }
  const status = result.ok ? 204 : /MALFORMED_JSON|INVALID_PAYLOAD/.test(result.error.code) ? 400 : 401;
  let delivery: ListenedDelivery;
  if (result.ok) {
    answer(status, '');
    delivery = { method, path, status, ...known, check: { ok: true } };
  } else
    delivery = refused(
      status,
      result.error.code,
      result.error.message.replace(/^\[payment-contract-kit\] /, ''),
      known,
    );
  if (s.forwardTo === undefined) return delivery;
  return { ...delivery, forwarded: await forward(s.forwardTo, req, body.bytes, s.forwardTimeoutMs) };
}

/** The uuid, status and delivery id a request carries, as far as they can be read, for the report. */
function describe(req: IncomingMessage, bytes: Buffer): Partial<ListenedDelivery> {
  const header = req.headers[DEFAULT_WEBHOOK_HEADER_NAMES.deliveryId];
  const deliveryId = typeof header === 'string' && header !== '' ? shown(header) : undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(bytes.toString('utf8'));
  } catch {
    payload = undefined;
  }
  const field = (name: string) => {
    const value = (payload as Record<string, unknown> | null | undefined)?.[name];
    return typeof value === 'string' ? shown(value) : undefined;
  };
  const uuid = typeof payload === 'object' ? field('uuid') : undefined;
  const paymentStatus = typeof payload === 'object' ? field('status') : undefined;
  return {
    ...(uuid === undefined ? {} : { uuid }),
    ...(paymentStatus === undefined ? {} : { paymentStatus }),
    ...(deliveryId === undefined ? {} : { deliveryId }),
  };
}

/**
 * A string from a request as the report shows it: without control characters (a
 * terminal's escape sequences), at most 80 characters, and with card-like digit runs masked, since a hostile or
 * mistaken sender may put a card number anywhere.
 */
function shown(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is taken out.
  const clean = maskDigits(value.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?'));
  return clean.length > 80 ? `${clean.slice(0, 79)}…` : clean;
}

/** Passes one delivery on: same method, the body's bytes and the signature's headers unchanged. */
async function forward(
  url: string,
  req: IncomingMessage,
  body: Buffer,
  timeoutMs: number,
): Promise<NonNullable<ListenedDelivery['forwarded']>> {
  const headers: Record<string, string> = {};
  for (const name of forwardedHeaders) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body: new Uint8Array(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel();
    return { url, status: response.status };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why =
      (error as Error).name === 'TimeoutError'
        ? `no answer within ${timeoutMs} ms`
        : `${cause?.code ?? cause?.message ?? (error as Error).message} (is it running?)`;
    return { url, error: why };
  }
}

/**
 * One line for a delivery, as `webhook listen` prints it: the answer, the payment, the delivery id, whether the
 * signature held (or why not), and the forward target's answer. Never a card number: the payload's card fields are
 * not shown and every string from the request is masked.
 *
 * @example
 * deliveryLine(delivery) // '204 POST /webhooks payment 6f1c…e2 success delivery whd_1 signature ok'
 */
export function deliveryLine(d: ListenedDelivery): string {
  const payment =
    d.uuid === undefined ? 'payment ?' : `payment ${d.uuid}${d.paymentStatus ? ` ${d.paymentStatus}` : ''}`;
  const delivery = `delivery ${d.deliveryId ?? '?'}`;
  const verdict = d.check.ok ? 'signature ok' : `refused ${d.check.code}: ${d.check.message}`;
  const forwarded =
    d.forwarded === undefined ? '' : `; forwarded to ${d.forwarded.url}: ${d.forwarded.status ?? d.forwarded.error}`;
  return `${d.status} ${d.method} ${d.path} ${payment} ${delivery} ${verdict}${forwarded}`;
}
