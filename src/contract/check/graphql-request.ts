/**
 * The request half of a GraphQL exchange (spec 2, 4.4 to 4.6, 5): POST, x-jwt-token, a JSON body with a `query`
 * string and a `variables` object, a query valid for the guide's schema and variables that fit it. With the guide
 * `both`, the guide is detected from the request with the mock's own rules (contract/guide-detection.ts).
 *
 * @module
 */
import {
  type DocumentNode,
  type FragmentDefinitionNode,
  GraphQLError,
  Kind,
  type OperationDefinitionNode,
  parse,
  validate,
} from 'graphql/index.js';
import { isPlainObject } from '../../internal/plain-object.ts';
import { decideGuide, documentSignals, variableBindings, variableSignals } from '../guide-detection.ts';
import { serviceHeaders } from '../service-names.ts';
import type { DriftList } from './drift-list.ts';
import type { CheckGuide, ExchangeRequest } from './exchange.ts';
import { readJson } from './exchange-parts.ts';
import type { Finding } from './finding.ts';
import { type GuideName, guideSchemas } from './graphql-schemas.ts';
import { checkVariables } from './graphql-variables-check.ts';
import { guideHint } from './guide-hint.ts';
import { showValue } from './show-value.ts';
import { formatPath } from './value-path.ts';

/** How the reports name each guide's schema. */
export const guideSource: Readonly<Record<GuideName, string>> = {
  current: 'schema.graphql (current guide)',
  legacy: 'generated/legacy/schema.graphql (legacy guide)',
};

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
}

/** A parsed query and, per guide, its validation errors: the same few query texts come again and again. */
interface ParsedQuery {
  readonly document: DocumentNode | undefined;
  readonly parseError: string | undefined;
  readonly signals: ReturnType<typeof documentSignals>;
  readonly invalid: Partial<Record<GuideName, readonly string[]>>;
}

// Bounded: a client sends a handful of query texts; a hostile one sending endless new texts only refills the cache.
const MAX_CACHED_QUERIES = 500;
const parsedQueries = new Map<string, ParsedQuery>();

function parsedQuery(text: string): ParsedQuery {
  let entry = parsedQueries.get(text);
  if (!entry) {
    if (parsedQueries.size >= MAX_CACHED_QUERIES) parsedQueries.clear();
    try {
      const document = parse(text);
      entry = { document, parseError: undefined, signals: documentSignals(document), invalid: {} };
    } catch (error) {
      const message = error instanceof GraphQLError ? error.message : String(error);
      entry = { document: undefined, parseError: message, signals: [], invalid: {} };
    }
    parsedQueries.set(text, entry);
  }
  return entry;
}

function validationErrors(entry: ParsedQuery, document: DocumentNode, guide: GuideName): readonly string[] {
  let errors = entry.invalid[guide];
  if (!errors) {
    errors = validate(guideSchemas(guide).published, document).map((e) => e.message);
    (entry.invalid as Record<GuideName, readonly string[]>)[guide] = errors;
  }
  return errors;
}

function pickOperation(document: DocumentNode, name: unknown): OperationDefinitionNode | string {
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  if (typeof name === 'string' && name !== '')
    return operations.find((o) => o.name?.value === name) ?? `operationName "${name}" names no operation of the query`;
  if (operations.length === 1) return operations[0] as OperationDefinitionNode;
  return `the query holds ${operations.length} operations and no operationName picks one`;
}

function nameOf(operation: OperationDefinitionNode): string | undefined {
  if (operation.name) return operation.name.value;
  const first = operation.selectionSet.selections.find((s) => s.kind === Kind.FIELD);
  return first?.kind === Kind.FIELD ? first.name.value : undefined;
}

function findingsAsConsumer(findings: readonly Finding[], list: DriftList, hint?: (m: string) => string): void {
  for (const f of findings)
    list.consumer({
      path: formatPath(f.path, ''),
      expected: f.expected,
      actual: f.message,
      message: `The request breaks the contract at ${formatPath(f.path, '')}: ${f.message}${hint?.(f.message) ?? ''}.`,
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
  const none = { guide: option === 'legacy' ? 'legacy' : 'current', fragments: new Map(), variables: {} } as const;
  if (request.method !== 'POST')
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
  const body = readJson(request);
  const value = body.state === 'json' ? body.value : undefined;
  if (!isPlainObject(value) || typeof value.query !== 'string') {
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
  const cached = parsedQuery(value.query);
  const document = cached.document;
  if (!document) {
    list.consumer({
      path: 'query',
      expected: 'GraphQL text',
      actual: cached.parseError ?? 'unreadable',
      message: `The query is not GraphQL: ${cached.parseError} Fix the query text.`,
    });
    return { ...none, readable: false };
  }
  const picked = pickOperation(document, value.operationName);
  if (typeof picked === 'string') {
    list.consumer({
      path: 'operationName',
      expected: 'one operation, or operationName naming it',
      actual: picked,
      message: `${picked}: send one operation, or name the one to run in operationName.`,
    });
    return { ...none, readable: false };
  }
  const rawVariables = value.variables;
  const variables = isPlainObject(rawVariables) ? rawVariables : {};
  let guide: GuideName = option === 'both' ? 'current' : option;
  if (option === 'both') {
    const decision = decideGuide('both', cached.signals, variableSignals(variableBindings(picked), variables));
    if (decision.ok) guide = decision.guide;
    else if (decision.kind === 'conflict')
      list.consumer({
        path: decision.a.path ? `variables.${decision.a.path}` : 'query',
        expected: 'the names of one guide throughout',
        actual: `"${decision.a.name}" (${decision.a.guide} guide) beside "${decision.b.name}" (${decision.b.guide} guide)`,
        message: `The request mixes the two guides: "${decision.a.name}" is the ${decision.a.guide} guide's name and "${decision.b.name}" the ${decision.b.guide} guide's. Use the names of one guide throughout.`,
      });
  }
  const schemas = guideSchemas(guide);
  const source = guideSource[guide];
  const other = guideSchemas(guide === 'current' ? 'legacy' : 'current').published;
  const hint = (message: string) => guideHint(message, guide, other, 'this traffic') ?? '';
  const invalid = validationErrors(cached, document, guide);
  findingsAsConsumer(
    invalid.map((message) => ({ path: ['query'], message, expected: `a query valid for ${source}` })),
    list,
    hint,
  );
  const findings: Finding[] = [];
  if (rawVariables !== undefined && rawVariables !== null && !isPlainObject(rawVariables))
    findings.push({ path: ['variables'], message: 'variables is not an object', expected: 'an object (spec 2)' });
  else checkVariables(schemas, expectsData, picked, variables, source, findings);
  findingsAsConsumer(findings, list, hint);
  const fragments = new Map(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d] as const),
  );
  return {
    guide,
    operationName: nameOf(picked),
    operation: invalid.length === 0 ? picked : undefined,
    fragments,
    variables,
    readable: true,
  };
}
