/**
 * The request half of a GraphQL exchange (spec 2, 4.4 to 4.6, 5): POST, x-jwt-token, a JSON body with a `query`
 * string and a `variables` object, a query valid for the guide's schema and variables that fit it. With the guide
 * `both`, the guide is detected from the request with the mock's own rules (contract/guide-detection.ts). The walk
 * itself is graphql-request-walk.ts, shared with `verify`; this module words its outcome as consumer drifts and keeps
 * the walks of recent request bodies.
 *
 * @module
 */
import type { FragmentDefinitionNode, OperationDefinitionNode } from 'graphql/index.js';
import { clause } from '../../internal/messages.ts';
import { isPlainObject } from '../../internal/plain-object.ts';
import { serviceHeaders } from '../service-names.ts';
import type { DriftList } from './drift-list.ts';
import type { CheckGuide, ExchangeRequest } from './exchange.ts';
import { readJson } from './exchange-parts.ts';
import type { Finding } from './finding.ts';
import { guideSource, type RequestWalk, walkGraphqlRequest } from './graphql-request-walk.ts';
import { type GuideName, guideSchemas } from './graphql-schemas.ts';
import { guideHint } from './guide-hint.ts';
import { showValue } from './show-value.ts';
import { formatPath } from './value-path.ts';

// The guide's report names belong to the walk; re-exported for the answer check.
export { guideSource };

/** What the answer check needs from the request. */
export interface GraphqlRequestFacts {
  readonly guide: GuideName;
  /** The operation name, or the first root field of an anonymous operation. */
  readonly operationName?: string | undefined;
  /** Set when the request is a readable, valid operation of the guide: the answer's data can then be walked. */
  readonly operation?: OperationDefinitionNode | undefined;
  readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  /** The request's variables (an object, or empty). */
  readonly variables: Readonly<Record<string, unknown>>;
  /** Whether the body was a GraphQL request at all (JSON object with a query string that parses). */
  readonly readable: boolean;
  /** Whether the request was a POST, the only way the interface calls /graphql. */
  readonly posted: boolean;
  /** Whether the request used names of both guides: a 7.3 key may then name an input path of either. */
  readonly mixedGuides?: boolean | undefined;
}

/**
 * Walks of whole request bodies, by body text, guide option and whether data is expected: the same request (a test
 * suite's payment, a repeated fee list) is walked once, parsing its JSON and coercing its variables included. Walks
 * are read-only, so one may serve many exchanges. Bounded in count and in key size, like the query cache.
 */
const MAX_CACHED_WALKS = 500;
const MAX_WALK_KEY_CHARS = 16 * 1024;
const walks = new Map<string, RequestWalk>();

function cachedWalk(
  request: ExchangeRequest,
  option: CheckGuide,
  expectsData: boolean,
): RequestWalk | { readonly stage: 'unreadable'; readonly body: ReturnType<typeof readJson> } {
  const text = request.body;
  const key = text !== undefined && text.length <= MAX_WALK_KEY_CHARS ? `${option}${expectsData ? 1 : 0}${text}` : '';
  const hit = key ? walks.get(key) : undefined;
  if (hit) return hit;
  const body = readJson(request);
  const value = body.state === 'json' ? body.value : undefined;
  if (!isPlainObject(value) || typeof value.query !== 'string') return { stage: 'unreadable', body };
  const walk = walkGraphqlRequest(value, option, expectsData);
  if (key) {
    if (walks.size >= MAX_CACHED_WALKS) walks.delete(walks.keys().next().value as string);
    walks.set(key, walk);
  }
  return walk;
}

function findingsAsConsumer(findings: readonly Finding[], list: DriftList, hint?: (m: string) => string): void {
  for (const f of findings)
    list.consumer({
      path: formatPath(f.path, ''),
      expected: f.expected,
      actual: f.message,
      // graphql-js ends its messages with a full stop: one stop closes the sentence, hint or not.
      message: `The request breaks the contract at ${formatPath(f.path, '')}: ${clause(`${f.message}${hint?.(f.message) ?? ''}`)}.`,
    });
}

/**
 * Checks the request of a GraphQL exchange and answers what the answer check needs.
 *
 * @example
 * const facts = checkGraphqlRequest(exchange.request, 'both', expectsData, list);
 */
export function checkGraphqlRequest(
  request: ExchangeRequest,
  option: CheckGuide,
  expectsData: boolean,
  list: DriftList,
): GraphqlRequestFacts {
  const posted = request.method === 'POST';
  const none = {
    guide: option === 'legacy' ? 'legacy' : 'current',
    fragments: new Map(),
    variables: {},
    posted,
  } as const;
  if (!posted)
    list.consumer({
      path: '(http)',
      expected: 'POST /graphql (spec 4.4 to 4.6)',
      actual: request.method,
      message: `${request.method} is not how the service's GraphQL is called: send POST /graphql with a JSON body.`,
    });
  if (!request.headers[serviceHeaders.jwt])
    list.consumer({
      path: `(header) ${serviceHeaders.jwt}`,
      expected: `the access token in ${serviceHeaders.jwt} (spec 4.4 to 4.6, 5)`,
      actual: '(none)',
      message: `Send the token from generate-token or refresh-token in the ${serviceHeaders.jwt} header.`,
    });
  if (request.bodyNotRecorded) return { ...none, readable: false };
  const walk = cachedWalk(request, option, expectsData);
  if (walk.stage === 'unreadable' || walk.stage === 'no-query') {
    const body = walk.stage === 'unreadable' ? walk.body : readJson(request);
    const value = body.state === 'json' ? body.value : undefined;
    list.consumer({
      path: isPlainObject(value) ? 'query' : '(body)',
      expected: 'a JSON body { query: string, variables: object } (spec 2)',
      actual: isPlainObject(value)
        ? showValue(value.query)
        : body.state === 'json'
          ? showValue(value)
          : body.state === 'none'
            ? '(no body)'
            : 'a body that is not JSON',
      message:
        'Send the GraphQL request as a JSON object with the query text in "query" and the variables in "variables".',
    });
    return { ...none, readable: false };
  }
  if (walk.stage === 'not-graphql') {
    list.consumer({
      path: 'query',
      expected: 'GraphQL text',
      actual: walk.parseError,
      message: `The query is not GraphQL: ${walk.parseError} Fix the query text.`,
    });
    return { ...none, readable: false };
  }
  if (walk.stage === 'no-operation') {
    list.consumer({
      path: 'operationName',
      expected: 'one operation, or operationName naming it',
      actual: walk.problem,
      message: `${walk.problem}: send one operation, or name the one to run in operationName.`,
    });
    return { ...none, readable: false };
  }
  const { guide, conflict } = walk;
  if (conflict)
    list.consumer({
      path: conflict.a.path ? `variables.${conflict.a.path}` : 'query',
      expected: 'the names of one guide throughout',
      actual: `"${conflict.a.name}" (${conflict.a.guide} guide) beside "${conflict.b.name}" (${conflict.b.guide} guide)`,
      message: `The request mixes the two guides: "${conflict.a.name}" is the ${conflict.a.guide} guide's name and "${conflict.b.name}" the ${conflict.b.guide} guide's. Use the names of one guide throughout.`,
    });
  if (walk.invalid.length > 0 || walk.variableFindings.length > 0) {
    const other = guideSchemas(guide === 'current' ? 'legacy' : 'current').published;
    const hint = (message: string) => guideHint(message, guide, other, 'this traffic') ?? '';
    findingsAsConsumer(
      walk.invalid.map((message) => ({
        path: ['query'],
        message,
        expected: `a query valid for ${guideSource[guide]}`,
      })),
      list,
      hint,
    );
    findingsAsConsumer(walk.variableFindings, list, hint);
  }
  return {
    guide,
    operationName: walk.operationName,
    operation: walk.invalid.length === 0 ? walk.operation : undefined,
    fragments: walk.fragments,
    variables: walk.variables,
    readable: true,
    posted,
    mixedGuides: conflict !== undefined,
  };
}
