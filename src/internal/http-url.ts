/**
 * One reading of "an http(s) URL" for every place that takes a webhook or receiver address (mock options, CLI flags).
 *
 * @module
 */

/** Parses `raw` as an absolute http: or https: URL; `undefined` for anything else. */
export function parseHttpUrl(raw: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
}
