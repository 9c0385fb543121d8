/**
 * The `pages` route group: what the mock serves to a browser rather than to an API client (the landing page, and
 * the pages other modules register: GraphiQL, the API reference, the dashboard, their assets). Registered only when
 * the `ui` option is on (`--no-ui` turns the group off). A page may share its path with an API route (`/`,
 * `/graphql`): registered `htmlOnly`, it answers only GET and HEAD requests whose `Accept` names `text/html`, and
 * every other request goes on to the API as before. Pages answer in the control API's manner: 7.1 errors, no
 * journal entry, no injected failures, and cross-origin use only through `controlCors`.
 *
 * @module
 */
import { type MockRequest, type Outcome, requestHeader } from './exchange.ts';

/** Renders one page (or asset) for a request. */
export type PageHandler = (request: MockRequest) => Outcome | Promise<Outcome>;

/** How a page is matched. */
export interface PageRouteOptions {
  /** Only for requests that accept HTML and carry no query string (the path also serves an API). Default false. */
  readonly htmlOnly?: boolean;
  /** Match every path under `path` (which then ends with `/`), for bundled assets. Default false. */
  readonly prefix?: boolean;
}

/** The route group. */
export interface PageRoutes {
  /** Registers `handler` for GET (and HEAD) on `path`. */
  add(path: string, handler: PageHandler, options?: PageRouteOptions): void;
  /** The page answering `request`, if any. */
  match(request: MockRequest): PageHandler | undefined;
}

/** Creates an empty group. */
export function createPageRoutes(): PageRoutes {
  interface Entry {
    readonly handler: PageHandler;
    readonly htmlOnly: boolean;
  }
  const exact = new Map<string, Entry>();
  const prefixes: [string, Entry][] = [];
  return {
    add(path, handler, options = {}) {
      const entry = { handler, htmlOnly: options.htmlOnly ?? false };
      if (options.prefix) prefixes.push([path, entry]);
      else exact.set(path, entry);
    },
    match(request) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
      const entry = exact.get(request.path) ?? prefixes.find(([p]) => request.path.startsWith(p))?.[1];
      // A shared path answers a page only to a browser navigating (its Accept names HTML); with a query string it is
      // an API request (GraphQL over GET), even from a browser's address bar.
      const navigation = request.query === '' && requestHeader(request, 'accept')?.includes('text/html') === true;
      if (entry === undefined || (entry.htmlOnly && !navigation)) return undefined;
      return entry.handler;
    },
  };
}
