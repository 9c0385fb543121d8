/**
 * The msw request handlers of one mock: one `http.all` handler for each service path and one for the control API,
 * all answered by the mock's Fetch entry; plus a pass-through handler for each webhook URL, so the mock's own
 * webhook POSTs (sent over node:http, which `setupServer` intercepts too) reach the network even under
 * `onUnhandledRequest: 'error'`. Only `http` and `passthrough` of msw's public API are used: both exist in msw 2 and 3.
 *
 * @module
 */
import { type HttpHandler, http, passthrough } from 'msw';
import { controlPrefix, servicePaths } from '../../contract/service-names.ts';

/** What the handlers need of the mock. */
export interface HandlerTarget {
  /** The origins to answer on, without a trailing slash (the base URL and its loopback aliases). */
  readonly origins: readonly string[];
  /** Answers one request (the mock app's Fetch entry). */
  readonly fetch: (request: Request) => Promise<Response>;
  /** Webhook URLs the mock posts to over HTTP (every client's). */
  readonly webhookUrls: readonly string[];
}

/** A URL as msw matches it: msw ignores the query and warns when a handler's path has one. */
function matchable(raw: string): string {
  const url = new URL(raw);
  return `${url.origin}${url.pathname}`;
}

/** Builds the handler list for `target`. */
export function createHandlerList(target: HandlerTarget): HttpHandler[] {
  const answer = ({ request }: { request: Request }) => target.fetch(request);
  const paths = [...Object.values(servicePaths), `${controlPrefix}*`];
  const webhooks = [...new Set(target.webhookUrls.map(matchable))];
  return [
    ...target.origins.flatMap((origin) => paths.map((path) => http.all(`${origin}${path}`, answer))),
    ...webhooks.map((url) => http.post(url, () => passthrough())),
  ];
}
