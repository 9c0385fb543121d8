/**
 * The static check of one GraphQL interaction (`POST /graphql` with `{ query, variables, operationName }`) against
 * one guide: the query is valid for the guide's schema, the variables fit the operation's variable types, and the
 * expected answer is either data its selection set can produce or an error in the spec's 7.2/7.3 shape. The request
 * is walked by the checker's own walk (contract/check/graphql-request-walk.ts); this module only words its outcome
 * as verify's mismatches.
 *
 * @module
 */
import {
  type FragmentDefinitionNode,
  type GraphQLOutputType,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
} from 'graphql/index.js';
import type { Finding } from '../../contract/check/finding.ts';
import { checkErrorShape } from '../../contract/check/graphql-error-shape.ts';
import { guideSource, walkGraphqlRequest } from '../../contract/check/graphql-request-walk.ts';
import { checkSelection, rootType } from '../../contract/check/graphql-response-check.ts';
import { type GuideName, guideSchemas } from '../../contract/check/graphql-schemas.ts';
import { guideHint } from '../../contract/check/guide-hint.ts';
import { formatPath } from '../../contract/check/value-path.ts';
import { serviceHeaders } from '../../contract/service-names.ts';
import { isPlainObject } from '../../internal/plain-object.ts';
import { matcherProblems } from './matcher-check.ts';
import { matchersAt } from './matching-rules.ts';
import type { Mismatch, MismatchArea } from './mismatch.ts';
import type { HttpInteraction, RuleEntry } from './pact-model.ts';

// The guide's report names are the request walk's (one walk for `verify` and the checker).
export { guideSource };

/**
 * Checks a GraphQL interaction against a guide; empty when they agree.
 *
 * @example
 * checkGraphqlInteraction(interaction, 'current'); // [] for the kit's own fee list interaction
 */
export function checkGraphqlInteraction(interaction: HttpInteraction, guide: GuideName): Mismatch[] {
  const mismatches = checkAgainst(interaction, guide);
  const other = guideSchemas(guide === 'current' ? 'legacy' : 'current').published;
  return mismatches.map((m) => {
    const hint = m.area === 'request.body' ? guideHint(m.message, guide, other) : undefined;
    return hint ? { ...m, message: `${m.message}${hint}` } : m;
  });
}

/** Findings of a shared contract walk as this report's mismatches, in one area. */
function asMismatches(area: MismatchArea, findings: readonly Finding[], out: Mismatch[]): void {
  for (const f of findings) out.push({ area, path: formatPath(f.path), message: f.message, expected: f.expected });
}

/** The expected `data` walked against the selection, with the pact's matchers checked at each position. */
function checkExpectedData(
  data: unknown,
  where: {
    readonly schema: GraphQLSchema;
    readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>;
    readonly rules: readonly RuleEntry[] | undefined;
    readonly source: string;
  },
  root: GraphQLOutputType,
  operation: OperationDefinitionNode,
  out: Mismatch[],
): void {
  const findings: Finding[] = [];
  checkSelection(
    {
      schema: where.schema,
      fragments: where.fragments,
      positionProblems: (path, position, value) => matcherProblems(matchersAt(where.rules, path), position, value),
      source: where.source,
      subject: 'the expected response',
      out: findings,
    },
    data,
    root,
    [operation.selectionSet],
    ['data'],
  );
  asMismatches('response.body', findings, out);
}

/** The method and the header names of a GraphQL request. */
function checkRequestLine(request: HttpInteraction['request'], out: Mismatch[]): void {
  if (request.method !== 'POST') {
    out.push({
      area: 'request.method',
      path: request.method,
      message: `${request.method} is not how GraphQL is called`,
      expected: 'POST /graphql (spec 4.4 to 4.6)',
    });
  }
  // Spec 5: x-jwt-token on GraphQL; the older guide also lists x-client-id and x-api-key. Another x- name is a typo.
  const known = Object.values(serviceHeaders) as string[];
  for (const name of Object.keys(request.headers))
    if (name.toLowerCase().startsWith('x-') && !known.includes(name.toLowerCase()))
      out.push({
        area: 'request.header',
        path: name,
        message: `unknown header "${name}"`,
        expected: `${serviceHeaders.jwt} on POST /graphql (spec 4.4 to 4.6, 5)`,
      });
}

/** Only data, errors and extensions at the top of an expected answer, and one of data or errors. */
function checkAnswerKeys(responseBody: Record<string, unknown>, expectsErrors: boolean, out: Mismatch[]): void {
  for (const key of Object.keys(responseBody))
    if (key !== 'data' && key !== 'errors' && key !== 'extensions')
      out.push({
        area: 'response.body',
        path: `$.${key}`,
        message: `unknown top-level key "${key}"`,
        expected: 'only data, errors and extensions in a GraphQL answer',
      });
  if (!('data' in responseBody) && !expectsErrors)
    out.push({
      area: 'response.body',
      path: '$',
      message: 'neither data nor errors is expected',
      expected: 'a GraphQL answer { data } or { errors }',
    });
}

function checkAgainst(interaction: HttpInteraction, guide: GuideName): Mismatch[] {
  const out: Mismatch[] = [];
  const source = guideSource[guide];
  const schemas = guideSchemas(guide);
  const { request, response } = interaction;
  const requestBody = request.body.present ? request.body.value : undefined;
  checkRequestLine(request, out);
  const responseBody = response.body.present ? response.body.value : undefined;
  const expectsErrors = isPlainObject(responseBody) && responseBody.errors !== undefined;
  // An expected error may come from the service's own validation, which the served schema lets through.
  const walk = walkGraphqlRequest(requestBody, guide, !expectsErrors);
  if (walk.stage === 'no-query') {
    out.push({
      area: 'request.body',
      path: '$.query',
      message: 'the body holds no GraphQL query string',
      expected: 'a JSON body { query, variables } (spec 2)',
    });
    return out;
  }
  if (walk.stage === 'not-graphql') {
    out.push({
      area: 'request.body',
      path: '$.query',
      message: `not GraphQL: ${walk.parseError}`,
      expected: `a query for ${source}`,
    });
    return out;
  }
  const invalid = walk.invalid;
  for (const message of invalid)
    out.push({ area: 'request.body', path: '$.query', message, expected: `a query valid for ${source}` });
  if (walk.stage === 'no-operation') {
    out.push({
      area: 'request.body',
      path: '$.operationName',
      message: walk.problem,
      expected: 'one operation, or operationName naming it',
    });
    return out;
  }
  const { operation, fragments } = walk;
  asMismatches('request.body', walk.variableFindings, out);

  if (!isPlainObject(responseBody)) {
    out.push({
      area: 'response.body',
      path: '$',
      message: response.body.present ? 'the expected body is not a JSON object' : 'no expected body',
      expected: 'a GraphQL answer { data } or { errors } (spec 4.4 to 4.6, 7.2)',
    });
    return out;
  }
  checkAnswerKeys(responseBody, expectsErrors, out);

  const root = rootType(schemas.published, operation.operation);
  if (expectsErrors) {
    const rootFieldNode = operation.selectionSet.selections.find((s) => s.kind === Kind.FIELD);
    const rootObject = schemas.published.getRootType(operation.operation);
    const rootField = rootFieldNode && rootObject ? rootObject.getFields()[rootFieldNode.name.value] : undefined;
    const errorFindings: Finding[] = [];
    checkErrorShape(responseBody.errors, rootField, source, errorFindings);
    asMismatches('response.body', errorFindings, out);
  } else if (
    !request.headers[serviceHeaders.jwt] &&
    !Object.keys(request.headers).some((h) => h.toLowerCase() === serviceHeaders.jwt)
  ) {
    out.push({
      area: 'request.header',
      path: serviceHeaders.jwt,
      message: 'header missing on a request that expects data',
      expected: `${serviceHeaders.jwt} (spec 4.4 to 4.6, 5): without it the service answers TOKEN_MISSING`,
    });
  }
  if (invalid.length > 0 || !root) return out; // The selection cannot be resolved; the query errors say why.
  const data = responseBody.data;
  if (data !== undefined && !(expectsErrors && data === null))
    checkExpectedData(
      data,
      { schema: schemas.published, fragments, rules: response.rules.body, source },
      root,
      operation,
      out,
    );
  if (!expectsErrors && (response.status < 200 || response.status > 299))
    out.push({
      area: 'response.status',
      path: String(response.status),
      message: `status ${response.status} with data and no errors`,
      expected: '200 for a GraphQL answer with data',
    });
  return out;
}
