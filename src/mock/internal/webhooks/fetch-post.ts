/**
 * The web platform's webhook transport: one attempt is a `fetch` POST, so a mock in a browser page, a service
 * worker's page or an edge worker delivers to any URL the runtime lets it reach. Where it may not (a receiver on
 * another origin without CORS, an http: URL from an https: page, a network error), `fetch` rejects without saying
 * which; the attempt then fails with `fetch-failed:` and a reason that names the usual causes, and the dispatcher's
 * retry rules apply as for any failed attempt.
 *
 * @module
 */
import { errorLine } from '../../../internal/messages.ts';
import { PostError, type PostResult, snippetOf, type WebhookTransport } from './transport.ts';

/** Headers a browser sets itself and refuses from a script (sending them would only be ignored or throw). */
const browserOwned = new Set(['content-length', 'user-agent', 'host', 'connection']);

/**
 * Why a `fetch` that rejected did: the abort's reason, or the usual causes a browser does not tell apart. The code is
 * what the delivery log shows for the attempt, so it carries the explanation, as an in-process receiver's does.
 */
function failureOf(error: unknown, signal: AbortSignal): PostError {
  if (signal.aborted) return new PostError(String(signal.reason ?? 'aborted'), 'attempt aborted');
  const code =
    `fetch-failed: the runtime refused or could not reach the URL (${errorLine(error).slice(0, 80)}). From a page, ` +
    'a receiver on another origin must allow CORS for POST and the webhook headers, an https: page cannot post to ' +
    'http:, and blocked ports are refused; to test a handler in the page, pass it in webhookReceivers.';
  return new PostError(code, 'the runtime refused or could not make the request');
}

/**
 * Creates the transport. `fetchImpl` defaults to the global `fetch`, read at each attempt (a test may replace it).
 *
 * @example
 * const transport = createFetchTransport();
 * await transport.send(new URL('https://example.test/hook'), headers, body, AbortSignal.timeout(5000));
 */
export function createFetchTransport(fetchImpl?: typeof fetch): WebhookTransport {
  return {
    async send(url, headers, body, signal): Promise<PostResult> {
      const sent: Record<string, string> = {};
      for (const name in headers) if (!browserOwned.has(name.toLowerCase())) sent[name] = headers[name]!;
      let response: Response;
      try {
        response = await (fetchImpl ?? fetch)(url, { method: 'POST', headers: sent, body, signal, redirect: 'manual' });
      } catch (error) {
        throw failureOf(error, signal);
      }
      return {
        status: response.status,
        retryAfter: response.headers.get('retry-after') ?? undefined,
        date: response.headers.get('date') ?? undefined,
        bodySnippet: await snippetOf(response).catch(() => ''),
      };
    },
    // fetch pools its own connections; there is nothing of ours to drop.
    release() {},
  };
}
