/**
 * The token endpoints (spec 4.1 to 4.3, 7.1): the request against openapi.yaml's operation (POST, x-client-id and
 * x-api-key, the refresh body) and the answer against 2.1 (200), 7.1 (401, 500) and the ledger (the unit of
 * `expiration`, the revoke body). Any other status, or an answer that is not JSON, is a contract drift at `(http)`.
 *
 * @module
 */
import type { Assumptions } from '../../assumptions.ts';
import { isPlainObject } from '../../internal/plain-object.ts';
import { errorShapeText, restErrorStatus } from '../error-shapes.ts';
import { serviceHeaders, servicePaths } from '../service-names.ts';
import type { DriftList } from './drift-list.ts';
import type { Exchange, ExchangeResponse } from './exchange.ts';
import { answerTime, isJsonMediaType, type JsonBody, mediaType, readJson } from './exchange-parts.ts';
import { showValue } from './show-value.ts';

/** The token endpoints, by path. */
export type TokenEndpoint = 'generateToken' | 'refreshToken' | 'revokeToken';

const SPEC_21 = 'spec 2.1: { status: "SUCCESS", data: { token: string, refresh_token: string, expiration: integer } }';
const SPEC_71 = errorShapeText.rest;

/**
 * The token endpoint a path names, or undefined.
 *
 * @example
 * tokenEndpointOf('/api/v2/accounting/token/refresh-token'); // 'refreshToken'
 */
export function tokenEndpointOf(path: string): TokenEndpoint | undefined {
  if (path === servicePaths.generateToken) return 'generateToken';
  if (path === servicePaths.refreshToken) return 'refreshToken';
  if (path === servicePaths.revokeToken) return 'revokeToken';
  return undefined;
}

function checkRequest(endpoint: TokenEndpoint, exchange: Exchange, list: DriftList): void {
  const { request } = exchange;
  const where = `POST ${servicePaths[endpoint]}`;
  if (request.method !== 'POST')
    list.consumer({
      path: '(http)',
      expected: `POST (openapi.yaml ${endpoint})`,
      actual: request.method,
      message: `${request.method} ${servicePaths[endpoint]} is not an operation of the service: send ${where}.`,
    });
  for (const header of [serviceHeaders.clientId, serviceHeaders.apiKey])
    if (!request.headers[header])
      list.consumer({
        path: `(header) ${header}`,
        expected: `a non-empty ${header} header (spec 4, 5)`,
        actual: '(none)',
        message: `${where} needs the ${header} header; the service refuses the call without it (401).`,
      });
  if (endpoint !== 'refreshToken' || request.bodyNotRecorded) return;
  const body = readJson(request);
  const value = body.state === 'json' ? body.value : undefined;
  if (!isPlainObject(value) || typeof value.refresh_token !== 'string' || value.refresh_token === '')
    list.consumer({
      path: isPlainObject(value) ? 'refresh_token' : '(body)',
      expected: 'a JSON body { refresh_token: string } (spec 4.2)',
      actual: isPlainObject(value) ? showValue(value.refresh_token, 'refresh_token') : bodyWords(body),
      message: `Send the refresh_token that generate-token answered as a JSON body { "refresh_token": "…" } to ${where}.`,
    });
}

function bodyWords(body: JsonBody): string {
  if (body.state === 'none') return '(no body)';
  if (body.state === 'invalid') return 'a body that is not JSON';
  return showValue(body.value);
}

/**
 * The status line and content type; answers the JSON body when the answer is one the contract allows: a status the
 * interface lists, or, for a request that broke the contract, one the ledger records as the refusal of a bad request
 * (`unlistedStatuses`), which then carries the 7.1 body like any other error answer.
 */
function checkHttp(
  endpoint: TokenEndpoint,
  response: ExchangeResponse,
  assumptions: Assumptions,
  list: DriftList,
): JsonBody | undefined {
  const { status } = response;
  const documented = [200, 401, 500];
  // Only a request that broke the contract earns a refusal: a good one answered so is still the service's drift.
  const badRequest = list.drifts.some((d) => d.kind === 'consumer');
  const inLedger = badRequest && assumptions.unlistedStatuses.some((s) => s.status === status);
  if (!documented.includes(status) && !inLedger) {
    const failed = status >= 502 && status <= 504;
    (failed ? list.upstream : list.contract)({
      side: 'response',
      path: '(http)',
      expected: `HTTP ${documented.join(', ')} (spec 4.${endpoint === 'generateToken' ? 1 : endpoint === 'refreshToken' ? 2 : 3}, 7.1)`,
      actual: `HTTP ${status}`,
      message: failed
        ? `The service failed with HTTP ${status}: check its status, then try again.`
        : `The service answered ${servicePaths[endpoint]} with HTTP ${status}, which the interface does not list; report it to the service's operator or record it in your integration's error handling.`,
    });
    return undefined;
  }
  if (response.bodyNotRecorded) return undefined;
  const body = readJson(response);
  if (body.state === 'none' && endpoint === 'revokeToken' && status === 200) return body;
  const type = mediaType(response);
  if (!isJsonMediaType(type) || body.state === 'invalid') {
    list.contract({
      side: 'response',
      path: '(http)',
      expected: 'Content-Type: application/json with a JSON body (spec 4)',
      actual:
        body.state === 'invalid'
          ? `${type ?? 'no content type'}, a body that is not JSON`
          : `${type ?? 'no content type'}`,
      message: `The service's answer to ${servicePaths[endpoint]} is not JSON; the interface says requests and responses are JSON.`,
    });
    return body.state === 'json' ? body : undefined;
  }
  return body;
}

function checkErrorBody(value: unknown, list: DriftList): void {
  if (!isPlainObject(value)) {
    list.contract({
      side: 'response',
      path: '(body)',
      expected: SPEC_71,
      actual: showValue(value),
      message: 'The error answer is not the 7.1 object { status: "ERROR", message }.',
    });
    return;
  }
  if (value.status !== restErrorStatus)
    list.contract({
      side: 'response',
      path: 'status',
      expected: '"ERROR" (spec 7.1)',
      actual: showValue(value.status),
      message: 'An error answer of a token endpoint carries status "ERROR" (spec 7.1).',
    });
  if (typeof value.message !== 'string')
    list.contract({
      side: 'response',
      path: 'message',
      expected: 'a string (spec 7.1)',
      actual: showValue(value.message),
      message: 'An error answer of a token endpoint carries a message string (spec 7.1).',
    });
}

/** Which unit an expiration value is in, judged against the answer's time (or, without one, by its size). */
function expirationUnitOf(value: number, now: number | undefined): 'seconds' | 'milliseconds' | 'relative' {
  const day = 86_400;
  if (value > 0 && value <= 2 * day) return 'relative';
  if (now !== undefined) {
    if (Math.abs(value - now / 1000) <= 2 * day) return 'seconds';
    if (Math.abs(value - now) <= 2 * day * 1000) return 'milliseconds';
  }
  return value >= 1e11 ? 'milliseconds' : 'seconds';
}

function checkTokenPair(value: unknown, response: ExchangeResponse, assumptions: Assumptions, list: DriftList): void {
  const add = (path: string, expected: string, actual: unknown, name?: string) =>
    list.contract({
      side: 'response',
      path,
      expected: `${expected} (${SPEC_21})`,
      actual: showValue(actual, name),
      message: `The token answer's ${path} is not what spec 2.1 states.`,
    });
  if (!isPlainObject(value)) {
    add('(body)', 'a token pair object', value);
    return;
  }
  if (value.status !== 'SUCCESS') add('status', '"SUCCESS"', value.status);
  const data = value.data;
  if (!isPlainObject(data)) {
    add('data', 'an object', data);
    return;
  }
  if (typeof data.token !== 'string') add('data.token', 'a string', data.token, 'token');
  if (typeof data.refresh_token !== 'string') add('data.refresh_token', 'a string', data.refresh_token, 'token');
  const expiration = data.expiration;
  if (typeof expiration !== 'number' || !Number.isInteger(expiration)) {
    add('data.expiration', 'an integer', expiration);
    return;
  }
  const unit = expirationUnitOf(expiration, answerTime(response));
  if (unit === assumptions.expirationUnit) return;
  list.assumption({
    side: 'response',
    path: 'data.expiration',
    expected: `a Unix time in ${assumptions.expirationUnit} (ledger expirationUnit)`,
    actual: `${expiration} (${unit === 'relative' ? 'a number of seconds from now' : `a Unix time in ${unit}`})`,
    ledgerKey: 'expirationUnit',
    ...(unit === 'relative' ? {} : { observed: unit }),
    message:
      unit === 'relative'
        ? 'The service gives expiration as a lifetime, not a point in time; the mock cannot answer that way yet, so read it as seconds from now in your client.'
        : `The service gives expiration in ${unit}: start the mock with assumptions.expirationUnit "${unit}" to answer the same way.`,
  });
}

/**
 * An answer object as `{ status: "OK", message: "Done" }`: its first fields, each shown as drifts show values (cut,
 * masked, secrets hidden). Not JSON.stringify: a service's body nested thousands of levels ran it out of stack, and
 * a long or card-bearing one would have gone into the report whole.
 */
function fieldsText(value: Record<string, unknown>): string {
  const entries = Object.entries(value);
  const shown = entries.slice(0, 5).map(([k, v]) => `${JSON.stringify(k.slice(0, 40))}: ${showValue(v, k)}`);
  return `{ ${shown.join(', ')}${entries.length > 5 ? `, … (${entries.length} fields)` : ''} }`;
}

function checkRevokeBody(body: JsonBody, assumptions: Assumptions, list: DriftList): void {
  const expected = assumptions.revokeTokenBody;
  const value = body.state === 'json' ? body.value : undefined;
  // `data` is the mock's account of what it revoked (the ledger row): a service may send it or not.
  const same =
    isPlainObject(value) &&
    Object.keys(value).filter((k) => k !== 'data').length === Object.keys(expected).length &&
    Object.entries(expected).every(([k, v]) => value[k] === v);
  if (same) return;
  const observed =
    isPlainObject(value) && typeof value.status === 'string' && typeof value.message === 'string'
      ? { status: value.status, message: value.message }
      : undefined;
  list.assumption({
    side: 'response',
    path: '(body)',
    expected: JSON.stringify(expected),
    actual: body.state === 'none' ? '(no body)' : isPlainObject(value) ? fieldsText(value) : bodyWords(body),
    ledgerKey: 'revokeTokenBody',
    ...(observed ? { observed } : {}),
    message: observed
      ? 'The service answers revoke-token with another body: set assumptions.revokeTokenBody to it so the mock does the same.'
      : "The service's revoke-token answer is not a { status, message } object; do not read its body in your client.",
  });
}

/**
 * Checks an exchange with a token endpoint: request first, then the answer.
 *
 * @example
 * checkTokenExchange('generateToken', exchange, defaultAssumptions, list);
 */
export function checkTokenExchange(
  endpoint: TokenEndpoint,
  exchange: Exchange,
  assumptions: Assumptions,
  list: DriftList,
): void {
  checkRequest(endpoint, exchange, list);
  const { response } = exchange;
  if (!response) return;
  const body = checkHttp(endpoint, response, assumptions, list);
  if (!body || body.state === 'invalid') return;
  if (response.status !== 200) {
    if (body.state === 'json') checkErrorBody(body.value, list);
    else
      list.contract({
        side: 'response',
        path: '(body)',
        expected: SPEC_71,
        actual: '(no body)',
        message: 'An error answer of a token endpoint carries the 7.1 body { status: "ERROR", message }.',
      });
    return;
  }
  if (endpoint === 'revokeToken') checkRevokeBody(body, assumptions, list);
  else checkTokenPair(body.state === 'json' ? body.value : undefined, response, assumptions, list);
}
