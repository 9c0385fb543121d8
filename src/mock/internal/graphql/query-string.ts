/**
 * Reads a GraphQL request from a GET query string (GraphQL over HTTP): `query`, `variables` and `extensions` as JSON
 * text, `operationName`. Kept free of graphql-js so the GET route stays off the engine's lazy load until it runs.
 *
 * @module
 */
import { jsonDepthWithin, tooDeepJsonMessage } from '../../../internal/json-depth.ts';
import { kitMessage } from '../../../internal/messages.ts';
import { isPlainObject } from '../../../internal/plain-object.ts';

/** The request parsed from a query string. */
export interface QueryStringRequest {
  readonly query: string;
  readonly variables: Record<string, unknown> | undefined;
  readonly operationName: string | undefined;
}

/** The parse: the request, or the message of a 400. */
export type QueryStringParse =
  | { readonly ok: true; readonly value: QueryStringRequest }
  | { readonly ok: false; readonly message: string };

const example = '/graphql?query=%7B__typename%7D&variables=%7B%7D';

function jsonObject(
  params: URLSearchParams,
  name: string,
  maxJsonDepth: number,
): Record<string, unknown> | undefined | string {
  const raw = params.get(name);
  if (raw === null || raw === '') return undefined;
  // Bounded as a POST body is: the engine's walks over the variables recurse.
  if (!jsonDepthWithin(raw, maxJsonDepth))
    return kitMessage(
      tooDeepJsonMessage(
        `"${name}" in the query string`,
        maxJsonDepth,
        '--max-json-depth or the mock option assumptions.limits.maxJsonDepth',
      ),
    );
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return kitMessage(`"${name}" in the query string is not valid JSON: send it URL-encoded, such as ${example}.`);
  }
  if (value === null) return undefined;
  if (!isPlainObject(value)) return kitMessage(`"${name}" in the query string must be a JSON object.`);
  return value;
}

/**
 * Parses `rawQuery` (without the `?`); `variables` and `extensions` nested deeper than `maxJsonDepth` are refused.
 *
 * @example
 * parseGraphqlQueryString('query=%7B__typename%7D', 64) // { ok: true, value: { query: '{__typename}', ... } }
 */
export function parseGraphqlQueryString(rawQuery: string, maxJsonDepth: number): QueryStringParse {
  const params = new URLSearchParams(rawQuery);
  const query = params.get('query');
  if (query === null || query === '')
    return {
      ok: false,
      message: kitMessage(
        `GET /graphql needs the operation in the query string, such as ${example}; mutations need POST with a JSON body.`,
      ),
    };
  const variables = jsonObject(params, 'variables', maxJsonDepth);
  if (typeof variables === 'string') return { ok: false, message: variables };
  // Extensions (persisted-query hashes and the like) are not used by the mock, but a malformed one is still refused.
  const extensions = jsonObject(params, 'extensions', maxJsonDepth);
  if (typeof extensions === 'string') return { ok: false, message: extensions };
  const operationName = params.get('operationName');
  return {
    ok: true,
    value: {
      query,
      variables,
      operationName: operationName === null || operationName === '' ? undefined : operationName,
    },
  };
}
