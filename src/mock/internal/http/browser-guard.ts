/**
 * The pipeline's browser step: refuses requests whose `Host` is not the mock's (DNS rebinding), answers CORS
 * preflights, refuses cross-origin calls to the mock's own paths unless `controlCors` allows their origin
 * (localhost CSRF: a form or `fetch` from any page a developer visits could otherwise reset the mock or settle
 * payments), and names the CORS headers every answer gets. Service paths follow `cors`; the control API, the
 * published sources, the pages and unknown paths follow `controlCors`.
 *
 * @module
 */
import { kitMessage } from '../../../internal/messages.ts';
import type { ResolvedBrowserOptions } from './browser-options.ts';
import { type CorsPolicy, createCorsPolicy } from './cors.ts';
import type { ErrorMapper } from './error-mapping.ts';
import { type MockRequest, requestHeader } from './exchange.ts';
import { createHostCheck } from './host-check.ts';
import type { Outcome } from './outcome.ts';
import type { RouteKind } from './router.ts';

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
export interface BrowserGuardDeps {
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

  const refuse = (kind: RouteKind | undefined, status: number, message: string): Outcome =>
    errors.layer(kind, status, kitMessage(message));

  return {
    check(request, kind, allow) {
      const host = requestHeader(request, 'host');
      if (!hostAllowed(host))
        return refuse(
          kind,
          403,
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
          403,
          `Cross-origin requests from ${quote(origin)} to ${request.path} are not allowed: start the mock with ${flagOf(kind)} listing that origin.`,
        );
      }
      if (policy === control && !sameOrigin(origin, host) && !control.allows(origin))
        return refuse(
          kind,
          403,
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
