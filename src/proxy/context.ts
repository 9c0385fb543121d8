/**
 * What every handler of one proxy shares, and the step every exchange ends with once its answer went out: number it,
 * then (off the answer's path, see {@link createCheckQueue}) check it, keep its drifts and fees, record it for the HAR
 * file and log it.
 *
 * @module
 */
import type { Drift, Exchange, ExchangeCheck } from '../contract/check/exchange.ts';
import { readJson, rememberJson } from '../contract/check/exchange-parts.ts';
import { decodedBody } from './content-encoding.ts';
import type { DriftLog } from './drift-report.ts';
import { feeObservations } from './fee-observations.ts';
import type { HarRecorder, RecordedExchange } from './har.ts';
import { headerRecord } from './hop-by-hop.ts';
import type { ResolvedProxyOptions } from './options.ts';
import type { ProxyLog } from './proxy-log.ts';
import { withReasonCase } from './reason-cases.ts';
import type { Redactor } from './redact.ts';
import type { RepeatMemo } from './repeat-check.ts';
import type { UpstreamAgents } from './upstream-call.ts';

/** The parts of one running proxy. */
export interface ProxyContext {
  readonly options: ResolvedProxyOptions;
  readonly agents: UpstreamAgents;
  readonly redactor: Redactor;
  readonly drifts: DriftLog;
  readonly recorder: HarRecorder | undefined;
  readonly log: ProxyLog;
  /** The proxy's own base URL (webhook entries of the HAR file are recorded under it). */
  selfUrl(): string;
  /** The checker with the proxy's guide and ledger; never throws (a checker failure is logged as a bug). */
  check(exchange: Exchange): ExchangeCheck;
  /** Exchanges answered but not yet checked; every reader of the report or the recording settles it first. */
  readonly queue: CheckQueue;
  /** The last exchange of each path without a drift, whose verdict a byte-for-byte repeat reuses. */
  readonly repeats: RepeatMemo;
}

/** Answered exchanges waiting for their check, in answer order. */
export interface CheckQueue {
  /** Adds one answered exchange; its check runs once the answers of this turn of the event loop went out. */
  push(seq: number, exchange: SeenExchange): void;
  /** Checks everything still waiting, now (before a report, the HAR file or the summary is read). */
  settle(): void;
}

/** Most answered exchanges waiting for their check before a push checks them at once (see {@link createCheckQueue}). */
export const defaultMaxWaitingChecks = 256;

/**
 * The queue that keeps the checks off the consumer's latency: `finishExchange` runs right after `res.end`, but a
 * check done there delays the next request already waiting on the socket (keep-alive clients send it as soon as the
 * answer arrives). Waiting exchanges are checked together in one `setImmediate`, after the poll phase that answered
 * them; a report read in between settles the queue first, so nothing is ever missing from what a reader sees.
 * The queue is bounded: once `maxWaiting` exchanges wait (a burst answered in one turn of the event loop), the next
 * push checks them all at once, so what waits never grows past the bound whatever the load (each waiting exchange
 * holds its bodies).
 *
 * @example
 * const queue = createCheckQueue((seq, x) => checkSeen(ctx, seq, x), (error) => log.line(String(error), 'error'));
 */
export function createCheckQueue(
  run: (seq: number, exchange: SeenExchange) => void,
  onError: (error: unknown, exchange: SeenExchange) => void,
  maxWaiting = defaultMaxWaitingChecks,
): CheckQueue {
  let waiting: { seq: number; exchange: SeenExchange }[] = [];
  let scheduled = false;
  const settle = () => {
    scheduled = false;
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      for (const { seq, exchange } of batch) {
        // Off the request's promise chain, a throw would end the process: it is a bug of the kit, logged, and the
        // rest of the batch is still checked.
        try {
          run(seq, exchange);
        } catch (error) {
          onError(error, exchange);
        }
      }
    }
  };
  return {
    push(seq, exchange) {
      waiting.push({ seq, exchange });
      if (waiting.length >= maxWaiting) return settle();
      if (!scheduled) {
        scheduled = true;
        setImmediate(settle);
      }
    },
    settle,
  };
}

/** An exchange whose answer went out, with what the proxy itself found (an `upstream` drift). */
export interface SeenExchange extends RecordedExchange {
  /** Path and query as the consumer sent them (the service's own path, without the upstream's prefix). */
  readonly path: string;
  readonly extraDrifts: readonly Drift[];
  /** The answer's body as parsed before it was handed on (service paths only), so it is parsed once. */
  readonly responseJson?: unknown;
  /** False when the service gave no answer (the recorded answer is the proxy's 502/504). */
  readonly answered: boolean;
}

function text(body: Buffer | undefined): string | undefined {
  return body === undefined || body.length === 0 ? undefined : body.toString('utf8');
}

/** The request's `operationName`, when the checker named none (an upstream fault, a checker failure). */
function operationNameOf(body: string | undefined): string | null {
  if (body === undefined || !body.includes('operationName')) return null;
  try {
    const name = (JSON.parse(body) as { operationName?: unknown }).operationName;
    return typeof name === 'string' ? name : null;
  } catch {
    return null;
  }
}

/**
 * Numbers one exchange whose answer already went out (arrival order of the answers) and queues its check.
 *
 * @example
 * finishExchange(ctx, seen); // after res.end(...)
 */
export function finishExchange(ctx: ProxyContext, x: SeenExchange): void {
  ctx.queue.push(ctx.drifts.nextSeq(), x);
}

/** Check results whose exchange's fees were observed (the check cache returns the same object for the same exchange). */
const feesRead = new WeakSet<ExchangeCheck>();

/** Check results that stand for a checker failure (see `ProxyContext.check`): never handed out again. */
export const failedChecks = new WeakSet<ExchangeCheck>();

/**
 * Checks one exchange afresh: decodes its bodies, asks the checker, reads the fees of a fee answer, and keeps the
 * verdict for a repeat of it when nothing was found (a drift needs the exchange itself to be worded).
 */
function judge(
  ctx: ProxyContext,
  x: SeenExchange,
): { check: ExchangeCheck; found: Drift[]; operationName: string | null } {
  const requestBody = text(x.requestBody && decodedBody(x.requestHeaders, x.requestBody, ctx.options.maxBodyBytes));
  const responseBody = text(decodedBody(x.responseHeaders, x.responseBody, ctx.options.maxBodyBytes));
  const exchange: Exchange = {
    kind: x.kind,
    request: { method: x.method, url: x.path, headers: headerRecord(x.requestHeaders), body: requestBody },
    response: x.answered
      ? { status: x.status, headers: headerRecord(x.responseHeaders), body: responseBody }
      : undefined,
  };
  if (x.responseJson !== undefined && exchange.response) rememberJson(exchange.response, x.responseJson);
  const rest = x.path.startsWith('/api/');
  if (x.answered && rest) ctx.redactor.body(responseBody);
  const check = ctx.check(exchange);
  const found = [...check.drifts.map((d) => withReasonCase(d, exchange)), ...x.extraDrifts];
  const operationName = check.operationName ?? operationNameOf(requestBody);
  // A check result the cache handed out before stands for the same exchange, whose fees were observed then: a fee
  // list repeated thousands of times is read once.
  if (x.answered && exchange.response && responseBody?.includes('Calc') && !feesRead.has(check)) {
    feesRead.add(check);
    // Not JSON: the checker reported it.
    const answer = readJson(exchange.response);
    if (answer.state === 'json') for (const fee of feeObservations(answer.value)) ctx.drifts.observeFee(fee);
  }
  // The REST paths are left out: the token endpoints' check reads the answer's Date, and their bodies feed the
  // redactor.
  if (found.length === 0 && !rest && !failedChecks.has(check)) ctx.repeats.remember(x, { check, operationName });
  return { check, found, operationName };
}

/**
 * Checks, records and logs one answered exchange (the queue's work).
 *
 * @example
 * const queue = createCheckQueue((seq, x) => checkSeen(ctx, seq, x));
 */
export function checkSeen(ctx: ProxyContext, seq: number, x: SeenExchange): void {
  // Credentials in headers are remembered before anything about this exchange is written.
  ctx.redactor.rememberHeaders(x.requestHeaders);
  ctx.redactor.rememberHeaders(x.responseHeaders);
  // A repeat of the path's last exchange, which had no drift: its verdict stands, and its fees were read then.
  const repeat = x.extraDrifts.length === 0 ? ctx.repeats.known(x) : undefined;
  const { found, operationName } = repeat ? { found: [], operationName: repeat.operationName } : judge(ctx, x);
  const pathOnly = x.path.split('?')[0]!;
  // The path is redacted only for a drift to keep: most exchanges have none, and redacting scans the text.
  const entries =
    found.length === 0
      ? []
      : ctx.drifts.add(
          { seq, method: x.method, path: ctx.redactor.text(pathOnly), operationName, status: x.status },
          found,
        );
  ctx.recorder?.add(x, seq);
  ctx.log.exchange({
    seq,
    kind: x.kind,
    method: x.method,
    path: pathOnly,
    operationName,
    status: x.status,
    durationMs: x.durationMs,
    drifts: found.length,
  });
  for (const entry of entries) ctx.log.drift(entry);
}
