/**
 * One POST through the injected `fetch`, read into a {@link RawResponse}: the body as JSON when it parses, as text
 * otherwise. A network failure becomes a {@link TransportError}; statuses are left to the caller.
 *
 * @module
 */
import { type RawResponse, TransportError } from '../client-errors.ts';

/** The `fetch` the client calls: the global one, or any compatible function (msw, undici, a test double). */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** Posts `body` (JSON-encoded when given) to `url` and reads the answer. */
export async function postJson(
  fetchFn: FetchLike,
  what: string,
  url: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<RawResponse> {
  let response: Response;
  try {
    response = await fetchFn(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (error) {
    throw new TransportError(
      what,
      `the request to ${url} failed before an answer came (${error instanceof Error ? error.message : String(error)}). Check baseUrl and that the service is reachable.`,
      undefined,
      error,
    );
  }
  const text = await response.text();
  let parsed: unknown = text;
  if (text !== '') {
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON: keep the text, the caller reports it.
    }
  }
  const headerRecord: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headerRecord[name.toLowerCase()] = value;
  });
  return { status: response.status, headers: headerRecord, body: parsed };
}
