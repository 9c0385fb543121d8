import { kitMessage } from '../../../internal/messages.ts';
/**
 * The browser-facing options of the mock (`cors`, `controlCors`, `allowedHosts`, `ui`): their defaults and the checks
 * that turn what a user wrote (an option value, a `--cors` flag, `PCK_CORS`) into one resolved form. Kept apart from
 * `options.ts` so the CORS and Host rules live next to the code that applies them.
 *
 * @module
 */

/** Which origins get CORS answers: every origin (`'*'`), a list of exact origins, or none (`false`). */
export type CorsOrigins = '*' | readonly string[] | false;

/** The browser options as {@link resolveBrowserOptions} returns them. */
export interface ResolvedBrowserOptions {
  /** CORS on the service paths (token endpoints, `/graphql`). */
  readonly cors: CorsOrigins;
  /** CORS on the control API, the published sources and the pages (`/__pck/*`, `/`). */
  readonly controlCors: CorsOrigins;
  /** Host names accepted in `Host` besides loopback names and IP literals; `true` accepts every host. */
  readonly allowedHosts: readonly string[] | true;
  /** Whether the pages (landing page, and the pages other modules register) are served. */
  readonly ui: boolean;
}

/** Defaults, as the ledger (ASSUMPTIONS.md, "In the browser") records them. */
export const defaultBrowserOptions: ResolvedBrowserOptions = {
  cors: '*',
  controlCors: false,
  allowedHosts: [],
  ui: true,
};

/** What a user may write for a CORS option: `'*'`, `'off'`, one origin, a comma list, an array, or `false`. */
export type CorsInput = string | readonly string[] | boolean;

/**
 * Parses a CORS setting; throws a `TypeError` naming `option` and the fix.
 *
 * @example
 * parseCorsOrigins('cors', 'http://localhost:5173, http://127.0.0.1:5173') // ['http://localhost:5173', 'http://127.0.0.1:5173']
 */
export function parseCorsOrigins(option: string, value: CorsInput): CorsOrigins {
  if (value === false) return false;
  if (value === true) return '*';
  const items = (typeof value === 'string' ? value.split(',') : [...value]).map((v) =>
    typeof v === 'string' ? v.trim() : v,
  );
  if (items.length === 1 && items[0] === 'off') return false;
  if (items.length === 1 && items[0] === '*') return '*';
  const origins: string[] = [];
  for (const item of items) {
    if (typeof item !== 'string' || item === '') continue;
    origins.push(canonicalOrigin(option, item));
  }
  if (origins.length === 0)
    throw new TypeError(
      kitMessage(`mock option "${option}" needs "*", "off" or a comma list of origins such as http://localhost:5173.`),
    );
  return origins;
}

/** `http://Localhost:5173/` → `http://localhost:5173`; anything with a path, query or other scheme is refused. */
function canonicalOrigin(option: string, raw: string): string {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (
    !url ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.pathname !== '/' ||
    url.search !== '' ||
    url.hash !== '' ||
    url.username !== '' ||
    raw.endsWith('/')
  )
    throw new TypeError(
      kitMessage(
        `mock option "${option}" holds "${raw}", which is not an origin: write scheme, host and port only, such as http://localhost:5173 (or "*" / "off").`,
      ),
    );
  return url.origin;
}

/**
 * Parses `allowedHosts`: host names (`mock.internal`), a leading dot for a domain and its subdomains
 * (`.example.test`), or `all` / `true` to accept every `Host`.
 *
 * @example
 * parseAllowedHosts('allowedHosts', 'mock, .docker.internal') // ['mock', '.docker.internal']
 */
export function parseAllowedHosts(
  option: string,
  value: string | readonly string[] | boolean,
): readonly string[] | true {
  if (value === true) return true;
  if (value === false) return [];
  const items = (typeof value === 'string' ? value.split(',') : [...value]).map((v) =>
    typeof v === 'string' ? v.trim().toLowerCase() : v,
  );
  if (items.length === 1 && items[0] === 'all') return true;
  const hosts: string[] = [];
  for (const item of items) {
    if (item === '') continue;
    if (typeof item !== 'string' || !/^\.?[a-z0-9_-]+(\.[a-z0-9_-]+)*$/.test(item))
      throw new TypeError(
        kitMessage(
          `mock option "${option}" holds "${String(item)}", which is not a host name: write names without scheme or port, such as mock or .docker.internal (or "all").`,
        ),
      );
    hosts.push(item);
  }
  return hosts;
}

/** The browser options a user may pass, before {@link resolveBrowserOptions}. */
export interface BrowserOptionsInput {
  readonly cors?: CorsInput | undefined;
  readonly controlCors?: CorsInput | undefined;
  readonly allowedHosts?: string | readonly string[] | boolean | undefined;
  readonly ui?: boolean | undefined;
}

/** Applies the defaults and checks each value. */
export function resolveBrowserOptions(input: BrowserOptionsInput): ResolvedBrowserOptions {
  if (input.ui !== undefined && typeof input.ui !== 'boolean')
    throw new TypeError(kitMessage('mock option "ui" must be true or false.'));
  return {
    cors: input.cors === undefined ? defaultBrowserOptions.cors : parseCorsOrigins('cors', input.cors),
    controlCors:
      input.controlCors === undefined
        ? defaultBrowserOptions.controlCors
        : parseCorsOrigins('controlCors', input.controlCors),
    allowedHosts:
      input.allowedHosts === undefined
        ? defaultBrowserOptions.allowedHosts
        : parseAllowedHosts('allowedHosts', input.allowedHosts),
    ui: input.ui ?? defaultBrowserOptions.ui,
  };
}
