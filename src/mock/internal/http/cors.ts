/**
 * CORS answers for one group of paths: which origins may read the mock's answers from a browser, the headers a
 * preflight gets, and the headers added to every answer (errors included) for a cross-origin request. Computed
 * once per policy, so a request adds a lookup, not string building.
 *
 * @module
 */
import { serviceHeaders } from '../../../spec-names.ts';
import type { CorsOrigins } from './browser-options.ts';

/** Request headers a preflight may ask for: the ones the service reads (spec 5) and the JSON body's type. */
export const corsAllowedHeaders: readonly string[] = [
  'content-type',
  serviceHeaders.jwt,
  serviceHeaders.clientId,
  serviceHeaders.apiKey,
  // The control token (--control-token) of a page or tool on an origin --control-cors allows.
  'authorization',
];

/** How long a browser may cache a preflight answer, in seconds (Chromium caps this at 7,200). */
export const corsMaxAgeSeconds = 600;

/** One group's CORS rules. */
export interface CorsPolicy {
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
export function createCorsPolicy(origins: CorsOrigins): CorsPolicy {
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
