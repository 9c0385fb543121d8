/**
 * Parsing a request body the transport has already read (bounded by `maxBodyBytes`): decoded once, parsed once.
 * Failures are values the caller turns into the answer of its endpoint (7.1 body on REST paths, 7.2 on /graphql), so
 * no client mistake becomes a 500.
 *
 * @module
 */

import type { RequestLimits } from '../../../assumptions.ts';
import { jsonDepthWithin, tooDeepJsonMessage } from '../../../internal/json-depth.ts';
import { kitMessage } from '../../../internal/messages.ts';
import { isPlainObject } from '../../../internal/plain-object.ts';
import { badRequest, restError } from '../http-error.ts';
import { bodyAborted, bodyOverLimit, type MockRequest, type MockRequestBody } from './exchange.ts';

/** What parsing the body gave. */
export type BodyResult =
  | { readonly ok: true; readonly empty: boolean; readonly value: unknown }
  | { readonly ok: false; readonly problem: 'too-large' | 'malformed' | 'aborted'; readonly message: string };

/** The limits a JSON body is read within: its size (checked by the transport too) and its nesting. */
export type BodyLimits = Pick<RequestLimits, 'maxBodyBytes' | 'maxJsonDepth'>;

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

/** The message of a body nested deeper than `limits.maxJsonDepth` (a 400 in the route's shape). */
export function tooDeepBodyMessage(maxDepth: number): string {
  return kitMessage(
    tooDeepJsonMessage('Request body', maxDepth, '--max-json-depth or the mock option assumptions.limits.maxJsonDepth'),
  );
}

/**
 * Parses a JSON body; an empty body is `{ ok: true, empty: true }`. `text`, when given, is the body's
 * {@link bodyText} the caller already decoded. A body nested deeper than `limits.maxJsonDepth` is malformed for the
 * mock: what reads the value afterwards (variable coercion, the answer keys, the journal's summary) walks it.
 */
export function parseJsonBody(body: MockRequestBody, limits: BodyLimits, text?: string): BodyResult {
  if (body === bodyOverLimit) return { ok: false, problem: 'too-large', message: tooLargeMessage(limits.maxBodyBytes) };
  if (body === bodyAborted) return aborted;
  if (body.length === 0) return emptyBody;
  const json = text ?? decoder.decode(body);
  if (!jsonDepthWithin(json, limits.maxJsonDepth))
    return { ok: false, problem: 'malformed', message: tooDeepBodyMessage(limits.maxJsonDepth) };
  try {
    return { ok: true, empty: false, value: JSON.parse(json) };
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
 * const { path, status } = jsonObject(request, assumptions.limits, 'POST /__pck/fail-next');
 */
export function jsonObject(request: MockRequest, limits: BodyLimits, route: string): Record<string, unknown> {
  const body = parseJsonBody(request.body, limits);
  if (!body.ok) throw restError(body.problem === 'too-large' ? 413 : 400, body.message);
  if (body.empty) return {};
  if (!isPlainObject(body.value)) throw badRequest(`${route} needs a JSON object body.`);
  return body.value;
}
