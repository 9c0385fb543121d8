/**
 * The executable schema of each guide: built per mock instance from the wire schema's document (relaxed once per
 * process from the generated SDL, guide-schema-source.ts), with the kit's resolvers on every root field, and a
 * `@graphql-tools/mock` MockStore with seeded scalar mocks completing whatever a resolver leaves undefined. Each
 * guide's schema is built the first time a request in that guide needs it.
 *
 * The MockStore fallback is applied to what a resolver returns instead of through a resolver on every field.
 * `addMocksToSchema` backs each field with a mock resolver, so a field the kit's resolvers leave undefined still gets
 * a value from the MockStore. Under graphql-jit, a resolver on a field means building resolve info for it on every
 * request, for every field of the answer, though the kit's resolvers fill nearly all of them. Here the root
 * resolvers' results are walked along their output type once, and only fields left undefined are filled from the
 * same MockStore (`store.get`, keyed per type, so a filled field is stable); every other field is read by
 * graphql-jit straight off the object.
 *
 * Running a planned operation lives here too, with the mapping of what graphql-jit or graphql-js returned to the
 * engine's answer: data with the compiled serializer, the kit's own 7.2/7.3 errors as they are, variable coercion
 * errors worded again from a redacted copy (redact.ts), and anything else masked as `Internal server error` with the
 * exception handed back for the server's log.
 *
 * @module
 */
import { createMockStore, type IMockStore, type Ref } from '@graphql-tools/mock';
import {
  buildASTSchema,
  type DocumentNode,
  type ExecutionResult,
  execute as executeWithGraphqlJs,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  getNullableType,
  getVariableValues,
  isListType,
  isObjectType,
} from 'graphql/index.js';
import { type GraphqlErrorEntry, graphqlError } from '../../../contract/error-shapes.ts';
import { kitMessage } from '../../../internal/messages.ts';
import type { Guide } from '../domain/payments.ts';
import type { SeededRandom } from '../domain/random.ts';
import { type GraphqlResult, type ReasonCodes, validationFailure } from './answers.ts';
import { guideSchemaSource } from './guide-schema-source.ts';
import type { CompiledQuery } from './jit.ts';
import type { OperationEntry, RunnablePlan } from './operation-plans.ts';
import { redactVariables } from './redact.ts';
import { type createResolvers, GraphqlAnswerError, type ResolverContext } from './resolvers.ts';
import { buildWireSchema, type WireSchema, wireBuildOptions } from './wire-schema.ts';

const wireSchemas: Partial<Record<Guide, WireSchema>> = {};

/**
 * The wire schema of `guide`, built once per process: it depends only on the generated SDL.
 *
 * @example
 * wireSchemaOf('legacy').requirements;
 */
export function wireSchemaOf(guide: Guide): WireSchema {
  wireSchemas[guide] ??= buildWireSchema(guideSchemaSource(guide));
  return wireSchemas[guide];
}

/** One mock instance's executable schemas. */
export interface ExecutableSchemas {
  /** The executable schema of `guide`, built on first call. */
  schemaOf(guide: Guide): GraphQLSchema;
  /** Rewinds the MockStores' generated values and their random sequence. */
  reset(): void;
}

/**
 * Creates the per-instance schema factory.
 *
 * @example
 * const schemas = createExecutableSchemas(createResolvers(deps), random);
 * execute({ schema: schemas.schemaOf('current'), document });
 */
export function createExecutableSchemas(
  resolvers: ReturnType<typeof createResolvers>,
  random: SeededRandom,
): ExecutableSchemas {
  // The MockStore draws from a seeded generator of its own (never Math.random), so it does not disturb the
  // sequence of payment uuids.
  const mockRandom = random.fork('mock-store');
  const mocks = {
    String: () => `mock-${mockRandom.nextInt(1_000_000)}`,
    Float: () => Math.round(mockRandom.next() * 100_000) / 100,
    Int: () => mockRandom.nextInt(1000),
    Boolean: () => mockRandom.next() < 0.5,
    ID: () => mockRandom.uuid(),
    JSON: () => ({}),
  };
  const stores: IMockStore[] = [];
  const schemas: Partial<Record<Guide, GraphQLSchema>> = {};

  function build(guide: Guide): GraphQLSchema {
    // A schema of the instance's own, built from the relaxed document: its root fields get this instance's
    // resolvers, so instances in one process never share them. Building from the document does less than copying
    // the built wire schema with graphql-tools' addResolversToSchema, which rebuilds every type.
    const schema = buildASTSchema(wireSchemaOf(guide).document, wireBuildOptions);
    const store = createMockStore({ schema, mocks });
    stores.push(store);
    const byRoot = resolvers as unknown as Readonly<Record<string, Readonly<Record<string, unknown>>>>;
    for (const root of [schema.getQueryType(), schema.getMutationType()]) {
      if (root) attachResolvers(root, byRoot[root.name] ?? {}, store);
    }
    for (const rootName of Object.keys(byRoot))
      if (schema.getType(rootName) === undefined)
        throw new Error(kitMessage(`Resolvers for ${rootName}, which the schema has no type for (resolvers.ts).`));
    return schema;
  }

  return {
    schemaOf(guide) {
      schemas[guide] ??= build(guide);
      return schemas[guide];
    },
    reset() {
      for (const store of stores) store.reset();
      mockRandom.reset();
    },
  };
}

/**
 * Sets the kit's resolver on every field of one root type. Every root field runs a kit resolver, whose result the
 * MockStore completes ({@link createCompleter}); every other field is read off that result, which graphql-jit compiles to
 * a property read. Throws when a root field has no resolver, or a resolver no field.
 */
function attachResolvers(
  root: GraphQLObjectType,
  resolvers: Readonly<Record<string, unknown>>,
  store: IMockStore,
): void {
  const fields = root.getFields();
  for (const name of Object.keys(resolvers))
    if (!(name in fields))
      throw new Error(
        kitMessage(`Resolver ${root.name}.${name} names no field of the schema: remove it (resolvers.ts).`),
      );
  for (const field of Object.values(fields) as GraphQLField<unknown, unknown>[]) {
    const resolve = resolvers[field.name];
    if (typeof resolve !== 'function')
      throw new Error(
        kitMessage(`No resolver for ${root.name}.${field.name}: every root field needs one (resolvers.ts).`),
      );
    const complete = createCompleter(field.type, store);
    const run = resolve as NonNullable<GraphQLField<unknown, unknown>['resolve']>;
    field.resolve = (source, args, context, info) => complete(run(source, args, context, info));
  }
}

/** Fills the undefined fields of one resolved value (in place) and returns it. */
export type Completer = (value: unknown) => unknown;

/** Key under which fallback values are kept in the MockStore: one mocked object per type. */
const FALLBACK_KEY = 'payment-contract-kit-fallback';

const identity: Completer = (value) => value;

/**
 * Builds the completer for values of `type`: objects get their undefined fields from `store`, nested objects and
 * lists are walked, scalars pass through.
 *
 * @example
 * const complete = createCompleter(schema.getMutationType()!.getFields().processPaymentRequest!.type, store);
 * complete({ amount: 1, status: { name: 'processing' } }) // paid_at, uuid, … filled from the store
 */
export function createCompleter(type: GraphQLOutputType, store: IMockStore): Completer {
  const built = new Map<GraphQLObjectType, Completer>();

  function forType(t: GraphQLOutputType): Completer {
    const nullable = getNullableType(t);
    if (isListType(nullable)) {
      const item = forType(nullable.ofType);
      if (item === identity) return identity;
      return (value) => {
        if (Array.isArray(value)) for (const v of value) item(v);
        return value;
      };
    }
    return isObjectType(nullable) ? forObject(nullable) : identity;
  }

  function forObject(objectType: GraphQLObjectType): Completer {
    const known = built.get(objectType);
    if (known) return known;
    const fields: { name: string; complete: Completer; fallback: () => unknown }[] = [];
    const completer: Completer = (value) => {
      if (typeof value !== 'object' || value === null) return value;
      const record = value as Record<string, unknown>;
      for (const f of fields) {
        const v = record[f.name];
        if (v === undefined) record[f.name] = f.fallback();
        else if (f.complete !== identity) f.complete(v);
      }
      return value;
    };
    built.set(objectType, completer);
    for (const field of Object.values(objectType.getFields())) {
      const complete = forType(field.type);
      fields.push({
        name: field.name,
        complete,
        fallback: () => materialize(store.get(objectType.name, FALLBACK_KEY, field.name), field.type),
      });
    }
    return completer;
  }

  // The store answers object fields with references; turn them into plain objects of the store's values.
  function materialize(value: unknown, t: GraphQLOutputType): unknown {
    const nullable = getNullableType(t);
    if (value === null || value === undefined) return value;
    if (isListType(nullable)) return Array.isArray(value) ? value.map((v) => materialize(v, nullable.ofType)) : value;
    if (!isObjectType(nullable) || typeof value !== 'object' || !('$ref' in value)) return value;
    const ref = value as Ref;
    const out: Record<string, unknown> = {};
    for (const field of Object.values(nullable.getFields()))
      out[field.name] = materialize(store.get(ref, field.name), field.type);
    return out;
  }

  return forType(type);
}

/** The coercion errors of `variables`, worded from their redacted copy. */
function coercionErrors(
  schema: GraphQLSchema,
  op: OperationEntry,
  variables: Record<string, unknown> | undefined,
  reasons: ReasonCodes,
): GraphqlErrorEntry[] {
  const definitions = op.operation?.variableDefinitions ?? [];
  const coerced = getVariableValues(schema, definitions, redactVariables(variables ?? {}), { maxErrors: 50 });
  if (coerced.errors && coerced.errors.length > 0) return coerced.errors.map((e) => validationFailure(e, reasons));
  // Only a value the redaction changed could coerce now; answer without quoting anything.
  return [
    graphqlError(
      kitMessage(
        'A variable has a value of the wrong type for its declared type; check the variables against the operation.',
      ),
      reasons.graphqlValidationFailed,
    ),
  ];
}

/** What ran an operation and what it returned. */
interface Executed {
  readonly result: ExecutionResult;
  readonly viaJit: boolean;
}

/**
 * Executes with graphql-jit when compiled (falling back for coercion failures), else graphql-js. A promise comes
 * back only where `awaits` allows one (a shared store's resolvers read a card account from it); coercion failures
 * are found before any resolver runs, so a promise is always of an executed operation.
 */
function executeOnce(
  compiled: CompiledQuery | undefined,
  plan: RunnablePlan,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  ctx: ResolverContext,
  operationName: string | undefined,
  awaits: boolean,
): Executed | Promise<Executed> {
  if (compiled) {
    const ran = compiled.query(undefined, ctx, variables) as ExecutionResult | Promise<ExecutionResult>;
    if (ran instanceof Promise && awaits) return ran.then((result) => ({ result, viaJit: true }));
    if (ran instanceof Promise) throw new Error(kitMessage('A resolver returned a promise.'));
    const result = ran;
    // Variables that do not coerce come back without a data key. graphql-jit words those errors its own way (and
    // names the outer variable for a nested field); graphql-js words them on both paths, so they do not change
    // when a query gets compiled (the parity test). Only failing requests pay for the second run.
    if (!result.errors || 'data' in result) return { result, viaJit: true };
  }
  const executed = executeWithGraphqlJs({
    schema: plan.schema,
    document,
    operationName,
    contextValue: ctx,
    variableValues: variables,
  });
  // Without a shared store the resolvers are synchronous; a promise then is a bug, answered as an internal error.
  if (executed instanceof Promise && awaits) return executed.then((result) => ({ result, viaJit: false }));
  if (executed instanceof Promise) throw new Error(kitMessage('A resolver returned a promise.'));
  return { result: executed, viaJit: false };
}

/**
 * Runs the operation of `op` and maps the result to the engine's answer.
 *
 * @example
 * return runOperation(compiled, plan, document, variables, { clientId, ip, guide }, op, errorStatus, reasons);
 */
export function runOperation(
  compiled: CompiledQuery | undefined,
  plan: RunnablePlan,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  ctx: ResolverContext,
  op: OperationEntry,
  errorStatus: number,
  reasons: ReasonCodes,
  awaits = false,
): GraphqlResult | Promise<GraphqlResult> {
  const executed = executeOnce(compiled, plan, document, variables, ctx, op.operationName, awaits);
  const map = ({ result, viaJit }: Executed) =>
    mapResult(result, viaJit, compiled, plan, variables, ctx, op, errorStatus, reasons);
  return executed instanceof Promise ? executed.then(map) : map(executed);
}

/** Maps what ran an operation to the engine's answer. */
function mapResult(
  result: ExecutionResult,
  viaJit: boolean,
  compiled: CompiledQuery | undefined,
  plan: RunnablePlan,
  variables: Record<string, unknown> | undefined,
  ctx: ResolverContext,
  op: OperationEntry,
  errorStatus: number,
  reasons: ReasonCodes,
): GraphqlResult {
  const { operationName, rootFields } = op;
  const executedBy = viaJit ? 'graphql-jit' : 'graphql-js';
  const serialize = (body: unknown) => (viaJit ? compiled!.stringify(body) : JSON.stringify(body));
  if (!result.errors || result.errors.length === 0) {
    const body = { data: result.data };
    return { status: 200, body, json: serialize(body), operationName, guide: ctx.guide, rootFields, executedBy };
  }
  // Variable coercion failures come back before execution, without a data key. Their messages quote the values
  // sent, so they are worded again from a redacted copy of the variables (redact.ts).
  if (!('data' in result)) {
    const body = { errors: coercionErrors(plan.schema, op, variables, reasons) };
    const json = JSON.stringify(body);
    return { status: errorStatus, body, json, operationName, guide: ctx.guide, rootFields, executedBy };
  }
  const errors: GraphqlErrorEntry[] = [];
  let internalError: unknown;
  for (const e of result.errors) {
    const original = e.originalError;
    if (original instanceof GraphqlAnswerError) errors.push(original.entry);
    else {
      internalError ??= original ?? e;
      errors.push(graphqlError('Internal server error', reasons.internal, e.path));
    }
  }
  const body = result.data == null ? { errors } : { data: result.data, errors };
  return {
    status: internalError === undefined ? errorStatus : 500,
    body,
    // The compiled serializer writes error entries with additionalProperties, so extensions survive (tested).
    json: serialize(body),
    operationName,
    guide: ctx.guide,
    rootFields,
    executedBy,
    ...(internalError === undefined ? {} : { internalError }),
  };
}
