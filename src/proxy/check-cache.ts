/**
 * Remembers what the checker said about an exchange, so the same exchange seen again (the fee list for an amount,
 * a query a test suite repeats, a webhook retried) costs a map lookup instead of a second check: checking is most of
 * the proxy's work per request. The checker is a pure function of the exchange and the proxy's fixed options; the
 * key is the whole exchange except the answer's `Date` header, which only the token endpoints' check reads, so
 * token exchanges are never cached. Nor are GraphQL mutations: a payment's answer carries a new transaction id every
 * time, so its 2-3 KB key would only ever miss (and push repeating exchanges out of the cache).
 *
 * @module
 */
import type { Exchange, ExchangeCheck } from '../contract/check/exchange.ts';
import { servicePaths } from '../contract/service-names.ts';

/** Most results kept; the oldest go first. */
const maxEntries = 1_000;
/** Exchanges larger than this (in characters of their parts) are checked every time rather than kept as keys. */
const maxKeyLength = 32 * 1024;

const tokenPaths: readonly string[] = [servicePaths.generateToken, servicePaths.refreshToken, servicePaths.revokeToken];

function headerKey(headers: Readonly<Record<string, string>>): string {
  let out = '';
  for (const name in headers) if (name !== 'date') out += `${name}\u0000${headers[name]}\u0000`;
  return out;
}

/** Whether `c` can continue a GraphQL name (so `mutationX` is not the keyword). */
const nameChar = /[_0-9A-Za-z]/;

/**
 * Whether a GraphQL request's JSON text holds a document that starts with `mutation`, read without parsing it: the
 * `"query"` string's first token after white space, commas and `#` comments (the kit's own operation files open with
 * one). A linear scan; a body it misreads is only cached or not, never checked differently.
 *
 * @example
 * isMutationRequest('{"query":"# Pays.\\nmutation Pay { ... }"}') // true
 */
export function isMutationRequest(body: string): boolean {
  const at = body.indexOf('"query"');
  if (at < 0) return false;
  let i = at + 7;
  while (body[i] === ' ' || body[i] === ':') i++;
  if (body[i] !== '"') return false;
  i++;
  for (;;) {
    const c = body[i];
    if (c === ' ' || c === ',' || c === '\t') i++;
    else if (c === '\\' && (body[i + 1] === 'n' || body[i + 1] === 'r' || body[i + 1] === 't')) i += 2;
    else if (c === '#') {
      // A comment runs to the end of its line: the next escaped line break, or the end of the string.
      const end = body.indexOf('\\n', i);
      if (end < 0) return false;
      i = end + 2;
    } else return body.startsWith('mutation', i) && !nameChar.test(body[i + 8] ?? '');
  }
}

function keyOf(exchange: Exchange): string | undefined {
  const { request, response } = exchange;
  if (tokenPaths.some((p) => request.url.startsWith(p))) return undefined;
  if (request.body !== undefined && request.url.startsWith(servicePaths.graphql) && isMutationRequest(request.body))
    return undefined;
  const key = [
    exchange.kind ?? 'http',
    request.method,
    request.url,
    headerKey(request.headers),
    request.body ?? '',
    response ? String(response.status) : '-',
    response ? headerKey(response.headers) : '',
    response?.body ?? '',
  ].join('\u0001');
  return key.length > maxKeyLength ? undefined : key;
}

/**
 * Wraps a check function with the cache.
 *
 * @example
 * const check = cachedCheck((x) => checkExchange(x, options));
 */
export function cachedCheck(check: (exchange: Exchange) => ExchangeCheck): (exchange: Exchange) => ExchangeCheck {
  const cache = new Map<string, ExchangeCheck>();
  return (exchange) => {
    const key = keyOf(exchange);
    if (key === undefined) return check(exchange);
    const hit = cache.get(key);
    if (hit) return hit;
    const result = check(exchange);
    if (cache.size >= maxEntries) cache.delete(cache.keys().next().value as string);
    cache.set(key, result);
    return result;
  };
}
