/**
 * How `verify` adjusts a replayed request in pact-js's verification proxy before it reaches the in-process mock:
 *
 * - **The state's token.** A Pact V2 file cannot carry provider-state generators, and a pact without them sends the
 *   token its consumer recorded, which no mock issued. When the interaction's provider state issued a token, that
 *   token replaces the request's `x-jwt-token`, as a provider team's request filter would. A token serves the one
 *   request after its state change only, so an interaction without a state keeps the token it sends.
 * - **The body length.** The proxy parses a JSON body and sends it re-serialised, with the original `Content-Length`;
 *   a body written with spaces (a V4 body stored as JSON text) then arrives shorter than announced, and the mock waits
 *   for bytes that never come until the verifier gives up ("error sending request"). The length is set to what is sent.
 *
 * @module
 */
import { serviceHeaders } from '../../contract/service-names.ts';

/** Path of pact-js's own state change route in its verification proxy. */
const pactSetupPath = '/_pactSetup';

/** The parts of pact-js's (express) request this filter reads and changes. */
interface ProxiedRequest {
  readonly path: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body?: unknown;
}

/** A request filter for pact-js's `Verifier` (`VerifierOptions['requestFilter']`, an express middleware). */
export type VerifierRequestFilter = (req: ProxiedRequest, res: unknown, next: () => void) => void;

/** The token the last provider state issued, handed to the next request that sends `x-jwt-token`. */
export interface StateTokenRelay {
  /** Called with each state setup's values; keeps their `token`, if any. */
  issued(values: unknown): void;
  /** The proxy's request filter. */
  readonly filter: VerifierRequestFilter;
}

/**
 * Creates the request filter of one verification run.
 *
 * @example
 * const relay = createStateTokenRelay();
 * new Verifier({ ..., stateHandlers: relayTokens(stateHandlers(mock), relay), requestFilter: relay.filter });
 */
export function createStateTokenRelay(): StateTokenRelay {
  let token: string | undefined;
  return {
    issued(values) {
      const t = typeof values === 'object' && values !== null ? (values as { token?: unknown }).token : undefined;
      token = typeof t === 'string' && t !== '' ? t : undefined;
    },
    filter: (req, _res, next) => {
      // The state change requests pass through this filter too; their handler calls `issued` after it.
      if (req.path === pactSetupPath) return next();
      const t = token;
      token = undefined;
      if (t !== undefined && typeof req.headers[serviceHeaders.jwt] === 'string') req.headers[serviceHeaders.jwt] = t;
      // pact-js sends a parsed JSON body as JSON.stringify(body) (its parseBody); announce that length.
      if (typeof req.body === 'object' && req.body !== null && !Buffer.isBuffer(req.body)) {
        req.headers['content-length'] = String(Buffer.byteLength(JSON.stringify(req.body)));
      }
      next();
    },
  };
}
