/**
 * Routing by exact path, then method: two Map lookups, no regular expressions on the hot path. A known path with an
 * unknown method is a 405 that lists the allowed methods; an unknown path is a 404.
 *
 * @module
 */

/** Which error shape a route answers in: 7.1 on REST and control paths, 7.2 on /graphql. */
export type RouteKind = 'rest' | 'graphql' | 'control';

/** One path with its handlers by method. */
export interface Route<H> {
  readonly path: string;
  readonly kind: RouteKind;
  readonly handlers: ReadonlyMap<string, H>;
  /** Value of the `Allow` header of a 405. */
  readonly allow: string;
}

/** Outcome of a lookup. */
export type RouteMatch<H> =
  | { readonly found: 'handler'; readonly route: Route<H>; readonly handler: H }
  | { readonly found: 'method'; readonly route: Route<H> }
  | { readonly found: 'none' };

/** A path → method → handler table. */
export interface Router<H> {
  /** Registers `handler` for `method` on `path`. */
  add(kind: RouteKind, method: string, path: string, handler: H): void;
  /** Looks up a request's path (without query string) and method. */
  match(method: string, path: string): RouteMatch<H>;
  /** Every route, for documentation and tests. */
  routes(): Route<H>[];
}

/** Creates an empty router. */
export function createRouter<H>(): Router<H> {
  const table = new Map<string, { kind: RouteKind; handlers: Map<string, H>; route: Route<H> }>();
  const none: RouteMatch<H> = { found: 'none' };
  return {
    add(kind, method, path, handler) {
      let entry = table.get(path);
      if (!entry) {
        const handlers = new Map<string, H>();
        entry = { kind, handlers, route: { path, kind, handlers, allow: '' } };
        table.set(path, entry);
      }
      entry.handlers.set(method, handler);
      entry.route = { path, kind, handlers: entry.handlers, allow: [...entry.handlers.keys()].join(', ') };
    },
    match(method, path) {
      const entry = table.get(path);
      if (!entry) return none;
      const handler = entry.handlers.get(method);
      return handler === undefined
        ? { found: 'method', route: entry.route }
        : { found: 'handler', route: entry.route, handler };
    },
    routes() {
      return [...table.values()].map((e) => e.route);
    },
  };
}
