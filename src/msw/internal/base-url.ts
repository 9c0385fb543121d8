/**
 * The origin the msw handlers answer on: `http://localhost:4010` unless told otherwise, the address the CLI's mock
 * listens on, so code configured for a locally running mock needs no change under msw.
 *
 * @module
 */

import { parseHttpUrl } from '../../internal/http-url.ts';
import { kitMessage } from '../../internal/messages.ts';

/** The base URL the handlers answer on when none is given (the CLI mock's default address). */
export const defaultBaseUrl = 'http://localhost:4010';

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
