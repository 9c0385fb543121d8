/**
 * Which case of the ledger's `reasonCodes` an unknown reason code of the service stands for, so `suggestedConfig`
 * can put it under the right key. The checker reports the code alone; the proxy also has the request, which settles
 * the plain cases (no `x-jwt-token` sent: `missingToken`; a body that is not JSON: `badRequest`), and the code's
 * own words settle the rest (`..._EXPIRED`: `expiredToken`). A code that says neither stays out of the config (the
 * drift still names it).
 *
 * @module
 */
import type { Assumptions } from '../assumptions.ts';
import type { Drift, Exchange } from '../contract/check/exchange.ts';
import { serviceHeaders } from '../contract/service-names.ts';

/** A case of `reasonCodes`. */
export type ReasonCase = keyof Assumptions['reasonCodes'];

// Order matters: the more specific words first.
const byWords: readonly (readonly [RegExp, ReasonCase])[] = [
  [/EXPIRE/i, 'expiredToken'],
  [/REVOKE/i, 'revokedToken'],
  [/MISMATCH/i, 'clientMismatch'],
  [/CLIENT.*(HEADER|MISSING|REQUIRED)|(HEADER|MISSING|REQUIRED).*CLIENT/i, 'missingClientHeaders'],
  [/PARSE|SYNTAX/i, 'graphqlParseFailed'],
  [/VALIDAT/i, 'graphqlValidationFailed'],
  [/INTERNAL|SERVER_ERROR/i, 'internal'],
  [/(TOKEN|JWT|AUTH).*(MISSING|REQUIRED|ABSENT)|(MISSING|REQUIRED|NO).*(TOKEN|JWT)/i, 'missingToken'],
  [/INVALID|UNAUTH|FORBIDDEN|BAD_TOKEN|MALFORMED/i, 'invalidToken'],
  [/BAD_REQUEST|BAD_USER_INPUT|INVALID_REQUEST/i, 'badRequest'],
];

function isJsonObject(body: string | undefined): boolean {
  if (body === undefined) return false;
  try {
    const v: unknown = JSON.parse(body);
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
}

/**
 * The case an unknown reason code stands for, from the request and the code's words; undefined when unclear.
 *
 * @example
 * reasonCase('NO_TOKEN', exchangeWithoutJwtHeader) // 'missingToken'
 */
export function reasonCase(code: string, exchange: Exchange): ReasonCase | undefined {
  const { headers, body } = exchange.request;
  if (!headers[serviceHeaders.jwt]) return 'missingToken';
  if (!isJsonObject(body)) return 'badRequest';
  return byWords.find(([words]) => words.test(code))?.[1];
}

/**
 * The drift with its `observed` reason code put under its case (`{ missingToken: "NO_TOKEN" }`), as `suggestedConfig`
 * merges it into `reasonCodes`; other drifts unchanged.
 */
export function withReasonCase(drift: Drift, exchange: Exchange): Drift {
  if (drift.ledgerKey !== 'reasonCodes' || typeof drift.observed !== 'string') return drift;
  const found = reasonCase(drift.observed, exchange);
  if (found === undefined) {
    const { observed: _code, ...rest } = drift;
    return rest;
  }
  return { ...drift, observed: { [found]: drift.observed } };
}
