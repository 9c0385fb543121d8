/**
 * Reading a request body: bounded in size, decoded once, parsed once. Failures are values the caller turns into the
 * answer of its endpoint (7.1 body on REST paths, 7.2 on /graphql), so no client mistake becomes a 500.
 *
 * @module
 */
import type { IncomingMessage } from 'node:http';

/** What reading the body gave. */
export type BodyResult =
  | { readonly ok: true; readonly empty: boolean; readonly value: unknown }
  | { readonly ok: false; readonly problem: 'too-large' | 'malformed' | 'aborted'; readonly message: string };

const aborted: BodyResult = {
  ok: false,
  problem: 'aborted',
  message: '[payment-contract-kit] The request body was cut off before it ended.',
};

function tooLarge(limit: number): BodyResult {
  return {
    ok: false,
    problem: 'too-large',
    message: `[payment-contract-kit] Request body larger than the mock's limit of ${limit} bytes (maxBodyBytes): send a smaller body, or raise the limit with --max-body-bytes or the mock option maxBodyBytes.`,
  };
}

/**
 * Reads and parses a JSON body of at most `limit` bytes. An empty body is `{ ok: true, empty: true }`. A declared
 * Content-Length over the limit is refused before reading; the rest of an oversized body is drained, not buffered.
 */
export function readJsonBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) {
    req.resume();
    return Promise.resolve(tooLarge(limit));
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > limit) {
        over = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (over) return resolve(tooLarge(limit));
      if (size === 0) return resolve({ ok: true, empty: true, value: undefined });
      const text = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, size).toString('utf8');
      try {
        resolve({ ok: true, empty: false, value: JSON.parse(text) });
      } catch (error) {
        resolve({
          ok: false,
          problem: 'malformed',
          message: `[payment-contract-kit] Request body is not valid JSON (${(error as Error).message}): send a JSON object with Content-Type: application/json.`,
        });
      }
    });
    req.on('aborted', () => resolve(aborted));
    req.on('error', () => resolve(aborted));
  });
}
