/**
 * Routing by exact path, then method: two Map lookups, no regular expressions on the hot path. A known path with an
 * unknown method is a 405 that lists the allowed methods; an unknown path is a 404. Match results are built when
 * routes are added, so a lookup allocates nothing.
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
  interface Entry {
    kind: RouteKind;
    handlers: Map<string, H>;
    route: Route<H>;
    /** Prepared answers: per method, and for any other method (405). */
    matches: Map<string, RouteMatch<H>>;
    otherMethod: RouteMatch<H>;
  }
  const table = new Map<string, Entry>();
  const none: RouteMatch<H> = { found: 'none' };
  return {
    add(kind, method, path, handler) {
      let entry = table.get(path);
      if (!entry) {
        const handlers = new Map<string, H>();
        const route: Route<H> = { path, kind, handlers, allow: '' };
        entry = { kind, handlers, route, matches: new Map(), otherMethod: { found: 'method', route } };
        table.set(path, entry);
      }
      entry.handlers.set(method, handler);
      const route: Route<H> = { path, kind, handlers: entry.handlers, allow: [...entry.handlers.keys()].join(', ') };
      entry.route = route;
      entry.otherMethod = { found: 'method', route };
      entry.matches.clear();
      for (const [m, h] of entry.handlers) entry.matches.set(m, { found: 'handler', route, handler: h });
    },
    match(method, path) {
      const entry = table.get(path);
      if (!entry) return none;
      return entry.matches.get(method) ?? entry.otherMethod;
    },
    routes() {
      return [...table.values()].map((e) => e.route);
    },
  };
}
