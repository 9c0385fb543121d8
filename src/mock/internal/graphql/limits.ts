/**
 * The GraphQL document limits of the mock (`Assumptions.limits`): tokens, depth, aliases, directives and cost, plus
 * the rule that refuses operation types the schema does not have (a subscription on a schema without one).
 *
 * Tokens are bounded inside graphql-js's parser (`maxTokens`), so an oversized document stops parsing early. The
 * other four are graphql-armor's validation rules, run in a pass of their own before the spec's rules: a document
 * over a limit is refused before the costlier rules (overlapping fields is quadratic in the fields) ever see it.
 * The engine runs both once per distinct query text and caches the verdict.
 *
 * @module
 */
import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import {
  type ASTVisitor,
  type DocumentNode,
  GraphQLError,
  type GraphQLSchema,
  type OperationDefinitionNode,
  OperationTypeNode,
  parse,
  type ValidationContext,
  type ValidationRule,
  validate,
} from 'graphql/index.js';
import type { RequestLimits } from '../../../assumptions.ts';
import { documentNestsTooDeep } from '../../../internal/graphql-nesting.ts';
import { kitMessage } from '../../../internal/messages.ts';

/** One document limit: its option key, its CLI flag, and what it counts. */
interface LimitSpec {
  readonly key: Exclude<keyof RequestLimits, 'maxBodyBytes' | 'maxJsonDepth'>;
  readonly flag: string;
  /** What was found, for the message: "is 40 levels deep". */
  readonly found: (n: string) => string;
  readonly fix: string;
}

const specs = {
  maxTokens: {
    key: 'maxTokens',
    flag: '--max-tokens',
    found: () => 'has more tokens than',
    fix: 'send a smaller document',
  },
  maxDepth: {
    key: 'maxDepth',
    flag: '--max-query-depth',
    found: (n) => `is ${n} fields deep, deeper than`,
    fix: 'select less deeply',
  },
  maxAliases: {
    key: 'maxAliases',
    flag: '--max-aliases',
    found: (n) => `has ${n} aliases, more than`,
    fix: 'send fewer aliased fields (split the request)',
  },
  maxDirectives: {
    key: 'maxDirectives',
    flag: '--max-directives',
    found: (n) => `has ${n} directives, more than`,
    fix: 'send fewer directives',
  },
  maxCost: {
    key: 'maxCost',
    flag: '--max-cost',
    found: (n) => `has an estimated cost of ${n}, more than`,
    fix: 'select fewer fields (split the request)',
  },
} as const satisfies Record<LimitSpec['key'], LimitSpec>;

/**
 * The message for a document over one limit: what was found, the limit and its value, and how to raise it.
 *
 * @example
 * limitMessage('maxAliases', 50, '51')
 * // 'The operation has 51 aliases, more than the mock allows (maxAliases = 50): send fewer …' after the kit prefix
 */
export function limitMessage(key: LimitSpec['key'], limit: number, found: string): string {
  const spec: LimitSpec = specs[key];
  const what = key === 'maxTokens' ? 'document' : 'operation';
  return kitMessage(
    `The ${what} ${spec.found(found)} the mock allows (${key} = ${limit}): ${spec.fix}, or raise the limit with ${spec.flag} or the mock option assumptions.limits.${key}.`,
  );
}

/**
 * The message for a document nested deeper than graphql-js can recurse (parser, validation): the call stack ran out
 * before the token limit was reached.
 */
export const tooDeepMessage = kitMessage(
  'The document is nested too deeply to parse or validate: send a flatter document (with fewer nested lists, objects or selections).',
);

const tokenLimitPattern = /contains more th(?:an|at) \d+ tokens/;

/** Outcome of {@link parseWithinLimits}. */
export type ParseOutcome =
  | { readonly ok: true; readonly document: DocumentNode }
  | { readonly ok: false; readonly error: GraphQLError; readonly limit: boolean };

/**
 * Parses a query, stopping at the first token past `limits.maxTokens`. A document over the limit is reported with
 * the kit's message (`limit: true`); any other failure is graphql-js's syntax error.
 */
export function parseWithinLimits(query: string, limits: RequestLimits): ParseOutcome {
  if (documentNestsTooDeep(query)) return { ok: false, error: new GraphQLError(tooDeepMessage), limit: true };
  try {
    return { ok: true, document: parse(query, { maxTokens: limits.maxTokens }) };
  } catch (error) {
    if (!(error instanceof GraphQLError)) {
      // Within the nesting bound the parser should not recurse out of the stack; should a small stack still run
      // out, the document is refused the same way.
      if (error instanceof RangeError) return { ok: false, error: new GraphQLError(tooDeepMessage), limit: true };
      throw error;
    }
    // graphql-js words it "Document contains more than N tokens. Parsing aborted." (16.15 writes "more that").
    if (tokenLimitPattern.test(error.message))
      return { ok: false, error: new GraphQLError(limitMessage('maxTokens', limits.maxTokens, '')), limit: true };
    return { ok: false, error, limit: false };
  }
}

// graphql-armor reports "… limit of N exceeded, found M."; the count is taken from there.
const foundPattern = /found (\d+(?:\.\d+)?)/;

function reporter(key: LimitSpec['key'], limit: number) {
  return (context: ValidationContext | null, error: GraphQLError) => {
    const raw = foundPattern.exec(error.message)?.[1] ?? 'more';
    // Costs are fractional (a factor of 1.5 per level); two decimals keep the small ones exact.
    const found = key === 'maxCost' ? String(Math.round(Number(raw) * 100) / 100) : raw;
    context?.reportError(new GraphQLError(limitMessage(key, limit, found)));
  };
}

/**
 * The validation rules of the four counted limits, reporting the kit's messages (graphql-armor's own error is
 * replaced, and never thrown). Depth counts introspection fields, so a deep `__schema` chain is bounded too; cost
 * leaves `__schema` out, as graphql-armor does by default, since the full introspection query alone estimates at
 * about 87,000 (its list depth is bounded by graphql-js's MaxIntrospectionDepthRule instead).
 */
export function limitRules(limits: RequestLimits): ValidationRule[] {
  const common = { exposeLimits: true, propagateOnRejection: false } as const;
  return [
    maxDepthRule({
      ...common,
      n: limits.maxDepth,
      ignoreIntrospection: false,
      onReject: [reporter('maxDepth', limits.maxDepth)],
    }),
    maxAliasesRule({ ...common, n: limits.maxAliases, onReject: [reporter('maxAliases', limits.maxAliases)] }),
    maxDirectivesRule({
      ...common,
      n: limits.maxDirectives,
      onReject: [reporter('maxDirectives', limits.maxDirectives)],
    }),
    costLimitRule({
      ...common,
      maxCost: limits.maxCost,
      ignoreIntrospection: true,
      onReject: [reporter('maxCost', limits.maxCost)],
    }),
  ] as ValidationRule[];
}

/** Checks a parsed document against the counted limits; an empty list means it is within all of them. */
export function checkLimits(
  schema: GraphQLSchema,
  document: DocumentNode,
  rules: readonly ValidationRule[],
): readonly GraphQLError[] {
  return validate(schema, document, rules);
}

/**
 * The message for graphql-js's own stop: its overlapping-fields rule gives up ("Validation aborted.") when a
 * document asks for too many comparisons, typically thousands of fields under one response name.
 */
export const validationAbortedMessage = kitMessage(
  'The document is too costly to validate (graphql-js stopped comparing its fields): send fewer fields under the same name.',
);

/**
 * Refuses an operation whose type (query, mutation, subscription) the schema has no root type for. graphql-js 16
 * validates such a document and only fails when executing it, which the engine would report as its own bug.
 */
export function KnownOperationTypesRule(context: ValidationContext): ASTVisitor {
  const schema = context.getSchema();
  return {
    OperationDefinition(node: OperationDefinitionNode) {
      if (schema.getRootType(node.operation)) return;
      const served = [OperationTypeNode.QUERY, OperationTypeNode.MUTATION, OperationTypeNode.SUBSCRIPTION].filter((t) =>
        schema.getRootType(t),
      );
      context.reportError(
        new GraphQLError(
          kitMessage(`The service has no ${node.operation} operations: send a ${served.join(' or a ')}.`),
          { nodes: node },
        ),
      );
    },
  };
}
