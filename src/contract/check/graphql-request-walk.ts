/**
 * The one walk of a GraphQL request body against a guide's schema: a `query` string that parses, one operation
 * picked (by `operationName` when given), the query valid for the guide, the variables fitting the operation's
 * definitions (and, when the exchange expects data, the positions the service's own validation requires). The
 * checker (live traffic, HAR files) and `verify` (pact interactions) both walk requests with it and only word its
 * outcome their own way: drifts for the one, mismatches for the other.
 *
 * A query text is parsed, validated per guide and scanned for guide signals once per process (a client sends the
 * same few texts again and again); only the variables are walked per request.
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
import { documentNestsTooDeep } from '../../internal/graphql-nesting.ts';
import { isPlainObject } from '../../internal/plain-object.ts';
import {
  decideGuide,
  documentSignals,
  type GuideDecision,
  type VariableBinding,
  variableBindings,
  variableSignals,
} from '../guide-detection.ts';
import type { Finding } from './finding.ts';
import { type GuideName, guideSchemas } from './graphql-schemas.ts';
import { checkVariables } from './graphql-variables-check.ts';

/** How the reports name each guide's schema. */
export const guideSource: Readonly<Record<GuideName, string>> = {
  current: 'schema.graphql (current guide)',
  legacy: 'generated/legacy/schema.graphql (legacy guide)',
};

/** A query text read once: its document (or why it is not GraphQL) and what every later request reuses. */
interface ReadQuery {
  readonly document: DocumentNode | undefined;
  readonly parseError: string | undefined;
  readonly signals: ReturnType<typeof documentSignals>;
  readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  readonly operations: readonly OperationDefinitionNode[];
  /** Validation messages per guide, filled on first use. */
  readonly invalid: Partial<Record<GuideName, readonly string[]>>;
  /** Where each operation's variables sit in its arguments (guide detection reads variables through them). */
  readonly bindings: Map<OperationDefinitionNode, readonly VariableBinding[]>;
}

// Bounded: a client sends a handful of query texts; a hostile one sending endless new texts only refills the cache.
const MAX_CACHED_QUERIES = 500;
const readQueries = new Map<string, ReadQuery>();

function readQuery(text: string): ReadQuery {
  let entry = readQueries.get(text);
  if (entry) return entry;
  if (readQueries.size >= MAX_CACHED_QUERIES) readQueries.clear();
  const empty = { invalid: {}, bindings: new Map() };
  const unreadable = (parseError: string): ReadQuery => ({
    ...empty,
    document: undefined,
    parseError,
    signals: [],
    fragments: new Map(),
    operations: [],
  });
  if (documentNestsTooDeep(text)) {
    entry = unreadable(tooDeepDocument);
    readQueries.set(text, entry);
    return entry;
  }
  try {
    const document = parse(text);
    entry = {
      ...empty,
      document,
      parseError: undefined,
      signals: documentSignals(document),
      fragments: new Map(
        document.definitions
          .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
          .map((d) => [d.name.value, d] as const),
      ),
      operations: document.definitions.filter(
        (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
      ),
    };
  } catch (error) {
    entry = unreadable(error instanceof GraphQLError ? error.message : unreadableMessage(error));
  }
  readQueries.set(text, entry);
  return entry;
}

/**
 * Said of a document graphql-js recursed out of the stack on (parse, the guide signals, validation): nested
 * thousands of levels deep in lists, objects or selections. The mock refuses such a document as too deep
 * (limits.ts, `tooDeepMessage`); the checker says the same instead of passing on "Maximum call stack size exceeded".
 */
export const tooDeepDocument =
  'The document is nested too deeply to read (thousands of levels of lists, objects or selections); the mock refuses it too.';

function unreadableMessage(error: unknown): string {
  if (error instanceof RangeError) return tooDeepDocument;
  throw error;
}

function queryErrors(entry: ReadQuery, document: DocumentNode, guide: GuideName): readonly string[] {
  let errors = entry.invalid[guide];
  if (!errors) {
    try {
      errors = validate(guideSchemas(guide).published, document).map((e) => e.message);
    } catch (error) {
      errors = [unreadableMessage(error)];
    }
    (entry.invalid as Record<GuideName, readonly string[]>)[guide] = errors;
  }
  return errors;
}

function bindingsOf(entry: ReadQuery, operation: OperationDefinitionNode): readonly VariableBinding[] {
  let bindings = entry.bindings.get(operation);
  if (!bindings) {
    bindings = variableBindings(operation);
    entry.bindings.set(operation, bindings);
  }
  return bindings;
}

function pickOperation(entry: ReadQuery, name: unknown): OperationDefinitionNode | string {
  const { operations } = entry;
  if (typeof name === 'string' && name !== '')
    return operations.find((o) => o.name?.value === name) ?? `operationName "${name}" names no operation of the query`;
  if (operations.length === 1) return operations[0] as OperationDefinitionNode;
  return `the query holds ${operations.length} operations and no operationName picks one`;
}

/** The operation's name, or the first root field of an anonymous operation. */
function nameOf(operation: OperationDefinitionNode): string | undefined {
  if (operation.name) return operation.name.value;
  const first = operation.selectionSet.selections.find((s) => s.kind === Kind.FIELD);
  return first?.kind === Kind.FIELD ? first.name.value : undefined;
}

/** Two names of different guides in one request (only when the walk detects the guide). */
export type GuideConflict = Extract<GuideDecision, { kind: 'conflict' }>;

/** How far a request got, and what was found on the way. Every part is read-only: a walk may be reused. */
export type RequestWalk =
  /** The body is not an object with a `query` string. */
  | { readonly stage: 'no-query' }
  /** The query text does not parse. */
  | { readonly stage: 'not-graphql'; readonly parseError: string }
  /** No operation could be picked; `invalid` holds the query's validation messages for the fixed (or current) guide. */
  | {
      readonly stage: 'no-operation';
      readonly problem: string;
      readonly guide: GuideName;
      readonly invalid: readonly string[];
    }
  | WalkedRequest;

/** A request whose operation was picked and walked. */
export interface WalkedRequest {
  readonly stage: 'walked';
  readonly guide: GuideName;
  /** Set when the guide was detected and the request mixes the two guides' names (the current guide is used). */
  readonly conflict?: GuideConflict | undefined;
  readonly operation: OperationDefinitionNode;
  readonly operationName: string | undefined;
  readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  /** The query's validation messages for the guide (empty when valid). */
  readonly invalid: readonly string[];
  /** The variables' problems, paths from the body's root (`variables.input.amount`). */
  readonly variableFindings: readonly Finding[];
  /** The request's variables when they are an object, else empty. */
  readonly variables: Readonly<Record<string, unknown>>;
}

/**
 * Walks a parsed GraphQL request body against a guide, or against the guide detected from the request (`both`,
 * with the mock's own rules: contract/guide-detection.ts).
 *
 * @example
 * const walk = walkGraphqlRequest({ query, variables: { amount: 'ten' } }, 'current', true);
 * // walk.stage === 'walked'; walk.variableFindings[0].path: ['variables', 'amount']
 */
export function walkGraphqlRequest(body: unknown, guide: GuideName | 'both', expectsData: boolean): RequestWalk {
  if (!isPlainObject(body) || typeof body.query !== 'string') return { stage: 'no-query' };
  const entry = readQuery(body.query);
  const document = entry.document;
  if (!document) return { stage: 'not-graphql', parseError: entry.parseError ?? 'unreadable' };
  const picked = pickOperation(entry, body.operationName);
  if (typeof picked === 'string') {
    const fixed = guide === 'both' ? 'current' : guide;
    return { stage: 'no-operation', problem: picked, guide: fixed, invalid: queryErrors(entry, document, fixed) };
  }
  const rawVariables = body.variables;
  const variables = isPlainObject(rawVariables) ? rawVariables : {};
  let chosen: GuideName = guide === 'both' ? 'current' : guide;
  let conflict: GuideConflict | undefined;
  if (guide === 'both') {
    const decision = decideGuide('both', entry.signals, variableSignals(bindingsOf(entry, picked), variables));
    if (decision.ok) chosen = decision.guide;
    else if (decision.kind === 'conflict') conflict = decision;
  }
  const variableFindings: Finding[] = [];
  checkVariables(guideSchemas(chosen), expectsData, picked, rawVariables, guideSource[chosen], variableFindings);
  return {
    stage: 'walked',
    guide: chosen,
    conflict,
    operation: picked,
    operationName: nameOf(picked),
    fragments: entry.fragments,
    invalid: queryErrors(entry, document, chosen),
    variableFindings,
    variables,
  };
}
