/**
 * The DNS-rebinding guard: a request whose `Host` names something other than an address of this mock is refused,
 * so a web page on `evil.example` whose name its attacker re-points at 127.0.0.1 cannot reach the mock through the
 * developer's browser. IP literals and loopback names cannot be re-pointed by a website, so they always pass; so
 * does a request with no `Host` at all (in-process `app.fetch` and Mock Service Worker have no socket and send none;
 * browsers always send one). The port is not compared: Docker and SSH port forwarding change it legitimately, and a
 * website's name is what rebinding abuses.
 *
 * @module
 */
import { ipVersion } from '../../../internal/ip-address.ts';

/** What the guard needs: the listen address and the user's extra names. */
export interface HostCheckOptions {
  /** The `host` option (`--host`): a name or address the mock listens on. */
  readonly host: string;
  /** Extra accepted names (a leading dot: the domain and its subdomains); `true` accepts any. */
  readonly allowedHosts: readonly string[] | true;
}

/** The host name of a `Host` header value (lower case, no port, no brackets), or undefined when it is not one. */
export function hostName(header: string): string | undefined {
  const value = header.trim().toLowerCase();
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    if (end === -1) return undefined;
    const rest = value.slice(end + 1);
    if (rest !== '' && !/^:\d{1,5}$/.test(rest)) return undefined;
    return value.slice(1, end);
  }
  const colon = value.lastIndexOf(':');
  const name = colon === -1 ? value : value.slice(0, colon);
  if (colon !== -1 && !/^\d{1,5}$/.test(value.slice(colon + 1))) return undefined;
  const bare = name.endsWith('.') ? name.slice(0, -1) : name;
  return /^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/.test(bare) ? bare : undefined;
}

/**
 * Creates `(hostHeader) => allowed`.
 *
 * @example
 * const allowed = createHostCheck({ host: '127.0.0.1', allowedHosts: [] });
 * allowed('localhost:4010') // true
 * allowed('evil.example:4010') // false
 */
export function createHostCheck(options: HostCheckOptions): (hostHeader: string | undefined) => boolean {
  if (options.allowedHosts === true) return () => true;
  const listenName = hostName(options.host);
  const exact = new Set<string>(listenName === undefined ? [] : [listenName]);
  const domains: string[] = [];
  for (const entry of options.allowedHosts) {
    if (entry.startsWith('.')) {
      exact.add(entry.slice(1));
      domains.push(entry);
    } else exact.add(entry);
  }
  const decide = (hostHeader: string): boolean => {
    const name = hostName(hostHeader);
    if (name === undefined) return false;
    if (ipVersion(name) !== 0 || name === 'localhost' || name.endsWith('.localhost') || exact.has(name)) return true;
    return domains.some((d) => name.endsWith(d));
  };
  // A client sends the same Host on every request: remember the last verdict, so the hot path is one comparison.
  let lastHeader: string | undefined;
  let lastVerdict = false;
  return (hostHeader) => {
    if (hostHeader === undefined) return true;
    if (hostHeader !== lastHeader) {
      lastVerdict = decide(hostHeader);
      lastHeader = hostHeader;
    }
    return lastVerdict;
  };
}
