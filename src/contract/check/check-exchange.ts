/**
 * The one checker: an exchange (a live request and its answer through the proxy, a HAR entry for `check`, a
 * webhook) to the drifts found in it, request side first. Paths that are not the service's are skipped with a
 * reason. Nothing here needs Node: the checker runs in a browser through `payment-contract-kit/check`.
 *
 * @module
 */
import { type Assumptions, defaultAssumptions } from '../../assumptions.ts';
import { isPlainObject } from '../../internal/plain-object.ts';
import { servicePaths } from '../service-names.ts';
import { createDriftList, type DriftList } from './drift-list.ts';
import type { CheckOptions, Exchange, ExchangeCheck } from './exchange.ts';
import { pathOf, readJson } from './exchange-parts.ts';
import { checkGraphqlAnswer } from './graphql-answer.ts';
import { checkGraphqlRequest } from './graphql-request.ts';
import { checkTokenExchange, tokenEndpointOf } from './rest-check.ts';
import { checkWebhookExchange } from './webhook-check.ts';

/** Whether the answer carries GraphQL errors (the request then need not satisfy what only a data answer needs). */
function answerHasErrors(exchange: Exchange): boolean {
  if (!exchange.response) return false;
  const body = readJson(exchange.response);
  return body.state === 'json' && isPlainObject(body.value) && body.value.errors !== undefined;
}

/**
 * A request body past the ledger's `limits.maxBodyBytes` is the consumer's mistake: the service refuses it (413, a
 * ledger status) before reading it, so its answer is judged as the answer to a bad request.
 */
function checkBodySize(exchange: Exchange, assumptions: Assumptions, list: DriftList): void {
  const body = exchange.request.body;
  const limit = assumptions.limits.maxBodyBytes;
  // A UTF-8 character is at most 4 bytes: most bodies are decided without encoding them.
  if (body === undefined || body.length * 4 <= limit) return;
  const bytes = new TextEncoder().encode(body).length;
  if (bytes <= limit) return;
  list.consumer({
    path: '(body)',
    expected: `a body of at most ${limit} bytes (ledger limits.maxBodyBytes)`,
    actual: `${bytes} bytes`,
    message: `The request body is ${bytes} bytes, past the ${limit} bytes the service takes: send a smaller body.`,
  });
}

/**
 * Checks one exchange against the contract (spec 2 to 7, openapi.yaml, schema.graphql and its legacy guide) and the
 * ledger (`assumptions`, the kit's defaults when omitted).
 *
 * @example
 * const result = checkExchange({
 *   request: { method: 'POST', url: '/graphql', headers: { 'x-jwt-token': token }, body },
 *   response: { status: 200, headers: { 'content-type': 'application/json' }, body: answer },
 * });
 * for (const drift of result.drifts) console.log(drift.kind, drift.path, drift.message);
 */
export function checkExchange(exchange: Exchange, options: CheckOptions = {}): ExchangeCheck {
  const assumptions: Assumptions = options.assumptions ?? defaultAssumptions;
  const unchecked = [
    ...(exchange.request.bodyNotRecorded ? ['the request body was not recorded'] : []),
    ...(exchange.response?.bodyNotRecorded ? ['the response body was not recorded'] : []),
  ];
  const done = (result: ExchangeCheck): ExchangeCheck => (unchecked.length > 0 ? { ...result, unchecked } : result);
  const list = createDriftList();
  if (exchange.kind === 'webhook') {
    if (!exchange.request.bodyNotRecorded) checkWebhookExchange(exchange, assumptions, list);
    return done({ drifts: list.drifts });
  }
  const path = pathOf(exchange.request.url);
  if (path === undefined) return { skipped: `"${exchange.request.url}" is not a URL`, drifts: [] };
  const endpoint = tokenEndpointOf(path);
  if (endpoint || path === servicePaths.graphql) checkBodySize(exchange, assumptions, list);
  if (endpoint) {
    checkTokenExchange(endpoint, exchange, assumptions, list);
    return done({ drifts: list.drifts });
  }
  if (path !== servicePaths.graphql) return { skipped: `${path} is not a path of the service`, drifts: [] };
  if (exchange.request.method === 'OPTIONS') return { skipped: 'a CORS preflight, not a service call', drifts: [] };
  const facts = checkGraphqlRequest(exchange.request, options.guide ?? 'both', !answerHasErrors(exchange), list);
  if (exchange.response) checkGraphqlAnswer(exchange.response, facts, assumptions, list);
  return done({ guide: facts.guide, operationName: facts.operationName, drifts: list.drifts });
}
