/**
 * Parsing a request body the transport has already read (bounded by `maxBodyBytes`): decoded once, parsed once.
 * Failures are values the caller turns into the answer of its endpoint (7.1 body on REST paths, 7.2 on /graphql), so
 * no client mistake becomes a 500.
 *
 * @module
 */

import { kitMessage } from '../../../internal/messages.ts';
import { isPlainObject } from '../../../internal/plain-object.ts';
import { restError } from '../http-error.ts';
import { bodyAborted, bodyOverLimit, type MockRequest, type MockRequestBody } from './exchange.ts';

/** What parsing the body gave. */
export type BodyResult =
  | { readonly ok: true; readonly empty: boolean; readonly value: unknown }
  | { readonly ok: false; readonly problem: 'too-large' | 'malformed' | 'aborted'; readonly message: string };

const aborted: BodyResult = {
  ok: false,
  problem: 'aborted',
  message: kitMessage('The request body was cut off before it ended.'),
};

const emptyBody: BodyResult = { ok: true, empty: true, value: undefined };

const decoder = new TextDecoder();

/** The message of a body over the limit, shared by every transport. */
export function tooLargeMessage(limit: number): string {
  return kitMessage(
    `Request body larger than the mock's limit of ${limit} bytes (maxBodyBytes): send a smaller body, or raise the limit with --max-body-bytes or the mock option maxBodyBytes.`,
  );
}

/** The text of body bytes (UTF-8; what {@link parseJsonBody} parses). */
export const bodyText = (bytes: Uint8Array): string => decoder.decode(bytes);

/**
 * Parses a JSON body; an empty body is `{ ok: true, empty: true }`. `text`, when given, is the body's
 * {@link bodyText} the caller already decoded.
 */
export function parseJsonBody(body: MockRequestBody, limit: number, text?: string): BodyResult {
  if (body === bodyOverLimit) return { ok: false, problem: 'too-large', message: tooLargeMessage(limit) };
  if (body === bodyAborted) return aborted;
  if (body.length === 0) return emptyBody;
  try {
    return { ok: true, empty: false, value: JSON.parse(text ?? decoder.decode(body)) };
  } catch (error) {
    return {
      ok: false,
      problem: 'malformed',
      message: kitMessage(
        `Request body is not valid JSON (${(error as Error).message}): send a JSON object with Content-Type: application/json.`,
      ),
    };
  }
}

/**
 * The JSON object body of a control route (`{}` when empty); a body too large, malformed or not an object throws the
 * control API's 413/400.
 *
 * @example
 * const { path, status } = jsonObject(request, maxBodyBytes, 'POST /__pck/fail-next');
 */
export function jsonObject(request: MockRequest, limit: number, route: string): Record<string, unknown> {
  const body = parseJsonBody(request.body, limit);
  if (!body.ok) throw restError(body.problem === 'too-large' ? 413 : 400, body.message);
  if (body.empty) return {};
  if (!isPlainObject(body.value)) throw restError(400, kitMessage(`${route} needs a JSON object body.`));
  return body.value;
}
