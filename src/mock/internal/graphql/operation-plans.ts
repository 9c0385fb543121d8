/**
 * What the engine keeps per query text and operation: the parsed document (or why it was refused: parse error, a
 * limit), per operation name the operation and its variable bindings, and per guide the validation verdict and
 * the compiled query. Limits are checked on the first parse, so a cached query pays nothing for them and a refused
 * one stays refused; validation messages are worded from a redacted copy (redact.ts), so no card data is echoed.
 *
 * @module
 */
import {
  type DocumentNode,
  type GraphQLError,
  type GraphQLSchema,
  getOperationAST,
  Kind,
  type OperationDefinitionNode,
  specifiedRules,
  type ValidationRule,
  validate,
} from 'graphql/index.js';
import type { RequestLimits } from '../../../assumptions.ts';
import { graphqlError } from '../../../contract/error-shapes.ts';
import { kitMessage } from '../../../internal/messages.ts';
import type { Guide } from '../payments/state.ts';
import { type Answer, answer, type ReasonCodes, validationFailure, withinStack } from './answers.ts';
import { documentSignals, type GuideSignal, type VariableBinding, variableBindings } from './guide-detection.ts';
import type { CompiledQuery } from './jit.ts';
import { checkLimits, KnownOperationTypesRule, limitRules, parseWithinLimits } from './limits.ts';
import { isIntrospectionOnly, publishedSchemaOf } from './published-schema.ts';
import { redactDocument, scrubMessage } from './redact.ts';

/** One operation of a cached document. */
export interface OperationEntry {
  readonly operation: OperationDefinitionNode | undefined;
  readonly operationName: string | undefined;
  readonly bindings: readonly VariableBinding[];
  /** The names of the fields the operation selects at its root (fragments at the root are not followed). */
  readonly rootFields: readonly string[];
  /** Answer for every request of this entry (unknown operation), instead of executing. */
  readonly failure: Answer | undefined;
  /** Per guide, once validated against that guide's schema: how to run the operation. */
  readonly plans: { current?: Plan; legacy?: Plan };
}

/** A validated operation in one guide: its validation failure, or what executes it. */
export type Plan =
  | { readonly failure: Answer }
  | {
      readonly failure: undefined;
      readonly schema: GraphQLSchema;
      /** The graphql-jit function, once compiled; `null` when graphql-jit cannot compile it (graphql-js runs it). */
      compiled: CompiledQuery | null | undefined;
      /**
       * Whether the operation reads configuration alone, so its compiled success may be kept (pure-answers.ts);
       * learnt on its first compiled run.
       */
      pure?: boolean | undefined;
    };

/** A plan that executes. */
export type RunnablePlan = Extract<Plan, { failure: undefined }>;

/** One cached query text. */
export interface DocumentEntry {
  readonly document: DocumentNode | undefined;
  readonly failure: Answer | undefined;
  readonly signals: readonly GuideSignal[];
  readonly operations: Map<string, OperationEntry>;
}

/** What {@link createOperationPlanner} needs. */
export interface PlannerDeps {
  readonly errorStatus: number;
  readonly reasons: ReasonCodes;
  readonly limits: RequestLimits;
  /** Any served guide's wire schema: the limits do not depend on the guide, the rules only need a context. */
  limitSchema(): GraphQLSchema;
  /** The executable schema of a guide. */
  schemaOf(guide: Guide): GraphQLSchema;
}

/** Builds the entries of {@link DocumentEntry}, {@link OperationEntry} and {@link Plan}. */
export interface OperationPlanner {
  /** Parses and checks the limits of a query text not seen before. */
  documentEntry(query: string): DocumentEntry;
  /** The entry of operation `name` (undefined: the only one) of a parsed document, made on first use. */
  operationEntry(doc: DocumentEntry, document: DocumentNode, name: string | undefined): OperationEntry;
  /** The operation validated against `guide`'s schema, validated on first use. */
  planFor(op: OperationEntry, document: DocumentNode, guide: Guide): Plan;
}

// The spec's rules, plus the one graphql-js 16 lacks (a subscription on a schema without a subscription type).
const documentRules: readonly ValidationRule[] = [...specifiedRules, KnownOperationTypesRule];

/**
 * Creates the planner of one engine.
 *
 * @example
 * const planner = createOperationPlanner({ errorStatus, reasons, limits, limitSchema, schemaOf });
 * const doc = planner.documentEntry('query Q { ping }');
 */
export function createOperationPlanner(deps: PlannerDeps): OperationPlanner {
  const { errorStatus, reasons, limits } = deps;
  const limitChecks = limitRules(limits);
  const failed = (failure: Answer): DocumentEntry => ({
    document: undefined,
    failure,
    signals: [],
    operations: new Map(),
  });
  const validationAnswer = (errors: readonly GraphQLError[]) =>
    answer(errorStatus, { errors: errors.map((e) => validationFailure(e, reasons)) });

  return {
    documentEntry(query) {
      const parsed = parseWithinLimits(query, limits);
      if (!parsed.ok) {
        const e = parsed.error;
        const entry = {
          message: parsed.limit ? e.message : scrubMessage(e.message, true),
          ...(e.locations ? { locations: e.locations } : {}),
          extensions: { reason: parsed.limit ? reasons.graphqlValidationFailed : reasons.graphqlParseFailed },
        };
        return failed(answer(errorStatus, { errors: [entry] }));
      }
      const document = parsed.document;
      const overLimit = withinStack(() => checkLimits(deps.limitSchema(), document, limitChecks));
      if (overLimit.length > 0) return failed(validationAnswer(overLimit));
      return { document, failure: undefined, signals: documentSignals(document), operations: new Map() };
    },
    operationEntry(doc, document, name) {
      const key = name ?? '';
      const known = doc.operations.get(key);
      if (known) return known;
      const operation = getOperationAST(document, name) ?? undefined;
      const message =
        name === undefined
          ? kitMessage('The document holds several operations; send "operationName" to pick one.')
          : kitMessage(
              `The document has no operation named "${name}"; send one of its operation names in "operationName".`,
            );
      const op: OperationEntry = {
        operation,
        operationName: operation?.name?.value ?? name,
        bindings: operation ? variableBindings(operation) : [],
        rootFields: operation ? rootFieldNames(operation) : [],
        failure: operation
          ? undefined
          : answer(errorStatus, { errors: [graphqlError(message, reasons.graphqlValidationFailed)] }),
        plans: {},
      };
      doc.operations.set(key, op);
      return op;
    },
    planFor(op, document, guide) {
      const known = op.plans[guide];
      if (known) return known;
      // Introspection answers the published schema, so types generated from the mock's URL match schema.graphql's
      // (decisions/0006); every other operation runs on the wire schema.
      const introspection = op.operation !== undefined && isIntrospectionOnly(op.operation);
      const schema = introspection ? publishedSchemaOf(guide) : deps.schemaOf(guide);
      const errors = withinStack(() => {
        const found = validate(schema, document, documentRules);
        if (found.length === 0) return found;
        // Messages may quote inline values; word them from a copy without card numbers and CVVs (redact.ts).
        const redacted = redactDocument(document);
        return redacted === document ? found : validate(schema, redacted, documentRules);
      });
      const plan: Plan =
        errors.length > 0
          ? { failure: validationAnswer(errors) }
          : // Every key set now, so plans keep one shape when the engine fills them in.
            { failure: undefined, schema, compiled: introspection ? null : undefined, pure: undefined };
      op.plans[guide] = plan;
      return plan;
    },
  };
}

/** The fields an operation selects at its root, once per cached operation (the coverage report's root fields). */
function rootFieldNames(operation: OperationDefinitionNode): readonly string[] {
  const names: string[] = [];
  for (const selection of operation.selectionSet.selections)
    if (selection.kind === Kind.FIELD && !names.includes(selection.name.value)) names.push(selection.name.value);
  return names;
}
