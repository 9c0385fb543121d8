import { badRequest } from '../http-error.ts';

/** Entries on a page when the caller gives no `limit`: what a person reads at a glance. */
export const defaultPageLimit = 20;
/** Largest `limit` accepted. */
export const maxPageLimit = 500;

/**
 * Which part of a history a page holds. Without a cursor: the newest entries, newest first. With `before`: the
 * entries older than that sequence number, newest first (follow `next` to read back). With `after`: the entries
 * newer than it, oldest first (follow `next` to read forward without a gap).
 */
export interface PageQuery {
  /** Entries per page, 1 to 500; default 20. */
  readonly limit?: number;
  /** A sequence number: only older entries. */
  readonly before?: number;
  /** A sequence number: only newer entries, oldest first. */
  readonly after?: number;
}

/** One page of a history. */
export interface Page<T> {
  /** The entries, in `order`. */
  readonly items: T[];
  readonly order: 'newest-first' | 'oldest-first';
  /**
   * The cursor of the following page (a sequence number, to pass as `before` when newest first, as `after` when
   * oldest first), or null when no matching entry follows.
   */
  readonly next: number | null;
}

/** A source of entries in sequence order, as {@link SeqList} gives them. */
export interface OrderedSource<V> {
  newest(before?: number): IterableIterator<[number, V]>;
  oldestFirst(after?: number): IterableIterator<[number, V]>;
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/**
 * Checks a page query (a caller's mistake is a 400 in the 7.1 shape naming `where`) and fills in the default limit.
 *
 * @example
 * checkPageQuery({ limit: 50, before: 1200 }, 'deliveryPage') // { limit: 50, before: 1200 }
 */
export function checkPageQuery(
  query: PageQuery | undefined,
  where: string,
): Required<Pick<PageQuery, 'limit'>> & PageQuery {
  const q = query ?? {};
  const limit = q.limit ?? defaultPageLimit;
  if (!isCount(limit) || limit < 1 || limit > maxPageLimit)
    throw badRequest(`${where}: "limit" must be a whole number from 1 to ${maxPageLimit}; got ${String(limit)}.`);
  for (const key of ['before', 'after'] as const)
    if (q[key] !== undefined && !isCount(q[key]))
      throw badRequest(
        `${where}: "${key}" must be a sequence number (a whole number from 0), such as the "next" of the previous page.`,
      );
  if (q.before !== undefined && q.after !== undefined)
    throw badRequest(`${where}: give "before" (older entries) or "after" (newer entries), not both.`);
  return { ...q, limit };
}

/**
 * Fills a page from `sources`, merged by sequence number, keeping the entries `keep` accepts.
 *
 * @example
 * collectPage([list], { limit: 20 }, (d) => d.state === 'failed', (d) => snapshot(d))
 */
export function collectPage<V, T>(
  sources: readonly OrderedSource<V>[],
  query: Required<Pick<PageQuery, 'limit'>> & PageQuery,
  keep: (value: V) => boolean,
  view: (value: V, seq: number) => T,
): Page<T> {
  const ascending = query.after !== undefined;
  const its = sources.map((s) => (ascending ? s.oldestFirst(query.after) : s.newest(query.before)));
  const heads = its.map((it) => it.next());
  const items: T[] = [];
  let lastSeq = -1;
  for (;;) {
    // Few sources (clients, dispatchers): a linear pick of the next head beats a heap.
    let pick = -1;
    for (let i = 0; i < heads.length; i++) {
      const h = heads[i]!;
      if (h.done) continue;
      const best = pick < 0 ? undefined : (heads[pick]!.value as [number, V])[0];
      if (best === undefined || (ascending ? h.value[0] < best : h.value[0] > best)) pick = i;
    }
    if (pick < 0) return { items, order: ascending ? 'oldest-first' : 'newest-first', next: null };
    const [seq, value] = heads[pick]!.value as [number, V];
    heads[pick] = its[pick]!.next();
    if (!keep(value)) continue;
    // One matching entry past the page says there is a next page; it is not returned.
    if (items.length === query.limit)
      return { items, order: ascending ? 'oldest-first' : 'newest-first', next: lastSeq };
    items.push(view(value, seq));
    lastSeq = seq;
  }
}

/** A list query as the HTTP control API reads it: the page and the filters named in `filters`. */
export interface ListQuery {
  readonly page: PageQuery;
  readonly filters: Readonly<Record<string, string>>;
}

/**
 * Reads `limit`, `before`, `after` and the allowed filters from a query string; anything else, a repeated or empty
 * parameter, or a number that is not a whole number is a 400 naming the parameter and what is accepted.
 *
 * @example
 * parseListQuery('limit=50&state=failed', ['state'], 'GET /__pck/deliveries')
 */
export function parseListQuery(raw: string, filters: readonly string[], route: string): ListQuery {
  const params = new URLSearchParams(raw);
  const page: { -readonly [K in keyof PageQuery]: PageQuery[K] } = {};
  const found: Record<string, string> = {};
  const accepted = ['limit', 'before', 'after', ...filters];
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    if (!accepted.includes(key))
      throw badRequest(`${route}: unknown query parameter "${key}"; it takes ${accepted.join(', ')}.`);
    if (values.length > 1 || values[0] === '') throw badRequest(`${route}: give "${key}" once, with a value.`);
    const value = values[0]!;
    if (key === 'limit' || key === 'before' || key === 'after') {
      if (!/^\d{1,15}$/.test(value))
        throw badRequest(`${route}: "${key}" must be a whole number; got "${value.slice(0, 40)}".`);
      page[key] = Number(value);
    } else found[key] = value;
  }
  checkPageQuery(page, route);
  return { page, filters: found };
}

/**
 * Every entry of a paged history, oldest first: its pages read one after another, each from the `next` of the last
 * (a shared store's history, which no process holds whole).
 */
export async function readAllPages<T>(
  read: (query: { readonly limit: number; readonly after: number }) => Promise<Page<T>>,
): Promise<T[]> {
  const all: T[] = [];
  for (let after: number | null = 0; after !== null; ) {
    const page = await read({ limit: maxPageLimit, after });
    all.push(...page.items);
    after = page.next;
  }
  return all;
}
