/**
 * The request log: one line per request (method, path, GraphQL operation name, status, duration, outcome) and one
 * per webhook attempt (payment, URL, attempt, result, next retry), buffered and written on `setImmediate`, so the
 * hot path never blocks on a synchronous write. Lines hold no bodies and no query strings; any long digit run left
 * in a path or URL is masked like a card number (first 6, last 4).
 *
 * Two formats: `text` (one readable line per request) and `json` (one JSON object per line, for log collectors).
 *
 * During an outage the lines that repeat are folded: a store that is down answers every request 503, and a receiver
 * that is down fails every webhook attempt, which would bury the log in copies of one line. A 503 of one route and
 * operation, and a webhook attempt to one URL that ended the same way, are written 10 times (so one delivery's
 * retries still read in full), then counted and summed up once per 10 s ("N more like it") until a success of the
 * same family ends the outage, which writes the pending summary at once, before its own line, so the log reads in
 * order. Windows run on real time (a log is read in real time), not on the mock's virtual clock, whose jumps would
 * fold nothing or everything. The mock's own lines (free-form: warnings of refused or lost work, bugs) are never
 * folded, and stay on when request lines are off (`--quiet`).
 *
 * @module
 */

import { maskDigits } from '../../../contract/card-masking.ts';
import { kitMessage } from '../../../internal/messages.ts';
import type { MockEvent, RequestVerdict } from '../domain/events.ts';
import type { MockLogFormat } from '../option-types.ts';
import type { WebhookAttemptReport } from '../webhooks/delivery-attempts.ts';

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
  /** Whether request lines are written: false without a sink or with `requests: false`, so callers build none. */
  readonly requestLines: boolean;
  /** Queues one request line. */
  request(entry: RequestLogEntry): void;
  /** Queues the line of one webhook delivery attempt. */
  webhookAttempt(report: WebhookAttemptReport): void;
  /** Queues a free-form line (start-up, unexpected errors). */
  line(text: string): void;
  /** Writes everything queued now. */
  flush(): void;
  /** Writes the summaries of folded repeats, then everything queued (the mock is closing). */
  close(): void;
}

/** What {@link createRequestLog} writes besides the mock's own lines. */
export interface RequestLogOptions {
  /** The line of every request and webhook attempt; `false` (`--quiet`) keeps only the mock's own lines. */
  readonly requests?: boolean;
  /** How long repeats of one line are counted before their summary is written (real ms). Default 10 s. */
  readonly repeatWindowMs?: number;
  /** Lines of one kind written in full before repeats are counted. Default 10. */
  readonly repeatBurst?: number;
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

function attemptTextLine(r: WebhookAttemptReport, url: string): string {
  const next = r.nextAttemptAt === undefined ? '' : `, next attempt at ${new Date(r.nextAttemptAt).toISOString()}`;
  return `WEBHOOK payment ${r.paymentUuid} -> ${url} attempt ${r.attempt}: ${attemptResult(r)} ${r.ms}ms${next}`;
}

function attemptJsonLine(r: WebhookAttemptReport, url: string): string {
  return JSON.stringify({
    time: new Date(r.at).toISOString(),
    level: r.state === 'delivered' ? 'info' : r.state === 'retry-scheduled' ? 'warn' : 'error',
    event: 'webhook-attempt',
    delivery_id: r.deliveryId,
    payment_uuid: r.paymentUuid,
    url,
    attempt: r.attempt,
    status: r.status ?? null,
    error: r.error === undefined ? null : maskDigits(r.error),
    ms: r.ms,
    result: r.state,
    reason: r.reason ?? null,
    next_attempt_at: r.nextAttemptAt === undefined ? null : new Date(r.nextAttemptAt).toISOString(),
  });
}

/** How long repeats of one kind are counted before their summary is written (ms). */
const REPEAT_WINDOW_MS = 10_000;
/** Lines of one kind written in full before the rest are counted: one delivery's whole schedule (8 attempts). */
const REPEAT_BURST = 10;
/**
 * Kinds followed at once. A kind's key holds client text (a GraphQL operation name), so a hostile client could
 * name a new one per request: past this many, lines are written unfolded, as without folding, and memory stays
 * bounded.
 */
const MAX_KINDS = 256;

/** One kind of line being folded: its family (what ends it), and how its summary reads. */
interface Fold {
  readonly family: string;
  readonly summary: (count: number) => string;
  /** Lines written in full since the kind began (up to the burst). */
  shown: number;
  /** Lines counted since the last summary. */
  count: number;
}

/** Decides which repeated lines are written, and writes the summaries of the others. */
interface RepeatFolder {
  /**
   * Whether the line of kind `key` is written: true for the first `burst` of its kind (counted again after a quiet
   * window), false for a later repeat, which is counted into `summary(count)`, written once per window.
   */
  admit(family: string, key: string, summary: (count: number) => string): boolean;
  /** Whether any kind of `family` is being folded (a cheap check for the hot path). */
  folding(family: string): boolean;
  /** The outage of `family` is over: writes its pending summaries now and forgets its kinds. */
  end(family: string, matches?: (key: string) => boolean): void;
  /** Writes every pending summary and stops the window timer (the mock is closing). */
  close(): void;
}

/**
 * Creates a folder writing summaries through `emit`. A timer ticks every `windowMs` while a kind is known: a kind
 * with repeats counted gets its summary, a kind with none in the whole window is forgotten (its next lines are
 * written again, up to `burst`).
 * The timer is unref'd, so it never holds a process open.
 *
 * @example
 * const folder = createRepeatFolder((line) => log.line(line));
 * if (folder.admit('request', 'POST /graphql 503', (n) => `${n} more like it in the last 10 s`)) log.write(line);
 */
function createRepeatFolder(
  emit: (line: string) => void,
  windowMs = REPEAT_WINDOW_MS,
  burst = REPEAT_BURST,
): RepeatFolder {
  const folds = new Map<string, Fold>();
  const families = new Map<string, number>();
  let timer: ReturnType<typeof setInterval> | undefined;

  const forget = (key: string, fold: Fold) => {
    folds.delete(key);
    const left = (families.get(fold.family) ?? 1) - 1;
    if (left === 0) families.delete(fold.family);
    else families.set(fold.family, left);
  };
  const summarise = (fold: Fold) => {
    if (fold.count === 0) return;
    const count = fold.count;
    fold.count = 0;
    emit(fold.summary(count));
  };
  const stopIfIdle = () => {
    if (folds.size > 0 || timer === undefined) return;
    clearInterval(timer);
    timer = undefined;
  };
  const tick = () => {
    for (const [key, fold] of folds) {
      if (fold.count === 0) forget(key, fold);
      else summarise(fold);
    }
    stopIfIdle();
  };

  return {
    admit(family, key, summary) {
      const fold = folds.get(key);
      if (fold !== undefined) {
        if (fold.shown < burst) {
          fold.shown += 1;
          return true;
        }
        fold.count += 1;
        return false;
      }
      if (folds.size >= MAX_KINDS) return true;
      folds.set(key, { family, summary, shown: 1, count: 0 });
      families.set(family, (families.get(family) ?? 0) + 1);
      if (timer === undefined) {
        timer = setInterval(tick, windowMs);
        (timer as { unref?: () => void }).unref?.();
      }
      return true;
    },
    folding: (family) => families.has(family),
    end(family, matches) {
      for (const [key, fold] of folds)
        if (fold.family === family && (matches === undefined || matches(key))) {
          summarise(fold);
          forget(key, fold);
        }
      stopIfIdle();
    },
    close() {
      for (const [key, fold] of folds) {
        summarise(fold);
        forget(key, fold);
      }
      stopIfIdle();
    },
  };
}

/** Runs `task` after the current I/O: `setImmediate` where the runtime has it (Node), a zero timeout elsewhere. */
const later: (task: () => void) => unknown =
  typeof globalThis.setImmediate === 'function' ? globalThis.setImmediate : (task) => setTimeout(task, 0);

/** The fold of a request line: one route, operation and 503 verdict (a store that is down, for one). */
const requestKey = (e: RequestLogEntry) => `${e.method} ${e.path} ${e.operationName ?? '-'} ${e.verdict.outcome}`;
/** The start of every request fold a success of `e` ends: the same route and operation. */
const routeOf = (e: RequestLogEntry) => `${e.method} ${e.path} ${e.operationName ?? '-'} `;

/**
 * Creates a log writing to `sink`; with `sink === false` every call is a no-op. `now` stamps free-form lines in the
 * JSON format. With `options.requests === false` only the mock's own lines are written.
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
  options: RequestLogOptions = {},
): RequestLog {
  if (sink === false)
    return { requestLines: false, request() {}, webhookAttempt() {}, line() {}, flush() {}, close() {} };
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
  const line = (text: string) => {
    const masked = maskDigits(text);
    // Free-form lines are the mock's own problems: a bug (every such message says so) or a warning (a webhook
    // that could not be delivered, a listener error the mock survives).
    const level = masked.includes('a bug in the mock') ? 'error' : 'warn';
    push(format === 'json' ? JSON.stringify({ time: new Date(now()).toISOString(), level, message: masked }) : masked);
  };
  const windowSeconds = (options.repeatWindowMs ?? REPEAT_WINDOW_MS) / 1000;
  const folder = createRepeatFolder(line, options.repeatWindowMs, options.repeatBurst);
  const log: RequestLog = {
    requestLines: true,
    request(entry) {
      if (entry.status === 503) {
        const key = requestKey(entry);
        const summary = (n: number) =>
          kitMessage(
            `${n} more answer${n === 1 ? '' : 's'} like "${key} 503" in the last ${windowSeconds} s (repeats are summed up here; GET /__pck/health says whether the store is reachable).`,
          );
        if (!folder.admit('request', key, summary)) return;
      } else if (folder.folding('request')) {
        const route = routeOf(entry);
        folder.end('request', (key) => key.startsWith(route));
      }
      // Known routes log their own fixed path; the app masks the path of unknown ones (maskDigits) beforehand.
      push(format === 'json' ? jsonLine(entry) : textLine(entry));
    },
    webhookAttempt(report) {
      const url = safeUrl(report.url);
      if (report.state === 'delivered') {
        if (folder.folding('webhook')) folder.end('webhook', (key) => key.startsWith(`${url} `));
      } else {
        const result = attemptResult(report);
        const summary = (n: number) =>
          kitMessage(
            `${n} more webhook attempt${n === 1 ? '' : 's'} to ${url} ended "${result}" in the last ${windowSeconds} s (repeats are summed up here; GET /__pck/deliveries lists every attempt).`,
          );
        if (!folder.admit('webhook', `${url} ${result}`, summary)) return;
      }
      push(format === 'json' ? attemptJsonLine(report, url) : attemptTextLine(report, url));
    },
    line(text) {
      // The mock's own line may tell the end of an outage (the store answers again): the count of what it caused
      // comes first.
      if (folder.folding('request')) folder.end('request');
      line(text);
    },
    flush,
    close() {
      folder.close();
      flush();
    },
  };
  if (options.requests !== false) return log;
  return { ...log, requestLines: false, request() {}, webhookAttempt() {} };
}

/**
 * The request log's reader of the event bus: a line for every answered request, the control plane's and unknown
 * paths' included. Subscribe it only when the log writes request lines (`requestLines`), so none is built otherwise.
 */
export function requestLogReader(log: RequestLog): (event: MockEvent) => void {
  return (e) => {
    if (e.kind === 'request.answered') log.request(e);
  };
}
