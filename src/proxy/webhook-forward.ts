/**
 * The service's webhooks, posted to `<proxy><webhook-path>`: each is forwarded unchanged (end-to-end headers and
 * body; `Host` is the receiver's) to every `--forward-webhooks` URL at once, and checked as a `webhook` exchange.
 *
 * What the service gets back:
 * - one or more receivers: the first URL's answer, byte for byte (it decides whether the service retries); the other
 *   URLs get copies, and a failure there is logged, never answered to the service;
 * - a first receiver that cannot be reached or times out: 502 / 504 in the 7.1 shape, so the service retries as it
 *   would with the receiver down;
 * - no receiver: 204 No Content, so the service counts the webhook as delivered.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { restErrorBody } from '../contract/error-shapes.ts';
import { kitMessage } from '../internal/messages.ts';
import { finishExchange, type ProxyContext } from './context.ts';
import { nextHopHeaders, writeRaw } from './forward.ts';
import { endToEndHeaders } from './hop-by-hop.ts';
import { readRequestBody, refuseLargeBody } from './request-body.ts';
import { callUpstream, type UpstreamOutcome } from './upstream-call.ts';

interface ServiceAnswer {
  readonly status: number;
  readonly statusText: string;
  readonly rawHeaders: readonly string[];
  readonly body: Buffer;
}

function receiverFault(outcome: Exclude<UpstreamOutcome, { ok: true }>, url: URL): ServiceAnswer {
  const body = Buffer.from(
    JSON.stringify(
      restErrorBody(
        kitMessage(
          `proxy: the webhook receiver ${url.origin}${url.pathname} failed (${outcome.detail}); check --forward-webhooks and that the receiver is up.`,
        ),
      ),
    ),
  );
  return {
    status: outcome.fault === 'timeout' ? 504 : 502,
    statusText: '',
    rawHeaders: ['content-type', 'application/json', 'content-length', String(body.length)],
    body,
  };
}

/**
 * Handles one webhook from the service.
 *
 * @example
 * if (req.method === 'POST' && path === ctx.options.webhookPath) return forwardWebhook(ctx, req, res);
 */
export async function forwardWebhook(ctx: ProxyContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const startedAt = Date.now();
  const started = performance.now();
  const { options } = ctx;
  const pathAndQuery = req.url ?? options.webhookPath;
  const body = await readRequestBody(req, options.maxBodyBytes);
  if (body === 'aborted') return;
  if (body === 'too-large') {
    ctx.log.line(`#- webhook ${pathAndQuery} 413: body over ${options.maxBodyBytes} bytes, not forwarded`, 'warn');
    return refuseLargeBody(res, pathAndQuery, options.maxBodyBytes, options.assumptions);
  }
  const outcomes = await Promise.all(
    options.forwardWebhooks.map((url) =>
      callUpstream(ctx.agents, {
        url,
        method: 'POST',
        rawHeaders: nextHopHeaders(req.rawHeaders, url),
        body,
        timeoutMs: options.upstreamTimeoutMs,
        maxBodyBytes: options.maxBodyBytes,
      }),
    ),
  );
  outcomes.forEach((outcome, i) => {
    if (!outcome.ok || outcome.status >= 300)
      ctx.log.line(
        kitMessage(
          `proxy: webhook receiver ${options.forwardWebhooks[i]!.href} answered ${outcome.ok ? outcome.status : outcome.detail}.`,
        ),
        'warn',
      );
  });
  const first = outcomes[0];
  let answer: ServiceAnswer;
  if (first === undefined) answer = { status: 204, statusText: 'No Content', rawHeaders: [], body: Buffer.alloc(0) };
  else if (!first.ok) answer = receiverFault(first, options.forwardWebhooks[0]!);
  else
    answer = {
      status: first.status,
      statusText: first.statusMessage,
      rawHeaders: endToEndHeaders(first.rawHeaders),
      body: first.body,
    };
  writeRaw(res, answer.status, answer.statusText, answer.rawHeaders, answer.body);
  finishExchange(ctx, {
    kind: 'webhook',
    startedAt,
    durationMs: performance.now() - started,
    url: `${ctx.selfUrl()}${pathAndQuery}`,
    path: pathAndQuery,
    method: req.method ?? 'POST',
    httpVersion: req.httpVersion,
    requestHeaders: req.rawHeaders,
    requestBody: body,
    status: answer.status,
    statusText: answer.statusText,
    responseHeaders: answer.rawHeaders,
    responseBody: answer.body,
    extraDrifts: [],
    answered: true,
  });
}
