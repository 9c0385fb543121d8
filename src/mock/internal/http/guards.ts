/**
 * The guards a request passes before its route runs, as the pipeline's named steps take them:
 *
 * - the host check against DNS rebinding: a `Host` naming something other than an address of this mock is refused,
 *   so a page on `evil.example` whose name its attacker re-points at 127.0.0.1 cannot reach the mock through the
 *   developer's browser. IP literals and loopback names cannot be re-pointed by a website, so they always pass; so
 *   does a request with no `Host` (in-process `app.fetch` and Mock Service Worker send none; browsers always do).
 *   The port is not compared: Docker and SSH forwarding change it legitimately, and rebinding abuses the name;
 * - CORS: preflight answers, and the headers every answer (errors included) gets for a cross-origin request,
 *   computed once per policy. Service paths follow `cors`; the control API, the published sources, the pages and
 *   unknown paths follow `controlCors`, and cross-origin calls to them are refused unless it allows their origin
 *   (localhost CSRF: any page a developer visits could otherwise reset the mock or settle payments);
 * - the control token: with one, every request under `/__pck/` must carry `Authorization: Bearer <token>`, checked in
 *   constant time by the platform's `secretMatcher`, or gets 401 in the control API's shape. The page shells stay
 *   public: a navigation cannot send the header, and they hold only code; the data they fetch needs the token.
 *   Also here: whether a listen host is loopback, since a mock reachable from other machines must have a token.
 *
 * @module
 */
import { ipVersion } from '../../../internal/ip-address.ts';
import { kitMessage } from '../../../internal/messages.ts';
import { controlPrefix, serviceHeaders } from '../../../spec-names.ts';
import type { CorsOrigins, ResolvedBrowserOptions } from './browser-options.ts';
import { type ErrorMapper, type MockRequest, type Outcome, type RouteKind, requestHeader } from './exchange.ts';

/** What the guard needs: the listen address and the user's extra names. */
interface HostCheckOptions {
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

/** Request headers a preflight may ask for: the ones the service reads (spec 5) and the JSON body's type. */
const corsAllowedHeaders: readonly string[] = [
  'content-type',
  serviceHeaders.jwt,
  serviceHeaders.clientId,
  serviceHeaders.apiKey,
  // The control token (--control-token) of a page or tool on an origin --control-cors allows.
  'authorization',
];

/** How long a browser may cache a preflight answer, in seconds (Chromium caps this at 7,200). */
const corsMaxAgeSeconds = 600;

/** One group's CORS rules. */
interface CorsPolicy {
  /** Whether answers to `origin` may be read cross-origin. */
  allows(origin: string): boolean;
  /** Headers to add to an answer to a request that sent `Origin: origin` (none when the origin is not allowed). */
  answerHeaders(origin: string): Readonly<Record<string, string>> | undefined;
  /** Headers of a successful preflight for `origin` on a path allowing `allow`; undefined: refuse it. */
  preflightHeaders(origin: string, allow: string): Record<string, string> | undefined;
}

// `allow` names the methods in a 405; the other answer headers a script needs are CORS-safelisted already.
const exposed = 'allow';
const preflightVary = 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers';

/**
 * Creates the policy for `origins`.
 *
 * @example
 * createCorsPolicy('*').answerHeaders('http://localhost:5173') // { 'access-control-allow-origin': '*', ... }
 */
function createCorsPolicy(origins: CorsOrigins): CorsPolicy {
  const allowHeaders = corsAllowedHeaders.join(', ');
  const anyOrigin = origins === '*';
  const listed = new Set(origins === '*' || origins === false ? [] : origins);
  // A listed origin's answer differs by Origin, so caches must key on it; "*" answers the same to everyone.
  const varyOnly: Readonly<Record<string, string>> = Object.freeze({ vary: 'Origin' });
  const star: Readonly<Record<string, string>> = Object.freeze({
    'access-control-allow-origin': '*',
    'access-control-expose-headers': exposed,
  });
  const perOrigin = new Map<string, Readonly<Record<string, string>>>();
  for (const origin of listed)
    perOrigin.set(
      origin,
      Object.freeze({
        'access-control-allow-origin': origin,
        'access-control-expose-headers': exposed,
        vary: 'Origin',
      }),
    );
  const allows = (origin: string) => anyOrigin || listed.has(origin);
  return {
    allows,
    answerHeaders(origin) {
      if (anyOrigin) return star;
      return perOrigin.get(origin) ?? (listed.size > 0 ? varyOnly : undefined);
    },
    preflightHeaders(origin, allow) {
      if (!allows(origin)) return undefined;
      return {
        'access-control-allow-origin': anyOrigin ? '*' : origin,
        'access-control-allow-methods': allow,
        'access-control-allow-headers': allowHeaders,
        'access-control-max-age': String(corsMaxAgeSeconds),
        vary: preflightVary,
      };
    },
  };
}

/** What the guard says of one request. */
export interface BrowserGuard {
  /**
   * A refusal or a preflight answer for `request`, or undefined to go on. `kind` is the matched route's (undefined:
   * no route); `allow` its methods, when a route matched.
   */
  check(request: MockRequest, kind: RouteKind | undefined, allow: string | undefined): Outcome | undefined;
  /** CORS headers for the answer to `request` (undefined: none to add). */
  answerHeaders(request: MockRequest, kind: RouteKind | undefined): Readonly<Record<string, string>> | undefined;
}

/** What the guard needs. */
interface BrowserGuardDeps {
  readonly options: ResolvedBrowserOptions;
  /** The `host` option. */
  readonly host: string;
  readonly errors: ErrorMapper;
}

/** Longest piece of a client's header quoted back in a message. */
const quoteLimit = 100;
const quote = (text: string) => JSON.stringify(text.length > quoteLimit ? `${text.slice(0, quoteLimit)}…` : text);

/** Whether `origin` is the page the request's own `Host` serves (the mock's pages calling the mock). */
function sameOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined) return false;
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' && url.host === new URL(`http://${host}`).host;
  } catch {
    return false;
  }
}

/** Creates the guard. */
export function createBrowserGuard(deps: BrowserGuardDeps): BrowserGuard {
  const { options, errors } = deps;
  const hostAllowed = createHostCheck({ host: deps.host, allowedHosts: options.allowedHosts });
  const service = createCorsPolicy(options.cors);
  const control = createCorsPolicy(options.controlCors);
  const policyOf = (kind: RouteKind | undefined): CorsPolicy =>
    kind === 'rest' || kind === 'graphql' ? service : control;
  const flagOf = (kind: RouteKind | undefined) =>
    kind === 'rest' || kind === 'graphql' ? '--cors (option cors)' : '--control-cors (option controlCors)';

  const refuse = (kind: RouteKind | undefined, message: string): Outcome =>
    errors.layer(kind, 403, kitMessage(message));

  return {
    check(request, kind, allow) {
      const host = requestHeader(request, 'host');
      if (!hostAllowed(host))
        return refuse(
          kind,
          `Refused: the Host header ${quote(host ?? '')} is not an address of this mock (a guard against DNS rebinding). Call it through 127.0.0.1, localhost or its --host, or start it with --allowed-hosts <name> (option allowedHosts).`,
        );
      const origin = requestHeader(request, 'origin');
      if (origin === undefined) return undefined;
      const policy = policyOf(kind);
      if (request.method === 'OPTIONS' && allow !== undefined && request.headers['access-control-request-method']) {
        const headers = sameOrigin(origin, host) ? undefined : policy.preflightHeaders(origin, allow);
        if (headers) return { status: 204, text: '', headers };
        return refuse(
          kind,
          `Cross-origin requests from ${quote(origin)} to ${request.path} are not allowed: start the mock with ${flagOf(kind)} listing that origin.`,
        );
      }
      if (policy === control && !sameOrigin(origin, host) && !control.allows(origin))
        return refuse(
          kind,
          `Cross-origin requests from ${quote(origin)} to the mock's own paths (the control API, its pages and files) are refused so other websites cannot drive it: start the mock with --control-cors ${quote(origin)} (option controlCors) to allow that origin.`,
        );
      return undefined;
    },
    answerHeaders(request, kind) {
      const origin = requestHeader(request, 'origin');
      if (origin === undefined) return undefined;
      return policyOf(kind).answerHeaders(origin);
    },
  };
}

/** The check the pipeline runs on a request under `/__pck/`: undefined to go on, else the 401 to answer. */
export type ControlTokenCheck = (request: MockRequest) => Outcome | undefined;

/** The environment variable and flag that set the token, named in messages. */
const controlTokenNames = { flag: '--control-token', env: 'PCK_CONTROL_TOKEN', option: 'controlToken' } as const;

const bearer = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  return bearer.exec(header)?.[1];
}

/**
 * The check for `token`, or undefined when the control plane is open (no token configured).
 *
 * @example
 * const check = createControlTokenCheck('s3cret', platform.crypto.secretMatcher, errors);
 * check?.(request); // undefined when the request carries `Authorization: Bearer s3cret`
 */
export function createControlTokenCheck(
  token: string | undefined,
  secretMatcher: (secret: string) => (candidate: string) => boolean,
  errors: ErrorMapper,
): ControlTokenCheck | undefined {
  if (token === undefined) return undefined;
  const matches = secretMatcher(token);
  const challenge = { 'www-authenticate': 'Bearer realm="payment-contract-kit control API"' };
  return (request) => {
    if (!request.path.startsWith(controlPrefix)) return undefined;
    const given = bearerToken(request.headers.authorization);
    if (given !== undefined && matches(given)) return undefined;
    const problem =
      given === undefined ? 'needs the header "Authorization: Bearer <control token>"' : 'got a wrong control token';
    return errors.layer(
      'control',
      401,
      kitMessage(
        `${request.path} ${problem}: this mock was started with a control token (${controlTokenNames.flag} / ${controlTokenNames.env}). Send the same secret as a Bearer token.`,
      ),
      challenge,
    );
  };
}

/** Whether `host` only accepts connections from this machine (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost') || bare === '::1') return true;
  if (/^::ffff:127\.\d+\.\d+\.\d+$/.test(bare)) return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

/**
 * Why the mock must not listen on `host` as configured, or undefined: a host other machines can reach (`0.0.0.0`
 * and `::` included) needs a control token, or anyone there could reset the sandbox or move its clock.
 */
export function controlTokenRefusal(host: string, token: string | undefined): string | undefined {
  if (token !== undefined || isLoopbackHost(host)) return undefined;
  return kitMessage(
    `mock: refusing to listen on ${host} without a control token: other machines could reset the sandbox or move its clock. Set one with ${controlTokenNames.env}=<secret> (or ${controlTokenNames.flag} <secret>, or the ${controlTokenNames.option} option), or listen on 127.0.0.1.`,
  );
}
