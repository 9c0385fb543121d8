/**
 * A bounded LRU of parsed documents keyed by query text. A client usually repeats one query: the most recent entry
 * is compared first, which spares hashing the (new, kilobyte-long) query string and the delete + set that marks
 * recency on every request of that client. That entry is always the Map's most recent key, so the LRU order stays
 * exact.
 *
 * @module
 */

// Longer query texts are answered but not kept: a cache of 1,000 one-megabyte keys would hold a gigabyte. Parsing
// such a text again is bounded by the token limit.
const maxCachedQueryLength = 64 * 1024;

/** The cache of one engine. */
export interface DocumentCache<Entry> {
  /** The entry of `query`, built with the cache's builder on a miss. */
  get(query: string): Entry;
  /** Counters, for tests and benchmarks. */
  stats(): { size: number; hits: number; misses: number };
}

/**
 * Creates a cache of at most `size` entries (at least 1), each made by `build` on first sight of its text.
 *
 * @example
 * const cache = createDocumentCache(1000, (query) => parse(query));
 * const doc = cache.get('{ ping }');
 */
export function createDocumentCache<Entry>(size: number, build: (query: string) => Entry): DocumentCache<Entry> {
  const capacity = Math.max(1, size);
  const cache = new Map<string, Entry>();
  let hits = 0;
  let misses = 0;
  let recentQuery: string | undefined;
  let recentEntry: Entry | undefined;

  function remember(query: string, entry: Entry): Entry {
    recentQuery = query;
    recentEntry = entry;
    return entry;
  }

  return {
    get(query) {
      if (query === recentQuery && recentEntry !== undefined) {
        hits++;
        return recentEntry;
      }
      const cached = cache.get(query);
      if (cached !== undefined) {
        hits++;
        // Re-insert to mark as most recently used; Map keeps insertion order, so the first key is the LRU victim.
        cache.delete(query);
        cache.set(query, cached);
        return remember(query, cached);
      }
      misses++;
      const entry = build(query);
      if (query.length > maxCachedQueryLength) return entry;
      if (cache.size >= capacity) {
        const oldest = cache.keys().next().value;
        if (oldest !== undefined) cache.delete(oldest);
      }
      cache.set(query, entry);
      return remember(query, entry);
    },
    stats: () => ({ size: cache.size, hits, misses }),
  };
}
