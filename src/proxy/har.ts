/**
 * `--record`: a HAR 1.2 file (http://www.softwareishard.com/blog/har-12-spec/) of every exchange the proxy forwarded,
 * webhooks included, with secrets redacted (card numbers to first 6 and last 4 digits, CVVs, keys and tokens
 * replaced). Webhook entries carry `_kind: "webhook"` (HAR allows custom fields starting with `_`), so `check`
 * knows that the request is the service's and the answer the receiver's.
 *
 * @module
 */
import { decodedBody } from './content-encoding.ts';
import type { Redactor } from './redact.ts';

/** Largest decoded answer a HAR entry holds as text. */
const maxDecodedBytes = 10 * 1024 * 1024;

/** One exchange to record, as it went over the wire. */
export interface RecordedExchange {
  readonly kind: 'http' | 'webhook';
  /** When the request arrived (ms since the epoch). */
  readonly startedAt: number;
  /** Milliseconds from arrival to the answer. */
  readonly durationMs: number;
  /** The full URL the request went to (the service's URL, or the proxy's webhook URL). */
  readonly url: string;
  readonly method: string;
  readonly httpVersion: string;
  readonly requestHeaders: readonly string[];
  readonly requestBody: Buffer | undefined;
  readonly status: number;
  readonly statusText: string;
  readonly responseHeaders: readonly string[];
  readonly responseBody: Buffer;
}

interface HarHeader {
  readonly name: string;
  readonly value: string;
}

/** One HAR entry. */
export interface HarEntry {
  readonly _kind?: 'webhook';
  /**
   * The proxy's number for this exchange (the `#` of its log lines and the report's `exchange.seq`), so that `check`
   * on the recording names each entry as the proxy did, even after the oldest entries were dropped.
   */
  readonly _seq?: number;
  readonly startedDateTime: string;
  readonly time: number;
  readonly request: Record<string, unknown>;
  readonly response: Record<string, unknown>;
  readonly cache: Record<string, never>;
  readonly timings: { readonly send: number; readonly wait: number; readonly receive: number };
}

/** The HAR document. */
export interface Har {
  readonly log: {
    readonly version: '1.2';
    readonly creator: { readonly name: string; readonly version: string };
    readonly entries: readonly HarEntry[];
  };
}

function pairs(raw: readonly string[]): HarHeader[] {
  const out: HarHeader[] = [];
  for (let i = 0; i < raw.length; i += 2) out.push({ name: raw[i]!, value: raw[i + 1]! });
  return out;
}

function header(raw: readonly string[], name: string): string | undefined {
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === name) return raw[i + 1];
  return undefined;
}

/** A body as HAR text: UTF-8 as is, anything else (compressed, binary) base64, as HAR 1.2 allows. */
function bodyText(body: Buffer, redactor: Redactor): { text: string; encoding?: 'base64' } {
  const text = body.toString('utf8');
  if (Buffer.byteLength(text) === body.length && !text.includes('\uFFFD')) return { text: redactor.body(text) ?? '' };
  return { text: body.toString('base64'), encoding: 'base64' };
}

/**
 * One exchange as a redacted HAR entry.
 *
 * @example
 * harEntry(exchange, createRedactor()).request.url // 'https://sandbox.example.com/graphql'
 */
export function harEntry(x: RecordedExchange, redactor: Redactor, seq?: number): HarEntry {
  const url = new URL(x.url);
  const requestHeaders = pairs(redactor.headers(x.requestHeaders));
  const responseHeaders = pairs(redactor.headers(x.responseHeaders));
  const requestType = header(x.requestHeaders, 'content-type') ?? '';
  const responseType = header(x.responseHeaders, 'content-type') ?? '';
  // HAR keeps the decoded text (with the encoded size in bodySize); an answer that cannot be decoded stays base64.
  const decoded = decodedBody(x.responseHeaders, x.responseBody, maxDecodedBytes) ?? x.responseBody;
  const content = bodyText(decoded, redactor);
  return {
    ...(x.kind === 'webhook' ? { _kind: 'webhook' as const } : {}),
    ...(seq === undefined ? {} : { _seq: seq }),
    startedDateTime: new Date(x.startedAt).toISOString(),
    time: Math.round(x.durationMs * 1000) / 1000,
    request: {
      method: x.method,
      url: redactor.text(url.href),
      httpVersion: `HTTP/${x.httpVersion}`,
      cookies: [],
      headers: requestHeaders,
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value: redactor.text(value) })),
      ...(x.requestBody && x.requestBody.length > 0
        ? { postData: { mimeType: requestType, ...bodyText(x.requestBody, redactor) } }
        : {}),
      headersSize: -1,
      bodySize: x.requestBody?.length ?? 0,
    },
    response: {
      status: x.status,
      statusText: x.statusText,
      httpVersion: `HTTP/${x.httpVersion}`,
      cookies: [],
      headers: responseHeaders,
      content: { size: decoded.length, mimeType: responseType, ...content },
      redirectURL: header(x.responseHeaders, 'location') ?? '',
      headersSize: -1,
      bodySize: x.responseBody.length,
    },
    cache: {},
    timings: { send: 0, wait: Math.round(x.durationMs * 1000) / 1000, receive: 0 },
  };
}

/** Most entries a recording keeps; past it the oldest are dropped and counted (a proxy may run for days). */
export const maxHarEntries = 50_000;

/** Collects entries for `--record`. */
export interface HarRecorder {
  /** Adds an exchange under the proxy's number for it (`seq`, from 1). */
  add(exchange: RecordedExchange, seq?: number): void;
  /** The HAR document so far. */
  har(): Har;
  /** Entries dropped because of {@link maxHarEntries}. */
  readonly dropped: number;
}

/**
 * Creates a recorder. Entries are redacted as they are added: the raw bodies are not kept.
 *
 * @example
 * const rec = createHarRecorder(redactor, '0.1.0');
 * rec.add(exchange);
 * writeFileSync('traffic.har', JSON.stringify(rec.har()));
 */
export function createHarRecorder(redactor: Redactor, version: string): HarRecorder {
  const entries: HarEntry[] = [];
  let dropped = 0;
  return {
    add(exchange, seq) {
      if (entries.length >= maxHarEntries) {
        entries.shift();
        dropped++;
      }
      entries.push(harEntry(exchange, redactor, seq));
    },
    har: () => ({
      log: { version: '1.2', creator: { name: 'payment-contract-kit proxy', version }, entries: [...entries] },
    }),
    get dropped() {
      return dropped;
    },
  };
}
