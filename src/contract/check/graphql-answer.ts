/**
 * The answer half of a GraphQL exchange: HTTP status and content type, a JSON object of `data`, `errors` and
 * `extensions` only, `data` exactly as the query selected it (the walk `verify` uses too), errors in the 7.2 and 7.3
 * shapes, then the ledger (graphql-ledger-check.ts).
 *
 * @module
 */
import { Kind } from 'graphql/index.js';
import type { Assumptions } from '../../assumptions.ts';
import { clause } from '../../internal/messages.ts';
import { isPlainObject } from '../../internal/plain-object.ts';
import type { DriftList } from './drift-list.ts';
import type { ExchangeResponse } from './exchange.ts';
import { isJsonMediaType, mediaType, readJson } from './exchange-parts.ts';
import type { Finding } from './finding.ts';
import { checkErrorShape } from './graphql-error-shape.ts';
import { checkGraphqlLedger } from './graphql-ledger-check.ts';
import type { GraphqlRequestFacts } from './graphql-request.ts';
import { guideSource } from './graphql-request.ts';
import { checkSelection, rootType } from './graphql-response-check.ts';
import { guideSchemas } from './graphql-schemas.ts';
import { showValue } from './show-value.ts';
import { formatPath } from './value-path.ts';

function asContract(findings: readonly Finding[], list: DriftList, what: string): void {
  for (const f of findings)
    list.contract({
      side: 'response',
      path: formatPath(f.path, ''),
      expected: f.expected,
      actual: f.message,
      message: `The service's ${what} breaks the contract at ${formatPath(f.path, '')}: ${clause(f.message)}.`,
    });
}

/** The status line; false when the answer is not a GraphQL answer at all (nothing more to check). */
function checkStatus(
  response: ExchangeResponse,
  hasErrors: boolean,
  hasData: boolean,
  a: Assumptions,
  list: DriftList,
): void {
  const { status } = response;
  if (status >= 500) {
    list.upstream({
      side: 'response',
      path: '(http)',
      expected: hasErrors ? `HTTP ${a.graphqlErrorHttpStatus} (ledger graphqlErrorHttpStatus)` : 'HTTP 200',
      actual: `HTTP ${status}`,
      message: `The service failed with HTTP ${status}: check its status, then try again.`,
    });
    return;
  }
  if (hasErrors && !hasData) {
    // A request that broke the contract (a body past the limit, a wrong method) may be refused with a status the
    // ledger records for it: that is the refusal's own status, not the status of GraphQL errors.
    const refused =
      list.drifts.some((d) => d.kind === 'consumer') && a.unlistedStatuses.some((s) => s.status === status);
    if (status !== a.graphqlErrorHttpStatus && !refused)
      list.assumption({
        side: 'response',
        path: '(http)',
        expected: `HTTP ${a.graphqlErrorHttpStatus} (ledger graphqlErrorHttpStatus)`,
        actual: `HTTP ${status}`,
        ledgerKey: 'graphqlErrorHttpStatus',
        observed: status,
        message: `The service answers GraphQL errors with HTTP ${status}: set assumptions.graphqlErrorHttpStatus to ${status} so the mock does the same, and make your client read errors on that status.`,
      });
    return;
  }
  if (status !== 200)
    list.contract({
      side: 'response',
      path: '(http)',
      expected: 'HTTP 200 for a GraphQL answer with data',
      actual: `HTTP ${status}`,
      message: `The service answered data with HTTP ${status}; a GraphQL answer with data comes with 200.`,
    });
}

/**
 * Checks the answer of a GraphQL exchange against the facts read from its request.
 *
 * @example
 * checkGraphqlAnswer(exchange.response, facts, assumptions, list);
 */
export function checkGraphqlAnswer(
  response: ExchangeResponse,
  facts: GraphqlRequestFacts,
  assumptions: Assumptions,
  list: DriftList,
): void {
  if (response.bodyNotRecorded) {
    if (response.status >= 500) checkStatus(response, false, false, assumptions, list);
    return;
  }
  const body = readJson(response);
  const type = mediaType(response);
  if (body.state === 'none' || body.state === 'invalid' || !isJsonMediaType(type)) {
    if (response.status >= 500) {
      checkStatus(response, false, false, assumptions, list);
      return;
    }
    if (!facts.readable && response.status >= 400 && response.status < 500) return; // A broken request, refused.
    // The interface says what a POST gets; what answers another method (the mock's GraphiQL page for a browser's GET)
    // is the server's own, and the request is already reported as the consumer's.
    if (!facts.posted) return;
    list.contract({
      side: 'response',
      path: '(http)',
      expected: 'Content-Type: application/json with a JSON GraphQL answer (spec 4)',
      actual: `HTTP ${response.status}, ${type ?? 'no content type'}${body.state === 'none' ? ', no body' : body.state === 'invalid' ? ', a body that is not JSON' : ''}`,
      message: "The service's GraphQL answer is not JSON; the interface says responses are JSON.",
    });
    if (body.state !== 'json') return;
  }
  const value = body.value;
  if (!isPlainObject(value)) {
    list.contract({
      side: 'response',
      path: '(body)',
      expected: 'a GraphQL answer { data } or { errors } (spec 4.4 to 4.6, 7.2)',
      actual: showValue(value),
      message: "The service's GraphQL answer is not a JSON object.",
    });
    return;
  }
  const hasErrors = value.errors !== undefined;
  const hasData = value.data !== undefined && value.data !== null;
  if (facts.readable || response.status >= 500) checkStatus(response, hasErrors, hasData, assumptions, list);
  for (const key of Object.keys(value))
    if (key !== 'data' && key !== 'errors' && key !== 'extensions')
      list.contract({
        side: 'response',
        path: key,
        expected: 'only data, errors and extensions in a GraphQL answer',
        actual: showValue(value[key], key),
        message: `The service's GraphQL answer holds an unknown top-level key "${key}".`,
      });
  if (!('data' in value) && !hasErrors)
    list.contract({
      side: 'response',
      path: '(body)',
      expected: 'a GraphQL answer { data } or { errors }',
      actual: 'neither data nor errors',
      message: "The service's GraphQL answer holds neither data nor errors.",
    });
  const schemas = guideSchemas(facts.guide);
  const source = guideSource[facts.guide];
  if (hasErrors) {
    const operation = facts.operation;
    const rootNode = operation?.selectionSet.selections.find((s) => s.kind === Kind.FIELD);
    const rootFieldIn = (guide: typeof facts.guide) => {
      const rootObject = operation ? guideSchemas(guide).published.getRootType(operation.operation) : undefined;
      return rootNode?.kind === Kind.FIELD && rootObject ? rootObject.getFields()[rootNode.name.value] : undefined;
    };
    const rootField = rootFieldIn(facts.guide);
    // A request that mixes the guides is answered at the path of the field it sent, which may be the other guide's
    // (`input.credit_card.number` beside `payment_reference`): that key is an input path of a guide the request used.
    const otherRoot = facts.mixedGuides ? rootFieldIn(facts.guide === 'current' ? 'legacy' : 'current') : undefined;
    const findings: Finding[] = [];
    checkErrorShape(value.errors, rootField, source, findings, otherRoot);
    asContract(findings, list, 'error answer');
  }
  const operation = facts.operation;
  const root = operation ? rootType(schemas.published, operation.operation) : undefined;
  if (operation && root && value.data !== undefined && !(hasErrors && value.data === null)) {
    const findings: Finding[] = [];
    checkSelection(
      { schema: schemas.published, fragments: facts.fragments, source, out: findings },
      value.data,
      root,
      [operation.selectionSet],
      ['data'],
    );
    asContract(findings, list, 'answer');
  }
  checkGraphqlLedger(value, facts, assumptions, list);
}
