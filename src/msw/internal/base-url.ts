/**
 * The origins the msw handlers answer on: `http://127.0.0.1:4010` unless told otherwise (the address the CLI's mock
 * prints), and, for a loopback base URL, the same port under the other loopback name (`127.0.0.1`, `localhost`), so a
 * URL copied from the CLI, the README or code written for a locally running mock is answered either way. (`[::1]` is
 * left out: msw reads the colons of an IPv6 host in a handler URL as path parameters.)
 *
 * @module
 */

import { parseHttpUrl } from '../../internal/http-url.ts';
import { kitMessage } from '../../internal/messages.ts';

/** The base URL the handlers answer on when none is given: the address the CLI mock listens on and prints. */
export const defaultBaseUrl = 'http://127.0.0.1:4010';

/** Host names that mean "this machine": a local mock answers on either. */
const loopbackHosts = ['127.0.0.1', 'localhost'] as const;

/**
 * Checks `raw` and returns its origin (no trailing slash). The mock routes by path, so a base URL with a path of its
 * own is refused rather than silently ignored.
 */
export function resolveBaseUrl(raw: unknown = defaultBaseUrl): string {
  const url = typeof raw === 'string' ? parseHttpUrl(raw) : undefined;
  if (url === undefined)
    throw new TypeError(
      kitMessage(`msw option "baseUrl" must be an http(s) URL such as ${defaultBaseUrl}; got ${JSON.stringify(raw)}.`),
    );
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '')
    throw new TypeError(
      kitMessage(
        `msw option "baseUrl" must be an origin without a path, query or fragment (the service's paths hang off it); got "${raw}". Give "${url.origin}".`,
      ),
    );
  return url.origin;
}

/**
 * Every origin the handlers answer on for a resolved base URL: the base URL first, then, when its host is a loopback
 * name, the same scheme and port under the other loopback names. Other hosts answer only on themselves: a team that
 * names its own origin (say `https://payments.test`) does not want a real local server intercepted.
 *
 * @example
 * answeringOrigins('http://127.0.0.1:4010'); // ['http://127.0.0.1:4010', 'http://localhost:4010']
 */
export function answeringOrigins(baseUrl: string): string[] {
  const url = new URL(baseUrl);
  if (!(loopbackHosts as readonly string[]).includes(url.hostname)) return [baseUrl];
  const aliases = loopbackHosts.map((host) => {
    const alias = new URL(baseUrl);
    alias.hostname = host;
    return alias.origin;
  });
  return [baseUrl, ...aliases.filter((origin) => origin !== baseUrl)];
}
