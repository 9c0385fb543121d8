/**
 * HAR 1.2 files as exchanges for the checker: as browsers' developer tools save them (Chrome's and Firefox's
 * layouts: HTTP/2 pseudo-headers, base64 `content.encoding`, bodies left out) and as the proxy's `--record` writes
 * them (webhook entries marked `_kind: "webhook"`, every entry numbered as the proxy numbered it, `_seq`). Pure reading, no Node: it runs wherever the checker does.
 *
 * @module
 */
import { isPlainObject } from '../../internal/plain-object.ts';
import type { Exchange, ExchangeMessage } from './exchange.ts';

/** One entry of a HAR file, read. */
export interface HarExchange {
  /** The entry's position in `log.entries`, from 0. */
  readonly index: number;
  /**
   * The entry's number in reports, from 1: the proxy's own number for the exchange (`_seq`, as in the proxy's log and
   * report) when the proxy recorded the file, else the position from 1.
   */
  readonly number: number;
  /** `startedDateTime` of the entry, when given. */
  readonly startedDateTime?: string | undefined;
  readonly exchange: Exchange;
}

/** What {@link readHar} made of a file. */
export interface HarReading {
  /** Entries to check, in file order. */
  readonly exchanges: readonly HarExchange[];
  /** Entries left out because their URL's origin is not the one asked for. */
  readonly otherHosts: number;
  /** Entries that could not be read (no request, no URL), by index, with the reason. */
  readonly unreadable: readonly { readonly index: number; readonly reason: string }[];
}

/** Why a value is not a HAR document, or undefined when it is one. */
export function notHarReason(value: unknown): string | undefined {
  if (!isPlainObject(value) || !isPlainObject(value.log)) return 'it has no "log" object';
  if (!Array.isArray(value.log.entries)) return 'its "log" has no "entries" list';
  return undefined;
}

function headers(list: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!Array.isArray(list)) return out;
  for (const h of list) {
    if (!isPlainObject(h) || typeof h.name !== 'string' || typeof h.value !== 'string') continue;
    // HTTP/2 pseudo-headers (:authority, :path) are how Chrome records the request line, not headers.
    if (h.name.startsWith(':')) continue;
    const name = h.name.toLowerCase();
    out[name] = out[name] === undefined ? h.value : `${out[name]}, ${h.value}`;
  }
  return out;
}

function decodeBase64(text: string): string | undefined {
  try {
    const binary = atob(text);
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** A body from HAR `postData` or `content`: text as is, base64 decoded, undefined when not recorded. */
function body(part: unknown): string | undefined {
  if (!isPlainObject(part) || typeof part.text !== 'string') return undefined;
  return part.encoding === 'base64' ? decodeBase64(part.text) : part.text;
}

/** A message with the content type HAR gives beside the body when the headers lack it (Firefox does that). */
function message(rawHeaders: unknown, part: unknown): ExchangeMessage {
  const h = headers(rawHeaders);
  if (h['content-type'] === undefined && isPlainObject(part) && typeof part.mimeType === 'string' && part.mimeType)
    h['content-type'] = part.mimeType;
  const text = body(part);
  // A body the tool left out: no text, though the entry says there was content (size, or a content type).
  const size = isPlainObject(part) && typeof part.size === 'number' ? part.size : undefined;
  const notRecorded =
    text === undefined &&
    isPlainObject(part) &&
    (size === undefined ? part.text === undefined && Boolean(part.mimeType) : size > 0);
  return notRecorded ? { headers: h, body: undefined, bodyNotRecorded: true } : { headers: h, body: text };
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * Reads a parsed HAR document; throws nothing (check {@link notHarReason} first for a usage error).
 * With `origin`, only entries sent there are kept (webhook entries always are: they went to the receiver).
 *
 * @example
 * const { exchanges } = readHar(JSON.parse(text), { origin: 'https://sandbox.example' });
 */
export function readHar(value: unknown, options: { readonly origin?: string | undefined } = {}): HarReading {
  const exchanges: HarExchange[] = [];
  const unreadable: { index: number; reason: string }[] = [];
  let otherHosts = 0;
  const wanted = options.origin === undefined ? undefined : originOf(options.origin);
  const entries = isPlainObject(value) && isPlainObject(value.log) ? value.log.entries : undefined;
  if (!Array.isArray(entries)) return { exchanges, otherHosts, unreadable };
  entries.forEach((entry: unknown, index) => {
    if (!isPlainObject(entry) || !isPlainObject(entry.request) || typeof entry.request.url !== 'string') {
      unreadable.push({ index, reason: 'the entry has no request URL' });
      return;
    }
    const webhook = entry._kind === 'webhook';
    const { request } = entry;
    if (wanted !== undefined && !webhook && originOf(request.url as string) !== wanted) {
      otherHosts++;
      return;
    }
    const response = isPlainObject(entry.response) ? entry.response : undefined;
    // Browsers record a request that got no answer (blocked, cancelled) with status 0.
    const status = typeof response?.status === 'number' && response.status > 0 ? response.status : undefined;
    exchanges.push({
      index,
      number:
        typeof entry._seq === 'number' && Number.isSafeInteger(entry._seq) && entry._seq > 0 ? entry._seq : index + 1,
      startedDateTime: typeof entry.startedDateTime === 'string' ? entry.startedDateTime : undefined,
      exchange: {
        kind: webhook ? 'webhook' : 'http',
        request: {
          method: typeof request.method === 'string' ? request.method.toUpperCase() : 'GET',
          url: request.url as string,
          ...message(request.headers, request.postData),
        },
        response:
          response && status !== undefined ? { status, ...message(response.headers, response.content) } : undefined,
      },
    });
  });
  return { exchanges, otherHosts, unreadable };
}
