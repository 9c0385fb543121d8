/**
 * Reads request headers from whatever shape a framework hands over: a Node `IncomingHttpHeaders` object, a Fetch
 * `Headers`, or a plain record with any letter case.
 *
 * @module
 */

/** Headers in any of the shapes receivers commonly have at hand. */
export type HeadersLike =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | undefined>>;

function isFetchHeaders(headers: HeadersLike): headers is { get(name: string): string | null } {
  return typeof (headers as { get?: unknown }).get === 'function';
}

/**
 * The value of one header, or undefined when absent. Repeated values are joined with `, ` as Fetch does, so a
 * duplicated secret header never compares equal to a single key.
 */
export function readHeader(headers: HeadersLike, name: string): string | undefined {
  if (isFetchHeaders(headers)) return headers.get(name) ?? undefined;
  const wanted = name.toLowerCase();
  // Node lower-cases names already; plain records written by hand may not.
  let value = headers[wanted];
  if (value === undefined) {
    for (const key of Object.keys(headers)) {
      if (key.toLowerCase() === wanted) {
        value = headers[key];
        break;
      }
    }
  }
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : value.join(', ');
}

/** Whether `value` can be read by {@link readHeader}; anything else is a programming error. */
export function isHeadersLike(value: unknown): value is HeadersLike {
  return typeof value === 'object' && value !== null;
}
