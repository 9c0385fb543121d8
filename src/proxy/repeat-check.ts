/**
 * The check of the exchange last seen on each path, handed out again when the next exchange there repeats it byte
 * for byte (a fee list asked again and again). The check cache (check-cache.ts) knows such an exchange too, but only
 * after both bodies are decoded to text, both header lists turned into records and a key of their whole text built
 * and hashed: most of what the proxy spends on a repeated exchange. Comparing the raw parts with the last exchange's
 * (header lists entry by entry, bodies with `Buffer.equals`) skips all of that, and anything that differs, a single
 * byte or a header's spelling, goes the usual way.
 *
 * @module
 */
import type { ExchangeCheck } from '../contract/check/exchange.ts';
import type { RecordedExchange } from './har.ts';

/** The parts of an answered exchange the checker's verdict depends on, as the proxy holds them. */
export interface RawExchange
  extends Pick<
    RecordedExchange,
    'kind' | 'method' | 'requestHeaders' | 'requestBody' | 'status' | 'responseHeaders' | 'responseBody'
  > {
  /** Path and query as the consumer sent them. */
  readonly path: string;
  readonly answered: boolean;
}

/** What the checks said about an exchange, and the operation name it was logged under. */
export interface RepeatVerdict {
  readonly check: ExchangeCheck;
  readonly operationName: string | null;
}

/** The last exchange of each path and its verdict. */
export interface RepeatMemo {
  /** The verdict of the last exchange on `x.path` when `x` repeats it in every part; undefined otherwise. */
  known(x: RawExchange): RepeatVerdict | undefined;
  /** Keeps `x` as the last exchange of its path (a body too large to keep makes the path forget its last). */
  remember(x: RawExchange, verdict: RepeatVerdict): void;
}

/** Paths kept; past this many, the memo starts over (a consumer sends a few paths, a scan sends many once). */
const maxPaths = 64;
/** Exchanges whose two bodies hold more bytes than this are not kept (like the check cache's key bound). */
const maxKeptBytes = 32 * 1024;

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sameBytes(a: Buffer | undefined, b: Buffer | undefined): boolean {
  return a === undefined || b === undefined ? a === b : a.equals(b);
}

function repeats(x: RawExchange, last: RawExchange): boolean {
  return (
    x.kind === last.kind &&
    x.method === last.method &&
    x.answered === last.answered &&
    x.status === last.status &&
    sameList(x.requestHeaders, last.requestHeaders) &&
    sameList(x.responseHeaders, last.responseHeaders) &&
    sameBytes(x.requestBody, last.requestBody) &&
    sameBytes(x.responseBody, last.responseBody)
  );
}

/**
 * Creates an empty memo. Use it only where the checker is a pure function of these parts (not the token endpoints,
 * whose check reads the answer's Date against the clock's own reading of it).
 *
 * @example
 * const memo = createRepeatMemo();
 * const verdict = memo.known(x) ?? checkAndRemember(x);
 */
export function createRepeatMemo(): RepeatMemo {
  const last = new Map<string, { readonly x: RawExchange; readonly verdict: RepeatVerdict }>();
  return {
    known(x) {
      const seen = last.get(x.path);
      return seen && repeats(x, seen.x) ? seen.verdict : undefined;
    },
    remember(x, verdict) {
      if ((x.requestBody?.length ?? 0) + x.responseBody.length > maxKeptBytes) {
        last.delete(x.path);
        return;
      }
      if (last.size >= maxPaths && !last.has(x.path)) last.clear();
      // Only the parts compared are kept, not the whole exchange (its parsed answer, its timing).
      const kept: RawExchange = {
        kind: x.kind,
        method: x.method,
        path: x.path,
        requestHeaders: x.requestHeaders,
        requestBody: x.requestBody,
        answered: x.answered,
        status: x.status,
        responseHeaders: x.responseHeaders,
        responseBody: x.responseBody,
      };
      last.set(x.path, { x: kept, verdict });
    },
  };
}
