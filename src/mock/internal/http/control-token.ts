/**
 * The secured control plane: with a control token, every request under `/__pck/` must carry
 * `Authorization: Bearer <token>`, checked in constant time by the platform's `secretMatcher`; a missing or wrong
 * token gets 401 in the control API's shape. The page shells (GraphiQL, the dashboard, the reference and their
 * assets) stay public: a browser's navigation cannot send the header, and they hold nothing but code; the data they
 * fetch needs the token, which they ask for once.
 *
 * Also here: whether a listen host is loopback, since a mock reachable from other machines must have a token.
 *
 * @module
 */
import { kitMessage } from '../../../internal/messages.ts';
import { controlPrefix } from '../../../spec-names.ts';
import type { ErrorMapper } from './error-mapping.ts';
import type { MockRequest } from './exchange.ts';
import type { Outcome } from './outcome.ts';

/** The check the pipeline runs on a request under `/__pck/`: undefined to go on, else the 401 to answer. */
export type ControlTokenCheck = (request: MockRequest) => Outcome | undefined;

/** The environment variable and flag that set the token, named in messages. */
export const controlTokenNames = { flag: '--control-token', env: 'PCK_CONTROL_TOKEN', option: 'controlToken' } as const;

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
