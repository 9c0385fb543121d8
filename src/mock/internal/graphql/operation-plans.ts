/**
 * What the engine keeps per query text and operation: the parsed document (or why it was refused: parse error, a
 * limit), per operation name the operation and its variable bindings, and per guide the validation verdict and
 * the compiled query. Limits are checked on the first parse, so a cached query pays nothing for them and a refused
 * one stays refused; validation messages are worded from a redacted copy (redact.ts), so no card data is echoed.
 *
 * An operation that selects only introspection fields (`__schema`, `__type`, `__typename`) at its root is planned
 * on the published schema (the SDL as written: `@serverRequired` positions non-null), so a client generating types
 * from the mock's URL gets the types of `schema.graphql`, not the wire schema's relaxed inputs (decisions/0006).
 * Output types are the same in both, so nothing a data query sees differs.
 *
 * Also the mock's answers to a request in the wrong guide: the detection itself lives in the contract layer
 * (`src/contract/guide-detection.ts`, shared with the checker); this module words the refusal and its fix.
 *
 * @module
 */
import {
  buildSchema,
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
import { currentSchemaSdl, legacySchemaSdl } from '../../../../generated/schema-sdl.ts';
import type { RequestLimits } from '../../../assumptions.ts';
import { graphqlError, validationError } from '../../../contract/error-shapes.ts';
import {
  type decideGuide,
  documentSignals,
  type GuideSignal,
  type VariableBinding,
  variableBindings,
} from '../../../contract/guide-detection.ts';
import { legacyGuideNames as n } from '../../../contract/guides.ts';
import { kitMessage } from '../../../internal/messages.ts';
import type { Guide } from '../domain/payments.ts';
import {
  type Answer,
  answer,
  type GraphqlResult,
  type ReasonCodes,
  validationFailure,
  withinStack,
} from './answers.ts';
import type { CompiledQuery } from './jit.ts';
import { checkLimits, KnownOperationTypesRule, limitRules, parseWithinLimits } from './limits.ts';
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
       * Whether the operation reads configuration alone, so its compiled success may be kept (engine.ts);
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

export {
  decideGuide,
  documentSignals,
  type GuideMode,
  type GuideSignal,
  variableBindings,
  variableSignals,
} from '../../../contract/guide-detection.ts';

function fix(signal: GuideSignal): string {
  switch (signal.kind) {
    case 'cardNumber':
      return signal.guide === 'legacy'
        ? `"${n.legacyCardNumberField}" is the legacy guide's name for the card number; the current guide calls it "${n.currentCardNumberField}". Send ${n.currentCardNumberField}`
        : `"${n.currentCardNumberField}" is the current guide's name for the card number; the legacy guide calls it "${n.legacyCardNumberField}". Send ${n.legacyCardNumberField}`;
    case 'reference':
      return signal.guide === 'legacy'
        ? `"${signal.name}" belongs to the legacy guide, which puts description and reference_no in the contact; the current guide takes them in "${n.paymentReferenceField}". Send ${n.paymentReferenceField} { description, reference_no }`
        : `"${signal.name}" belongs to the current guide; the legacy guide takes description and reference_no in the contact. Send contact.description and contact.reference_no`;
    case 'inputType':
      return signal.guide === 'legacy'
        ? `"${signal.name}" is the legacy guide's name for the payment input type; the current guide calls it "${n.currentPaymentInputType}". Declare $input: ${n.currentPaymentInputType}!`
        : signal.name === n.paymentReferenceType
          ? `"${signal.name}" exists only in the current guide; the legacy guide takes description and reference_no in the contact. Send contact.description and contact.reference_no`
          : `"${signal.name}" is the current guide's name for the payment input type; the legacy guide calls it "${n.legacyPaymentInputType}". Declare $input: ${n.legacyPaymentInputType}!`;
    case 'feeTotal':
      return signal.guide === 'legacy'
        ? `"${n.legacyTotalField}" is the legacy guide's fee list field; the current guide calls it "${n.currentTotalField}". Select ${n.currentTotalField}`
        : `"${n.currentTotalField}" is the current guide's fee list field; the legacy guide calls it "${n.legacyTotalField}". Select ${n.legacyTotalField}`;
    case 'feeLocation':
      return `"${n.legacyLocationField}" exists only in the legacy guide's fee list; the current guide has no such field. Leave it out`;
  }
}

/**
 * The message for a request in the other guide's shape: that it is a guide mismatch (both guides named, so it is not
 * read as a problem with the card or the data), what the name is, what this guide calls it, and the two fixes.
 *
 * @example
 * // kit prefix, then: Guide mismatch: this mock serves the current guide and the request is written in the legacy
 * // guide. "number" is the legacy guide's name for the card number; the current guide calls it "card_number".
 * // Send card_number, or start the mock with --guide legacy or --guide both.
 */
export function mismatchMessage(signal: GuideSignal): string {
  const served: Guide = signal.guide === 'legacy' ? 'current' : 'legacy';
  return kitMessage(
    `Guide mismatch: this mock serves the ${served} guide and the request is written in the ${signal.guide} guide. ${fix(signal)}, or start the mock with --guide ${signal.guide} or --guide both.`,
  );
}

/** The message for a request that mixes names of both guides. */
export function conflictMessage(a: GuideSignal, b: GuideSignal): string {
  const where = (s: GuideSignal) => (s.path ? `"${s.name}" (at ${s.path})` : `"${s.name}"`);
  return kitMessage(
    `The request mixes the two guides: ${where(a)} is the ${a.guide} guide's name and ${where(b)} is the ${b.guide} guide's. Use the names of one guide throughout.`,
  );
}

/** A guide decision that refused the request. */
export type GuideRefusal = Exclude<ReturnType<typeof decideGuide>, { ok: true }>;

/**
 * The answer for a request in the other guide's shape (or mixing both): a 7.3 validation entry at the offending
 * path when there is one, else a 7.2 error; either carries the reason `guideMismatch`, so a client tells a guide
 * mismatch from a refused card or a bad value at the same path.
 *
 * @example
 * if (!decision.ok) return guideFailure(decision, op, errorStatus, reasons);
 */
export function guideFailure(
  decision: GuideRefusal,
  op: OperationEntry,
  errorStatus: number,
  reasons: ReasonCodes,
): GraphqlResult {
  const signal = decision.kind === 'mismatch' ? decision.signal : decision.a;
  const message =
    decision.kind === 'mismatch' ? mismatchMessage(decision.signal) : conflictMessage(decision.a, decision.b);
  const base =
    signal.path !== undefined && signal.rootField !== undefined
      ? answer(errorStatus, {
          errors: [validationError(signal.rootField, { [signal.path]: [message] }, reasons.guideMismatch)],
        })
      : answer(errorStatus, { errors: [graphqlError(message, reasons.guideMismatch)] });
  return op.operationName === undefined ? base : { ...base, operationName: op.operationName };
}

const metaFields = new Set(['__schema', '__type', '__typename']);

/**
 * Whether `operation` reads the schema: it selects `__schema` or `__type` at its root and nothing but introspection
 * fields there (fragments at the root do not count). A plain `{ __typename }` is a data query like any other.
 */
function isIntrospectionOnly(operation: OperationDefinitionNode): boolean {
  if (operation.operation !== 'query') return false;
  let readsSchema = false;
  for (const s of operation.selectionSet.selections) {
    if (s.kind !== Kind.FIELD || !metaFields.has(s.name.value)) return false;
    if (s.name.value !== '__typename') readsSchema = true;
  }
  return readsSchema;
}

const published: Partial<Record<Guide, GraphQLSchema>> = {};

/** The guide's published schema, built once per process (no resolvers: introspection needs none). */
function publishedSchemaOf(guide: Guide): GraphQLSchema {
  published[guide] ??= buildSchema(guide === 'current' ? currentSchemaSdl : legacySchemaSdl, {
    assumeValidSDL: true,
    assumeValid: true,
  });
  return published[guide];
}
