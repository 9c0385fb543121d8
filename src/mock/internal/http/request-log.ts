/**
 * The request log: one line per request (method, path, GraphQL operation name, status, duration, outcome) and one
 * per webhook attempt (payment, URL, attempt, result, next retry), buffered and written on `setImmediate`, so the
 * hot path never blocks on a synchronous write. Lines hold no bodies and no query strings; any long digit run left
 * in a path or URL is masked like a card number (first 6, last 4).
 *
 * Two formats: `text` (one readable line per request) and `json` (one JSON object per line, for log collectors).
 *
 * @module
 */

import { maskDigits } from '../../../contract/card-masking.ts';
import type { MockLogFormat } from '../../options.ts';
import type { WebhookAttemptReport } from '../webhooks/delivery-attempts.ts';
import type { RequestVerdict } from './outcome.ts';

/** One answered request, as the log sees it. */
export interface RequestLogEntry {
  readonly method: string;
  /** Must already be safe to show (see {@link maskDigits}). */
  readonly path: string;
  readonly operationName: string | undefined;
  readonly status: number;
  readonly durationMs: number;
  /** The caller's client id once its credentials were checked. */
  readonly clientId: string | undefined;
  /** What came of the request: `ok`, or the refusal's reason code, 7.3 paths or status. */
  readonly verdict: RequestVerdict;
  /** When the request was answered, on the mock's clock (ms since the epoch). */
  readonly at: number;
}

/** A buffered, asynchronous line log. */
export interface RequestLog {
  /** The format this log writes. */
  readonly format: MockLogFormat;
  /** Queues one request line. */
  request(entry: RequestLogEntry): void;
  /** Queues the line of one webhook delivery attempt. */
  webhookAttempt(report: WebhookAttemptReport): void;
  /** Queues a free-form line (start-up, unexpected errors). */
  line(text: string): void;
  /** Writes everything queued now. */
  flush(): void;
}

/** Log level of an answer by its status: a client mistake is a warning, a 5xx an error. */
function levelOf(status: number): 'info' | 'warn' | 'error' {
  return status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
}

function textLine(e: RequestLogEntry): string {
  return `${e.method} ${e.path} ${e.operationName ?? '-'} ${e.status} ${e.durationMs.toFixed(1)}ms ${e.verdict.outcome}`;
}

function jsonLine(e: RequestLogEntry): string {
  // Fixed key order, and null rather than a missing key, so every line has the same shape for a collector.
  return JSON.stringify({
    time: new Date(e.at).toISOString(),
    level: levelOf(e.status),
    method: e.method,
    path: e.path,
    operation: e.operationName ?? null,
    status: e.status,
    ms: Math.round(e.durationMs * 10) / 10,
    client_id: e.clientId ?? null,
    reason: e.verdict.reason ?? null,
    outcome: e.verdict.outcome,
    validation: e.verdict.validation ?? null,
  });
}

/**
 * A webhook URL as the log may show it: no user info, query or fragment (where secrets travel), digits masked.
 *
 * @example
 * safeUrl('https://user:pw@hooks.test/in?token=abc'); // 'https://hooks.test/in'
 */
export function safeUrl(raw: string): string {
  try {
    const url = new URL(raw);
    return maskDigits(`${url.protocol}//${url.host}${url.pathname}`);
  } catch {
    return maskDigits(raw.replace(/[?#].*$/s, ''));
  }
}

/** What an attempt came to, in a few words: `204 delivered`, `503 retry-scheduled`, `ECONNREFUSED failed (...)`. */
function attemptResult(r: WebhookAttemptReport): string {
  const answer = r.status !== undefined ? String(r.status) : maskDigits(r.error ?? 'no answer');
  return r.reason === undefined ? `${answer} ${r.state}` : `${answer} ${r.state} (${r.reason})`;
}

function attemptTextLine(r: WebhookAttemptReport): string {
  const next = r.nextAttemptAt === undefined ? '' : `, next attempt at ${new Date(r.nextAttemptAt).toISOString()}`;
  return `WEBHOOK payment ${r.paymentUuid} -> ${safeUrl(r.url)} attempt ${r.attempt}: ${attemptResult(r)} ${r.ms}ms${next}`;
}

function attemptJsonLine(r: WebhookAttemptReport): string {
  return JSON.stringify({
    time: new Date(r.at).toISOString(),
    level: r.state === 'delivered' ? 'info' : r.state === 'retry-scheduled' ? 'warn' : 'error',
    event: 'webhook-attempt',
    delivery_id: r.deliveryId,
    payment_uuid: r.paymentUuid,
    url: safeUrl(r.url),
    attempt: r.attempt,
    status: r.status ?? null,
    error: r.error === undefined ? null : maskDigits(r.error),
    ms: r.ms,
    result: r.state,
    reason: r.reason ?? null,
    next_attempt_at: r.nextAttemptAt === undefined ? null : new Date(r.nextAttemptAt).toISOString(),
  });
}

/** Runs `task` after the current I/O: `setImmediate` where the runtime has it (Node), a zero timeout elsewhere. */
const later: (task: () => void) => unknown =
  typeof globalThis.setImmediate === 'function' ? globalThis.setImmediate : (task) => setTimeout(task, 0);

/**
 * Creates a log writing to `sink`; with `sink === false` every call is a no-op. `now` stamps free-form lines in the
 * JSON format.
 *
 * @example
 * const log = createRequestLog((chunk) => process.stderr.write(chunk), 'json');
 * log.request({ method: 'POST', path: '/graphql', operationName: 'processPaymentRequest', status: 200,
 *   durationMs: 1.7, clientId: 'test-client', verdict: verdictOf(200, undefined), at: Date.now() });
 */
export function createRequestLog(
  sink: ((chunk: string) => void) | false,
  format: MockLogFormat = 'text',
  now: () => number = Date.now,
): RequestLog {
  if (sink === false) return { format, request() {}, webhookAttempt() {}, line() {}, flush() {} };
  let buffer = '';
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (buffer === '') return;
    const chunk = buffer;
    buffer = '';
    sink(chunk);
  };
  const push = (text: string) => {
    buffer += `${text}\n`;
    if (!scheduled) {
      scheduled = true;
      later(flush);
    }
  };
  return {
    format,
    request(entry) {
      // Known routes log their own fixed path; the app masks the path of unknown ones (maskDigits) beforehand.
      push(format === 'json' ? jsonLine(entry) : textLine(entry));
    },
    webhookAttempt(report) {
      push(format === 'json' ? attemptJsonLine(report) : attemptTextLine(report));
    },
    line(text) {
      const masked = maskDigits(text);
      // Free-form lines are the mock's own problems: a bug (every such message says so) or a warning (a webhook
      // that could not be delivered, a listener error the mock survives).
      const level = masked.includes('a bug in the mock') ? 'error' : 'warn';
      push(
        format === 'json' ? JSON.stringify({ time: new Date(now()).toISOString(), level, message: masked }) : masked,
      );
    },
    flush,
  };
}
