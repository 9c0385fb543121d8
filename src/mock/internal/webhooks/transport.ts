/**
 * The webhook transport seam: how the dispatcher sends one attempt, and what an attempt gives back. The Node platform
 * posts over node:http(s) (http-post.ts), a browser or worker with `fetch` (fetch-post.ts), and in-process receivers
 * (the msw entry's) are called directly (in-process.ts). Either way the answer or the failure goes through the same
 * retry rules.
 *
 * @module
 */
import { utf8Text } from '../../../internal/text-bytes.ts';

/** What came back from one POST. */
export interface PostResult {
  readonly status: number;
  /** Raw `Retry-After` header, when present. */
  readonly retryAfter: string | undefined;
  /** Raw `Date` header, when present: the receiver's clock, to read an HTTP-date `Retry-After` against. */
  readonly date: string | undefined;
  /** First bytes of the answer body, for the delivery log. */
  readonly bodySnippet: string;
}

/** A failed POST: `code` is short and stable (`ECONNREFUSED`, `ECONNRESET`, `aborted`, ...). */
export class PostError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'PostError';
    this.code = code;
  }
}

/**
 * How the dispatcher sends one attempt. The platform's network transport or an in-process one.
 */
export interface WebhookTransport {
  /** Sends one attempt; resolves with any answer, rejects with a {@link PostError} when none came. */
  send(url: URL, headers: Readonly<Record<string, string>>, body: string, signal: AbortSignal): Promise<PostResult>;
  /** Drops pooled connections (reset, close); the transport stays usable afterwards. */
  release(): void;
}

/** Bytes of an answer body kept for the delivery log. */
const SNIPPET_BYTES = 256;

/**
 * Reads at most 256 bytes of a Fetch `Response` body for the delivery log and cancels the rest (a receiver may stream
 * without end). Shared by the `fetch` transport and the in-process receivers.
 *
 * @example
 * const bodySnippet = await snippetOf(await fetch(url, init));
 */
export async function snippetOf(response: Response): Promise<string> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let kept = 0;
  while (kept < SNIPPET_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    kept += value.length;
  }
  await reader.cancel().catch(() => {});
  const all = new Uint8Array(kept);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return utf8Text(all.subarray(0, SNIPPET_BYTES));
}
