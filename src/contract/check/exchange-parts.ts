/**
 * Reading the parts of an exchange the checks need: the path of the request URL, a JSON body, whether a content
 * type is JSON, and the answer's time (its `Date` header) for the checks that compare a timestamp with it.
 *
 * @module
 */
import type { ExchangeMessage } from './exchange.ts';

/** A body read as JSON: the value, or why it could not be read, or nothing when there was no body. */
export type JsonBody =
  | { readonly state: 'none' }
  | { readonly state: 'json'; readonly value: unknown }
  | { readonly state: 'invalid'; readonly reason: string };

/** Bodies already read, per message: the checks of one exchange read the answer more than once. */
const readBodies = new WeakMap<ExchangeMessage, { readonly text: string | undefined; readonly body: JsonBody }>();

function parseBody(text: string | undefined): JsonBody {
  if (text === undefined || text.trim() === '') return { state: 'none' };
  try {
    return { state: 'json', value: JSON.parse(text) as unknown };
  } catch (error) {
    return { state: 'invalid', reason: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Reads a message's body as JSON, once per message object (while its body stays the same text). The value is
 * shared by every reader: the checks only read it.
 *
 * @example
 * readJson({ headers: {}, body: '{"a":1}' }); // { state: 'json', value: { a: 1 } }
 */
export function readJson(message: ExchangeMessage): JsonBody {
  const known = readBodies.get(message);
  if (known && known.text === message.body) return known.body;
  const body = parseBody(message.body);
  readBodies.set(message, { text: message.body, body });
  return body;
}

/**
 * Hands the checks a body its caller already parsed (the proxy reads every answer once before passing it on), so
 * the exchange's checks do not parse it again. `value` must be `JSON.parse(message.body)`.
 *
 * @example
 * rememberJson(exchange.response, parsedAnswer);
 */
export function rememberJson(message: ExchangeMessage, value: unknown): void {
  readBodies.set(message, { text: message.body, body: { state: 'json', value } });
}

/**
 * The path of a request URL without its query (absolute URLs lose their origin), or undefined when unreadable.
 *
 * @example
 * pathOf('https://sandbox.example/graphql?x=1'); // '/graphql'
 */
export function pathOf(url: string): string | undefined {
  try {
    return new URL(url, 'http://service.invalid').pathname;
  } catch {
    return undefined;
  }
}

/** The media type of a message's content type, lower case, without parameters; undefined without the header. */
export function mediaType(message: ExchangeMessage): string | undefined {
  const value = message.headers['content-type'];
  return value === undefined ? undefined : (value.split(';')[0] ?? '').trim().toLowerCase();
}

/** Whether a media type is JSON (`application/json`, `application/graphql-response+json`, any `+json`). */
export function isJsonMediaType(type: string | undefined): boolean {
  return type !== undefined && (type === 'application/json' || type.endsWith('+json'));
}

/**
 * When the answer was made, in milliseconds since the epoch, from its `Date` header; undefined without one.
 *
 * @example
 * answerTime({ headers: { date: 'Wed, 25 Nov 2026 15:00:00 GMT' } }); // 1795618800000
 */
export function answerTime(message: ExchangeMessage | undefined): number | undefined {
  const value = message?.headers.date;
  if (value === undefined) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : time;
}
