/**
 * The validating proxy's listener: `startProxy(options)` listens (port 0 picks a free port) in front of the service
 * and returns `{ url, report, close }`. Every request is forwarded byte for byte and checked with the one checker
 * after its answer went out; `GET /__pck/drift` answers the live report; `close()` writes `report` and `record`.
 *
 * @module
 */
import { writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Exchange, ExchangeCheck } from '../contract/check/exchange.ts';
import { checkExchange } from '../contract/check/index.ts';
import { restErrorBody } from '../contract/error-shapes.ts';
import { controlPrefix } from '../contract/service-names.ts';
import { errorLine, kitMessage } from '../internal/messages.ts';
import { cachedCheck } from './check-cache.ts';
import { checkSeen, createCheckQueue, failedChecks, type ProxyContext } from './context.ts';
import { createDriftLog, type DriftReport } from './drift-report.ts';
import { forwardRequest } from './forward.ts';
import { createHarRecorder, type Har } from './har.ts';
import { type ProxyOptions, resolveProxyOptions } from './options.ts';
import { createProxyLog } from './proxy-log.ts';
import { createRedactor } from './redact.ts';
import { createRepeatMemo } from './repeat-check.ts';
import { createUpstreamAgents } from './upstream-call.ts';
import { forwardWebhook } from './webhook-forward.ts';

/** Path of the live drift report on the proxy. */
export const driftReportPath = `${controlPrefix}drift`;

/** Options of {@link startProxy}: the proxy's own, and the files it writes when it stops. */
export interface StartProxyOptions extends ProxyOptions {
  /** Where `close()` writes the drift report (JSON). */
  readonly reportFile?: string;
  /** Where `close()` writes the HAR 1.2 recording of every exchange; nothing is recorded without it. */
  readonly recordFile?: string;
  /** Version written as the HAR file's `creator.version` (the CLI passes the kit's). Default `unknown`. */
  readonly creatorVersion?: string;
}

/** A running proxy. */
export interface ProxyServer {
  /** Base URL without a trailing slash; point the consumer's service URL here. */
  readonly url: string;
  readonly port: number;
  /** The drift report so far (what `GET /__pck/drift` answers). */
  report(): DriftReport;
  /** The recording so far, when `recordFile` was given. */
  har(): Har | undefined;
  /** True when a `contract` drift was seen (what `--fail-on-drift` exits 1 on). */
  hasContractDrift(): boolean;
  /**
   * Stops listening, closes every connection, writes `reportFile` and `recordFile`, and logs the summary. Resolves
   * with the paths written.
   */
  close(): Promise<readonly string[]>;
}

function answerJson(res: ServerResponse, status: number, value: unknown, extra: Record<string, string> = {}): void {
  const body = JSON.stringify(value, null, 2);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...extra });
  res.end(body);
}

function route(ctx: ProxyContext, req: IncomingMessage, res: ServerResponse): Promise<void> | void {
  const path = (req.url ?? '/').split('?')[0];
  if (path === driftReportPath) {
    if (req.method === 'GET' || req.method === 'HEAD') {
      ctx.queue.settle();
      return answerJson(res, 200, ctx.drifts.report());
    }
    return answerJson(
      res,
      405,
      restErrorBody(kitMessage(`proxy: ${driftReportPath} answers GET only; read it with GET.`)),
      { allow: 'GET, HEAD' },
    );
  }
  if (path === ctx.options.webhookPath && req.method === 'POST') return forwardWebhook(ctx, req, res);
  return forwardRequest(ctx, req, res);
}

function guardedCheck(ctx: () => ProxyContext): (exchange: Exchange) => ExchangeCheck {
  let failures = 0;
  const check = cachedCheck((exchange) => {
    const { options } = ctx();
    return checkExchange(exchange, { guide: options.guide, assumptions: options.assumptions });
  });
  return (exchange) => {
    try {
      return check(exchange);
    } catch (error) {
      // A checker failure is a bug of the kit, never the traffic's: forward on, say so (once per 100).
      if (failures++ % 100 === 0)
        ctx().log.line(kitMessage(`proxy: the checker failed, a bug in the kit: ${errorLine(error)}`), 'error');
      const failed: ExchangeCheck = { drifts: [] };
      failedChecks.add(failed);
      return failed;
    }
  };
}

/**
 * Starts the proxy in front of `options.upstream`.
 *
 * @example
 * const proxy = await startProxy({ upstream: 'https://sandbox.example.com', port: 0 });
 * // ... run the consumer's tests against proxy.url ...
 * const { drifts, suggestedConfig } = proxy.report();
 * await proxy.close();
 */
export async function startProxy(options: StartProxyOptions): Promise<ProxyServer> {
  const resolved = resolveProxyOptions(options);
  const redactor = createRedactor();
  const log = createProxyLog(resolved.log, resolved.logFormat, redactor);
  let selfUrl = '';
  const ctx: ProxyContext = {
    options: resolved,
    agents: createUpstreamAgents(),
    redactor,
    drifts: createDriftLog(resolved.assumptions, redactor),
    recorder:
      options.recordFile === undefined ? undefined : createHarRecorder(redactor, options.creatorVersion ?? 'unknown'),
    log,
    selfUrl: () => selfUrl,
    check: guardedCheck(() => ctx),
    repeats: createRepeatMemo(),
    queue: createCheckQueue(
      (seq, x) => checkSeen(ctx, seq, x),
      (error, x) =>
        log.line(
          kitMessage(
            `proxy: a bug in the proxy while checking ${x.method} ${x.path.split('?')[0]}: ${errorLine(error)}`,
          ),
          'error',
        ),
    ),
  };
  const server: Server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    Promise.resolve(route(ctx, req, res)).catch((error: unknown) => {
      log.line(
        kitMessage(`proxy: a bug in the proxy while handling ${req.method} request: ${errorLine(error)}`),
        'error',
      );
      if (!res.headersSent) answerJson(res, 500, restErrorBody(kitMessage('proxy: internal error.')));
      else res.destroy();
    });
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') return socket.destroy();
    const body = JSON.stringify(restErrorBody(kitMessage('Malformed HTTP request.')));
    socket.end(
      `HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(resolved.port, resolved.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error) => log.line(kitMessage(`proxy: listener error (it keeps serving): ${String(error)}`)));
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  selfUrl = `http://${urlHost}:${address.port}`;
  let closing: Promise<readonly string[]> | undefined;
  const close = async (): Promise<readonly string[]> => {
    const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    ctx.agents.destroy();
    await stopped;
    ctx.queue.settle();
    const written: string[] = [];
    const report = ctx.drifts.report();
    if (options.reportFile !== undefined) {
      await writeFile(options.reportFile, `${JSON.stringify(report, null, 2)}\n`);
      written.push(options.reportFile);
    }
    if (options.recordFile !== undefined && ctx.recorder) {
      // One more pass over the whole text: a secret first seen after an entry was recorded is still taken out.
      await writeFile(options.recordFile, `${redactor.known(JSON.stringify(ctx.recorder.har(), null, 2))}\n`);
      written.push(options.recordFile);
    }
    log.summary(report, written);
    return written;
  };
  return {
    url: selfUrl,
    port: address.port,
    report: () => {
      ctx.queue.settle();
      return ctx.drifts.report();
    },
    har: () => {
      ctx.queue.settle();
      return ctx.recorder?.har();
    },
    hasContractDrift: () => {
      ctx.queue.settle();
      return ctx.drifts.hasContractDrift();
    },
    close: () => {
      closing ??= close();
      return closing;
    },
  };
}
