/**
 * The mock's GraphQL engine (decision 0001): executes one GraphQL-over-HTTP request body and returns the HTTP
 * status and body to answer with. Never throws for client mistakes; unexpected exceptions are masked as
 * `Internal server error` (reason `internal`) and handed back in `internalError` for the server to log.
 *
 * Built once per mock instance: each guide's wire schema (see wire-schema.ts) is made executable, the first time a
 * request in that guide comes, with the kit's resolvers as the source of truth and a `@graphql-tools/mock` MockStore
 * (seeded scalar mocks) filling any field they leave undefined (mock-fallback.ts); requests run through graphql-jit. Per distinct (query text,
 * operationName) the document is parsed, validated against the guide's wire schema and compiled once, then kept in
 * a bounded LRU; the hot path is a cache lookup, a few property reads for guide detection, the compiled function and
 * its precompiled JSON serializer.
 *
 * The document limits (limits.ts) are checked on that first parse, so a cached query pays nothing for them and a
 * refused one stays refused. Messages graphql-js words from the request's values are worded from a redacted copy
 * (redact.ts), so no card number or CVV is ever echoed.
 *
 * graphql-jit is not on the start-up path: jit.ts is imported on the first request, and the requests that come
 * before it has loaded are executed by graphql-js `execute` (same schema, same resolvers, same answers; a parity
 * test holds both paths to the same bytes). Loading it eagerly was a third of the time from spawning the mock to
 * its first GraphQL answer (issue 6's cold start). An operation graphql-jit cannot compile stays on graphql-js.
 *
 * @module
 */
import { createMockStore, type IMockStore } from '@graphql-tools/mock';
import { addResolversToSchema } from '@graphql-tools/schema';
import {
  type DocumentNode,
  type ExecutionResult,
  execute as executeWithGraphqlJs,
  GraphQLError,
  type GraphQLSchema,
  getOperationAST,
  getVariableValues,
  type OperationDefinitionNode,
  specifiedRules,
  type ValidationRule,
  validate,
} from 'graphql/index.js';
import { currentSchemaSdl, legacySchemaSdl } from '../../../../generated/schema-sdl.ts';
import type { Assumptions } from '../../../assumptions.ts';
import { kitMessage } from '../../../internal/messages.ts';
import { isPlainObject } from '../../../internal/plain-object.ts';
import type { Clock } from '../clock.ts';
import { createFeeCalculator } from '../domain/fees.ts';
import { graphqlError, type MockGraphqlError, validationError } from '../errors.ts';
import type { SeededRandom } from '../random.ts';
import type { Guide, MockState, StoredPayment } from '../state.ts';
import {
  conflictMessage,
  decideGuide,
  documentSignals,
  type GuideMode,
  type GuideSignal,
  mismatchMessage,
  type VariableBinding,
  variableBindings,
  variableSignals,
} from './guide-detection.ts';
import type { CompiledQuery } from './jit.ts';
import {
  checkLimits,
  KnownOperationTypesRule,
  limitRules,
  parseWithinLimits,
  tooDeepMessage,
  validationAbortedMessage,
} from './limits.ts';
import { createCompleter } from './mock-fallback.ts';
import { redactDocument, redactVariables, scrubMessage } from './redact.ts';
import { createResolvers, GraphqlAnswerError, type ResolverContext } from './resolvers.ts';
import { buildWireSchema, type WireRequirements, type WireSchema } from './wire-schema.ts';

/** One GraphQL-over-HTTP request body, as parsed JSON (not yet checked). */
export interface GraphqlRequest {
  query: unknown;
  variables?: unknown;
  operationName?: unknown;
}

/** Who is calling: from the verified token and the socket. */
export interface GraphqlCallContext {
  /** Client id from the access token. */
  clientId: string;
  /** Requesting IP address; default of the payment's `ip_address`. */
  ip: string;
}

/** The answer to one request. */
export interface GraphqlResult {
  /** HTTP status: 200 for data, `Assumptions.graphqlErrorHttpStatus` for GraphQL errors, 500 for internal ones. */
  status: number;
  /** JSON body: `{ data }` or `{ errors }` (spec 7.2/7.3 shapes). */
  body: unknown;
  /** `body` already serialized (with the compiled query's serializer when there is one); send this. */
  json: string;
  /** Operation name, for the request log. */
  operationName?: string;
  /** Guide the request was answered in, for the request log. */
  guide?: Guide;
  /** The unexpected exception behind a masked internal error, for the server's log; never sent to the client. */
  internalError?: unknown;
  /** What executed the operation, when one was executed (tests and benchmarks check which path ran). */
  executedBy?: 'graphql-jit' | 'graphql-js';
}

/** The engine seam of decision 0001. */
export interface GraphqlEngine {
  /** Executes one GraphQL-over-HTTP request body; never throws for client mistakes. */
  execute(request: GraphqlRequest, ctx: GraphqlCallContext): GraphqlResult;
  /** Rewinds the mock store's generated values (call with the state and random reset). Keeps compiled queries. */
  reset(): void;
  /**
   * Prepares now what would otherwise be prepared on first need: with `scope: 'all'` (default) every served guide's
   * schema and the query compiler; with `'first-request'` only the schema of the first served guide.
   */
  warmUp(options?: { scope?: 'all' | 'first-request' }): Promise<void>;
  /** Cache counters, for tests and benchmarks. */
  cacheStats(): { size: number; hits: number; misses: number };
}

/** Dependencies of {@link createGraphqlEngine}. */
export interface GraphqlEngineDeps {
  assumptions: Assumptions;
  /** Guide served: one of them, or both with per-request detection. */
  guide: GuideMode;
  state: MockState;
  clock: Clock;
  random: SeededRandom;
  /** Called once per accepted payment, after it is stored; schedule settlement here. */
  onPaymentAccepted(payment: StoredPayment): void;
  /** Distinct (query, operationName) pairs kept compiled. Default 1,000. */
  cacheSize?: number;
  /**
   * How operations run: `'compiled'` (default) with graphql-jit once it has loaded, graphql-js before;
   * `'interpreted'` always with graphql-js (the parity tests compare the two).
   */
  execution?: 'compiled' | 'interpreted';
}

type Answer = { readonly status: number; readonly body: unknown; readonly json: string };

interface OperationEntry {
  readonly operation: OperationDefinitionNode | undefined;
  readonly operationName: string | undefined;
  readonly bindings: readonly VariableBinding[];
  /** Answer for every request of this entry (unknown operation), instead of executing. */
  readonly failure: Answer | undefined;
  /** Per guide, once validated against that guide's schema: how to run the operation. */
  readonly plans: { current?: Plan; legacy?: Plan };
}

/** A validated operation in one guide: its validation failure, or what executes it. */
type Plan =
  | { readonly failure: Answer }
  | {
      readonly failure: undefined;
      readonly schema: GraphQLSchema;
      /** The graphql-jit function, once compiled; `null` when graphql-jit cannot compile it (graphql-js runs it). */
      compiled: CompiledQuery | null | undefined;
    };

interface DocumentEntry {
  readonly document: DocumentNode | undefined;
  readonly failure: Answer | undefined;
  readonly signals: readonly GuideSignal[];
  readonly operations: Map<string, OperationEntry>;
}

const wireSchemas: Partial<Record<Guide, WireSchema>> = {};

// The wire schemas depend only on the generated SDL: build each once per process, not per mock instance.
function wireSchemaOf(guide: Guide): WireSchema {
  wireSchemas[guide] ??= buildWireSchema(guide === 'current' ? currentSchemaSdl : legacySchemaSdl);
  return wireSchemas[guide];
}

type JitModule = typeof import('./jit.ts');

// graphql-jit, loaded once per process on first need (see the module comment).
let jit: JitModule | undefined;
let jitLoading: Promise<void> | undefined;

function loadJit(): Promise<void> {
  jitLoading ??= import('./jit.ts').then(
    (m) => {
      jit = m;
    },
    // A compiler that does not load leaves every operation on graphql-js: slower, same answers.
    () => undefined,
  );
  return jitLoading;
}

// Longer query texts are answered but not kept: a cache of 1,000 one-megabyte keys would hold a gigabyte. Parsing
// such a text again is bounded by the token limit.
const maxCachedQueryLength = 64 * 1024;

// The spec's rules, plus the one graphql-js 16 lacks (a subscription on a schema without a subscription type).
const documentRules: readonly ValidationRule[] = [...specifiedRules, KnownOperationTypesRule];

function answer(status: number, body: unknown): Answer {
  return { status, body, json: JSON.stringify(body) };
}

/**
 * Creates the engine of one mock instance.
 *
 * @example
 * const engine = createGraphqlEngine({ assumptions, guide: 'current', state, clock, random, onPaymentAccepted });
 * const { status, json } = engine.execute({ query, variables }, { clientId: 'test-client', ip: '127.0.0.1' });
 */
export function createGraphqlEngine(deps: GraphqlEngineDeps): GraphqlEngine {
  const { assumptions, guide: mode } = deps;
  const reasons = assumptions.reasonCodes;
  const errorStatus = assumptions.graphqlErrorHttpStatus;
  const cacheSize = Math.max(1, deps.cacheSize ?? 1000);
  const guides: Guide[] = mode === 'both' ? ['current', 'legacy'] : [mode];
  const limits = assumptions.limits;
  const limitChecks = limitRules(limits);

  const interpretOnly = deps.execution === 'interpreted';
  // Each guide's wire schema is built when a request in that guide first needs it.
  const requirements: Record<Guide, WireRequirements> = {
    get current() {
      return wireSchemaOf('current').requirements;
    },
    get legacy() {
      return wireSchemaOf('legacy').requirements;
    },
  };

  const resolvers = createResolvers({
    assumptions,
    state: deps.state,
    clock: deps.clock,
    random: deps.random,
    fees: createFeeCalculator(assumptions),
    requirements,
    onPaymentAccepted: deps.onPaymentAccepted,
  });

  // The MockStore backs any field the resolvers leave undefined, with values from a seeded generator of its own
  // (never Math.random), so the store does not disturb the sequence of payment uuids.
  const mockRandom = deps.random.fork('mock-store');
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

  function schemaOf(guide: Guide): GraphQLSchema {
    const known = schemas[guide];
    if (known) return known;
    const wire = wireSchemaOf(guide).schema;
    const store = createMockStore({ schema: wire, mocks });
    stores.push(store);
    const schema = addResolversToSchema({
      schema: wire,
      resolvers: resolvers as unknown as Parameters<typeof addResolversToSchema>[0]['resolvers'],
    });
    // Every root field runs a kit resolver, whose result the MockStore completes (mock-fallback.ts); every other
    // field is read off that result, which graphql-jit compiles to a property read.
    for (const root of [schema.getQueryType(), schema.getMutationType()]) {
      if (!root) continue;
      for (const field of Object.values(root.getFields())) {
        const resolve = field.resolve;
        if (!resolve)
          throw new Error(
            kitMessage(`No resolver for ${root.name}.${field.name}: every root field needs one (resolvers.ts).`),
          );
        const complete = createCompleter(field.type, store);
        field.resolve = (source, args, context, info) => complete(resolve(source, args, context, info));
      }
    }
    schemas[guide] = schema;
    return schema;
  }

  const cache = new Map<string, DocumentEntry>();
  let hits = 0;
  let misses = 0;
  // The most recently used entry. A client usually repeats one query: comparing with it spares hashing the (new,
  // kilobyte-long) query string and the delete + set that marks recency (4 % of a payment in the engine, profiled).
  // It is always the Map's most recent key, so the LRU order stays exact.
  let recentQuery: string | undefined;
  let recentEntry: DocumentEntry | undefined;

  function documentEntry(query: string): DocumentEntry {
    if (query === recentQuery && recentEntry !== undefined) {
      hits++;
      return recentEntry;
    }
    const cached = cache.get(query);
    if (cached) {
      hits++;
      // Re-insert to mark as most recently used; Map keeps insertion order, so the first key is the LRU victim.
      cache.delete(query);
      cache.set(query, cached);
      recentQuery = query;
      recentEntry = cached;
      return cached;
    }
    misses++;
    const entry = newDocumentEntry(query);
    if (query.length > maxCachedQueryLength) return entry;
    if (cache.size >= cacheSize) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    cache.set(query, entry);
    recentQuery = query;
    recentEntry = entry;
    return entry;
  }

  /** Parses and checks the limits of a query text not seen before; the verdict is cached with the entry. */
  function newDocumentEntry(query: string): DocumentEntry {
    const failed = (failure: Answer): DocumentEntry => ({
      document: undefined,
      failure,
      signals: [],
      operations: new Map(),
    });
    const parsed = parseWithinLimits(query, limits);
    if (!parsed.ok) {
      const e = parsed.error;
      return failed(
        answer(errorStatus, {
          errors: [
            {
              message: parsed.limit ? e.message : scrubMessage(e.message, true),
              ...(e.locations ? { locations: e.locations } : {}),
              extensions: { reason: parsed.limit ? reasons.graphqlValidationFailed : reasons.graphqlParseFailed },
            },
          ],
        }),
      );
    }
    const document = parsed.document;
    // The limits do not depend on the guide; any served guide's wire schema gives the rules their context.
    const overLimit = withinStack(() => checkLimits(wireSchemaOf(guides[0]!).schema, document, limitChecks));
    if (overLimit.length > 0) return failed(answer(errorStatus, { errors: overLimit.map(validationFailure) }));
    return { document, failure: undefined, signals: documentSignals(document), operations: new Map() };
  }

  /**
   * Runs a recursive graphql-js step; a document that exhausts the call stack (nesting just under the token limit)
   * is a client mistake, answered as one, not an internal error.
   */
  function withinStack(step: () => readonly GraphQLError[]): readonly GraphQLError[] {
    try {
      return step();
    } catch (error) {
      if (error instanceof RangeError) return [new GraphQLError(tooDeepMessage)];
      throw error;
    }
  }

  function validationFailure(e: GraphQLError): MockGraphqlError {
    return {
      message: e.message === 'Validation aborted.' ? validationAbortedMessage : scrubMessage(e.message),
      ...(e.locations ? { locations: e.locations } : {}),
      extensions: { reason: reasons.graphqlValidationFailed },
    };
  }

  function operationEntry(doc: DocumentEntry, document: DocumentNode, name: string | undefined): OperationEntry {
    const key = name ?? '';
    let op = doc.operations.get(key);
    if (op) return op;
    const operation = getOperationAST(document, name) ?? undefined;
    const failure = operation
      ? undefined
      : answer(errorStatus, {
          errors: [
            graphqlError(
              name === undefined
                ? kitMessage('The document holds several operations; send "operationName" to pick one.')
                : kitMessage(
                    `The document has no operation named "${name}"; send one of its operation names in "operationName".`,
                  ),
              reasons.graphqlValidationFailed,
            ),
          ],
        });
    op = {
      operation,
      operationName: operation?.name?.value ?? name,
      bindings: operation ? variableBindings(operation) : [],
      failure,
      plans: {},
    };
    doc.operations.set(key, op);
    return op;
  }

  function planFor(op: OperationEntry, document: DocumentNode, guide: Guide): Plan {
    const known = op.plans[guide];
    if (known) return known;
    const schema = schemaOf(guide);
    const errors = withinStack(() => {
      const found = validate(schema, document, documentRules);
      if (found.length === 0) return found;
      // Messages may quote inline values; word them from a copy without card numbers and CVVs (redact.ts).
      const redacted = redactDocument(document);
      return redacted === document ? found : validate(schema, redacted, documentRules);
    });
    const plan: Plan =
      errors.length > 0
        ? { failure: answer(errorStatus, { errors: errors.map(validationFailure) }) }
        : { failure: undefined, schema, compiled: undefined };
    op.plans[guide] = plan;
    return plan;
  }

  /** The compiled query of a valid plan, compiling it now when graphql-jit has loaded; undefined: use graphql-js. */
  function compiledOf(plan: Extract<Plan, { failure: undefined }>, document: DocumentNode, op: OperationEntry) {
    if (plan.compiled !== undefined || interpretOnly) return plan.compiled ?? undefined;
    if (jit === undefined) {
      void loadJit();
      return undefined;
    }
    plan.compiled = jit.compileOperation(plan.schema, document, op.operationName) ?? null;
    return plan.compiled ?? undefined;
  }

  function badRequest(message: string): GraphqlResult {
    return answer(errorStatus, { errors: [graphqlError(message, reasons.badRequest)] });
  }

  function guideFailure(
    decision: Exclude<ReturnType<typeof decideGuide>, { ok: true }>,
    op: OperationEntry,
  ): GraphqlResult {
    const signal = decision.kind === 'mismatch' ? decision.signal : decision.a;
    const message =
      decision.kind === 'mismatch' ? mismatchMessage(decision.signal) : conflictMessage(decision.a, decision.b);
    const base =
      signal.path !== undefined && signal.rootField !== undefined
        ? answer(errorStatus, { errors: [validationError(signal.rootField, { [signal.path]: [message] })] })
        : answer(errorStatus, { errors: [graphqlError(message, reasons.graphqlValidationFailed)] });
    return op.operationName === undefined ? base : { ...base, operationName: op.operationName };
  }

  function run(
    compiled: CompiledQuery | undefined,
    plan: Extract<Plan, { failure: undefined }>,
    document: DocumentNode,
    variables: Record<string, unknown> | undefined,
    ctx: ResolverContext,
    op: OperationEntry,
  ): GraphqlResult {
    let result: ExecutionResult | undefined;
    if (compiled) {
      result = compiled.query(undefined, ctx, variables) as ExecutionResult;
      // Variables that do not coerce come back without a data key. graphql-jit words those errors its own way (and
      // names the outer variable for a nested field); graphql-js words them on both paths, so they do not change
      // when a query gets compiled (the parity test). Only failing requests pay for the second run.
      if (result.errors && !('data' in result)) result = undefined;
    }
    const viaJit = result !== undefined;
    if (result === undefined) {
      const executed = executeWithGraphqlJs({
        schema: plan.schema,
        document,
        operationName: op.operationName,
        contextValue: ctx,
        variableValues: variables,
      });
      // The resolvers are synchronous; a promise here is a bug in the mock, answered as an internal error.
      if (executed instanceof Promise) throw new Error(kitMessage('A resolver returned a promise.'));
      result = executed;
    }
    const operationName = op.operationName;
    const executedBy = viaJit ? 'graphql-jit' : 'graphql-js';
    if (!result.errors || result.errors.length === 0) {
      const body = { data: result.data };
      const json = viaJit ? compiled!.stringify(body) : JSON.stringify(body);
      return { status: 200, body, json, operationName, guide: ctx.guide, executedBy };
    }
    // Variable coercion failures come back before execution, without a data key. Their messages quote the values
    // sent, so they are worded again from a redacted copy of the variables (redact.ts).
    if (!('data' in result)) {
      const body = { errors: coercionErrors(plan.schema, op, variables) };
      return { status: errorStatus, body, json: JSON.stringify(body), operationName, guide: ctx.guide, executedBy };
    }
    const errors: MockGraphqlError[] = [];
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
      json: viaJit ? compiled!.stringify(body) : JSON.stringify(body),
      operationName,
      guide: ctx.guide,
      executedBy,
      ...(internalError === undefined ? {} : { internalError }),
    };
  }

  /** The coercion errors of `variables`, worded from their redacted copy. */
  function coercionErrors(
    schema: GraphQLSchema,
    op: OperationEntry,
    variables: Record<string, unknown> | undefined,
  ): MockGraphqlError[] {
    const coerced = getVariableValues(
      schema,
      op.operation?.variableDefinitions ?? [],
      redactVariables(variables ?? {}),
      {
        maxErrors: 50,
      },
    );
    if (coerced.errors && coerced.errors.length > 0) return coerced.errors.map(validationFailure);
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

  return {
    execute(request, callCtx) {
      try {
        const { query, variables, operationName } = request;
        if (typeof query !== 'string' || query.length === 0)
          return badRequest(kitMessage('The request body needs "query": a string holding the GraphQL document.'));
        if (variables !== undefined && variables !== null && !isPlainObject(variables))
          return badRequest(kitMessage('"variables" must be a JSON object mapping variable names to values.'));
        if (operationName !== undefined && operationName !== null && typeof operationName !== 'string')
          return badRequest(kitMessage('"operationName" must be a string naming an operation of the document.'));

        const doc = documentEntry(query);
        if (doc.failure || !doc.document) return doc.failure as Answer;
        const op = operationEntry(doc, doc.document, operationName ?? undefined);
        if (op.failure) return op.failure;

        const vars = (variables ?? undefined) as Record<string, unknown> | undefined;
        const decision = decideGuide(mode, doc.signals, variableSignals(op.bindings, vars));
        if (!decision.ok) return guideFailure(decision, op);
        const guide = decision.guide;

        const plan = planFor(op, doc.document, guide);
        if (plan.failure) return { ...plan.failure, operationName: op.operationName, guide };
        const compiled = compiledOf(plan, doc.document, op);
        const context: ResolverContext = { clientId: callCtx.clientId, ip: callCtx.ip, guide };
        return run(compiled, plan, doc.document, vars, context, op);
      } catch (error) {
        const body = { errors: [graphqlError('Internal server error', reasons.internal)] };
        return { status: 500, body, json: JSON.stringify(body), internalError: error };
      }
    },
    reset() {
      for (const store of stores) store.reset();
      mockRandom.reset();
    },
    async warmUp(options = {}) {
      if (options.scope === 'first-request') {
        schemaOf(guides[0]!);
        return;
      }
      for (const g of guides) schemaOf(g);
      if (!interpretOnly) await loadJit();
    },
    cacheStats() {
      return { size: cache.size, hits, misses };
    },
  };
}
