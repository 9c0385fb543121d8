/**
 * Forwards one consumer request to the service and its answer back, byte for byte: the status line, every
 * end-to-end header in its order and spelling, the body untouched (no decompression, no re-serialising). Only
 * `Host` is the service's, as any reverse proxy sends it. When the service fails (refused, reset, timed out, too
 * large, or not JSON on a service path), the consumer gets the proxy's spec-shaped 502/504 instead.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { restErrorBody } from '../contract/error-shapes.ts';
import { servicePaths } from '../contract/service-names.ts';
import { kitMessage } from '../internal/messages.ts';
import { decodedBody } from './content-encoding.ts';
import { finishExchange, type ProxyContext, type SeenExchange } from './context.ts';
import { endToEndHeaders } from './hop-by-hop.ts';
import { readRequestBody, refuseLargeBody } from './request-body.ts';
import { callUpstream, type UpstreamAnswer } from './upstream-call.ts';
import { faultAnswer, type ServiceFault } from './upstream-fault.ts';

const servicePathSet: ReadonlySet<string> = new Set(Object.values(servicePaths));

/** The service URL for a consumer path: the upstream's own path prefix, then the path and query as sent. */
export function upstreamUrl(upstream: URL, pathAndQuery: string): URL {
  const prefix = upstream.pathname.replace(/\/+$/, '');
  return new URL(`${upstream.origin}${prefix}${pathAndQuery.startsWith('/') ? '' : '/'}${pathAndQuery}`);
}

/**
 * The service URL for a request target, or undefined for a target that is not a path (absolute form, `*`) or that
 * would leave the service's origin: only origin-form targets are forwarded, never to another host.
 */
function targetOf(upstream: URL, pathAndQuery: string): URL | undefined {
  if (!pathAndQuery.startsWith('/')) return undefined;
  try {
    const url = upstreamUrl(upstream, pathAndQuery);
    return url.origin === upstream.origin ? url : undefined;
  } catch {
    return undefined;
  }
}

/** Targets kept per upstream; short ones only, so the cache stays small whatever the traffic. */
const maxCachedTargets = 256;
const maxCachedTargetLength = 512;
const targetCaches = new WeakMap<URL, Map<string, URL | undefined>>();

/**
 * {@link targetOf}, kept per request target: a consumer sends the same few paths (`/graphql` above all), and a URL
 * parse per request was a visible part of the proxy's own time. A URL is only read once made, so one serves many.
 */
function cachedTargetOf(upstream: URL, pathAndQuery: string): URL | undefined {
  if (pathAndQuery.length > maxCachedTargetLength) return targetOf(upstream, pathAndQuery);
  let cache = targetCaches.get(upstream);
  if (!cache) {
    cache = new Map();
    targetCaches.set(upstream, cache);
  }
  if (cache.has(pathAndQuery)) return cache.get(pathAndQuery);
  const url = targetOf(upstream, pathAndQuery);
  if (cache.size >= maxCachedTargets) cache.clear();
  cache.set(pathAndQuery, url);
  return url;
}

function refuseTarget(res: ServerResponse): void {
  const body = JSON.stringify(
    restErrorBody(
      kitMessage(
        'proxy: the request target must be a path such as /graphql; absolute URLs and "*" are not forwarded (point your client at the proxy as its base URL, not as an HTTP proxy).',
      ),
    ),
  );
  res.writeHead(400, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * Request headers the next hop does not get from the consumer: `Host` is the target's; Content-Length is written by
 * the client (undici writes the length of the buffered body, which node's server already held to the consumer's own
 * Content-Length); and Expect is left out, since the whole body is already here, so there is nothing left to wait for
 * (undici refuses the header rather than implement 100-continue).
 */
const replacedOnNextHop: ReadonlySet<string> = new Set(['host', 'content-length', 'expect']);

/**
 * The request headers for the next hop, as the upstream client sends them: end-to-end ones as sent, `Host` the
 * target's, and neither Content-Length nor Expect (see {@link replacedOnNextHop}).
 */
export function nextHopHeaders(raw: readonly string[], target: URL): string[] {
  const kept = endToEndHeaders(raw, replacedOnNextHop);
  kept.push('Host', target.host);
  return kept;
}

/** The answer last found to be JSON on each service path, per upstream (see {@link readAnswer}). */
const lastJsonAnswers = new WeakMap<URL, Map<string, { readonly body: Buffer; readonly heads: string }>>();

/** The answer's Content-Type and Content-Encoding, which decide how its body is read. */
function readingHeaders(raw: readonly string[]): { type: string; heads: string } {
  let type = '';
  let encoding = '';
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (name === 'content-type' && !type) type = raw[i + 1]!;
    else if (name === 'content-encoding' && !encoding) encoding = raw[i + 1]!;
  }
  return { type, heads: `${type}\u0000${encoding}` };
}

/**
 * Reads an answer on a service path before it is handed on: why it cannot be handed on as the service's (a body that
 * is not JSON, such as a gateway's HTML error page), or its parsed body, which the checks then reuse instead of
 * parsing it again. An empty body is handed on (the checker judges it: revoke-token's body is not shown), and so is
 * the answer to any method but POST: the interface defines only POST on its paths, so what answers a GET there (the
 * mock's GraphiQL page, a gateway's 405) is not a broken answer of the service, and the checker reports the request. An answer
 * byte-identical to the last JSON one on its path, with the same type and encoding (a fee list repeats), is known to
 * be JSON without a parse; the check cache then knows the exchange, so nothing parses it at all.
 */
function readAnswer(
  upstream: URL,
  method: string,
  path: string,
  answer: UpstreamAnswer,
  maxBytes: number,
): { notJson?: string; json?: unknown } {
  if (method !== 'POST' || !servicePathSet.has(path) || answer.body.length === 0) return {};
  const { type, heads } = readingHeaders(answer.rawHeaders);
  let last = lastJsonAnswers.get(upstream);
  const seen = last?.get(path);
  if (seen && seen.heads === heads && seen.body.equals(answer.body)) return {};
  const body = decodedBody(answer.rawHeaders, answer.body, maxBytes);
  if (body === undefined) return { notJson: `a ${answer.status} answer whose Content-Encoding could not be undone` };
  if (/^\s*text\/html/i.test(type)) return { notJson: `a ${answer.status} answer of type ${type}` };
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return { notJson: `a ${answer.status} answer whose body is not JSON (${type || 'no content type'})` };
  }
  if (!last) {
    last = new Map();
    lastJsonAnswers.set(upstream, last);
  }
  last.set(path, { body: answer.body, heads });
  return { json };
}

/** Bodies up to this size go out in one write with the head; larger ones are written as they are (no copy). */
const oneWriteMaxBytes = 64 * 1024;

/**
 * Writes an answer with its status message and raw header list, adding nothing (no Date of the proxy's own). A body
 * of up to 64 KiB is handed to node as a latin1 string, which node joins to the head it writes, so the answer leaves in
 * one write instead of a two-buffer writev (latin1 maps every byte to one character and back: the bytes are kept).
 */
export function writeRaw(res: ServerResponse, status: number, message: string, raw: readonly string[], body: Buffer) {
  res.sendDate = false;
  if (message) res.writeHead(status, message, raw as string[]);
  else res.writeHead(status, raw as string[]);
  if (body.length > 0 && body.length <= oneWriteMaxBytes) res.end(body.toString('latin1'), 'latin1');
  else res.end(body);
}

/**
 * Handles one consumer request: forward, answer, then check and record.
 *
 * @example
 * server.on('request', (req, res) => forwardRequest(ctx, req, res));
 */
export async function forwardRequest(ctx: ProxyContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const startedAt = Date.now();
  const started = performance.now();
  const pathAndQuery = req.url ?? '/';
  const path = pathAndQuery.split('?')[0]!;
  const { options } = ctx;
  const body = await readRequestBody(req, options.maxBodyBytes);
  if (body === 'aborted') return;
  if (body === 'too-large') {
    ctx.log.line(
      `#- ${req.method} ${path} 413: request body over ${options.maxBodyBytes} bytes, not forwarded`,
      'warn',
    );
    return refuseLargeBody(res, path, options.maxBodyBytes, options.assumptions);
  }
  const url = cachedTargetOf(options.upstream, pathAndQuery);
  if (!url) return refuseTarget(res);
  const requestHeaders = nextHopHeaders(req.rawHeaders, url);
  const outcome = await callUpstream(ctx.agents, {
    url,
    method: req.method ?? 'GET',
    rawHeaders: requestHeaders,
    body: body.length > 0 || !['GET', 'HEAD'].includes(req.method ?? '') ? body : undefined,
    timeoutMs: options.upstreamTimeoutMs,
    maxBodyBytes: options.maxBodyBytes,
  });
  let fault: { kind: ServiceFault; detail: string } | undefined;
  let json: unknown;
  if (!outcome.ok) fault = { kind: outcome.fault, detail: outcome.detail };
  else {
    const read = readAnswer(options.upstream, req.method ?? 'GET', path, outcome, options.maxBodyBytes);
    if (read.notJson !== undefined) fault = { kind: 'not-json', detail: read.notJson };
    json = read.json;
  }
  // One literal with every field, in one order: a spread of shared fields followed by more made V8 build fresh
  // hidden classes for every exchange, and every reader of them went megamorphic.
  const seen = (
    status: number,
    statusText: string,
    responseHeaders: string[],
    responseBody: Buffer,
    responseJson: unknown,
    extraDrifts: SeenExchange['extraDrifts'],
    answered: boolean,
  ): SeenExchange => ({
    kind: 'http',
    startedAt,
    durationMs: performance.now() - started,
    url: url.href,
    path: pathAndQuery,
    method: req.method ?? 'GET',
    httpVersion: req.httpVersion,
    requestHeaders: req.rawHeaders,
    requestBody: body,
    status,
    statusText,
    responseHeaders,
    responseBody,
    responseJson,
    extraDrifts,
    answered,
  });
  if (fault) {
    const answer = faultAnswer(path, fault.kind, fault.detail, options.assumptions);
    const rawHeaders = Object.entries(answer.headers).flat();
    writeRaw(res, answer.status, '', rawHeaders, Buffer.from(answer.body));
    // A non-JSON answer did come: the checker sees it (and the HAR keeps the proxy's answer the consumer got).
    finishExchange(
      ctx,
      seen(answer.status, '', rawHeaders, Buffer.from(answer.body), undefined, [answer.drift], false),
    );
    return;
  }
  const answer = outcome as UpstreamAnswer;
  const responseHeaders = endToEndHeaders(answer.rawHeaders);
  writeRaw(res, answer.status, answer.statusMessage, responseHeaders, answer.body);
  finishExchange(ctx, seen(answer.status, answer.statusMessage, responseHeaders, answer.body, json, [], true));
}
