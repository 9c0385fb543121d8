/**
 * The request log: one line per request (method, path, GraphQL operation name, status, duration), buffered and
 * written on `setImmediate`, so the hot path never blocks on a synchronous write. Lines hold no bodies and no query
 * strings; any long digit run left in a path is masked like a card number (first 6, last 4).
 *
 * @module
 */
import { maskCardNumber } from '../domain/cards.ts';

/** A buffered, asynchronous line log. */
export interface RequestLog {
  /** Queues one request line; `path` must already be safe to show (see {@link maskDigits}). */
  request(method: string, path: string, operationName: string | undefined, status: number, durationMs: number): void;
  /** Queues a free-form line (start-up, unexpected errors). */
  line(text: string): void;
  /** Writes everything queued now. */
  flush(): void;
}

// 12+ digits, possibly split by spaces or dashes: what a card number in a URL would look like.
const longDigits = /\d(?:[ -]?\d){11,}/g;

/** Masks card-number-like digit runs in `text`. */
export function maskDigits(text: string): string {
  return text.replace(longDigits, (run) => maskCardNumber(run.replace(/[ -]/g, '')));
}

/**
 * Creates a log writing to `sink`; with `sink === false` every call is a no-op.
 *
 * @example
 * const log = createRequestLog((chunk) => process.stderr.write(chunk));
 * log.request('POST', '/graphql', 'processPaymentRequest', 200, 1.7);
 */
export function createRequestLog(sink: ((chunk: string) => void) | false): RequestLog {
  if (sink === false) return { request() {}, line() {}, flush() {} };
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
      setImmediate(flush);
    }
  };
  return {
    request(method, path, operationName, status, durationMs) {
      // Known routes log their own fixed path; the app masks the path of unknown ones (maskDigits) beforehand.
      push(`${method} ${path} ${operationName ?? '-'} ${status} ${durationMs.toFixed(1)}ms`);
    },
    line(text) {
      push(maskDigits(text));
    },
    flush,
  };
}
