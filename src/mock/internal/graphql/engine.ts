/**
 * The mock's GraphQL engine (decision 0001): executes one GraphQL-over-HTTP request body and returns the HTTP
 * status and body to answer with. Never throws for client mistakes; unexpected exceptions are masked as
 * `Internal server error` (reason `internal`) and handed back in `internalError` for the server to log.
 *
 * Built once per mock instance: each guide's wire schema (see wire-schema.ts) is made executable, the first time a
 * request in that guide comes, with the kit's resolvers as the source of truth and a `@graphql-tools/mock` MockStore
 * (seeded scalar mocks) filling any field they leave undefined (executable-schema.ts); requests run through graphql-jit. Per distinct (query text,
 * operationName) the document is parsed, validated against the guide's wire schema and compiled once, then kept in
 * a bounded LRU; the hot path is a cache lookup, a few property reads for guide detection, the compiled function and
 * its precompiled JSON serializer.
 *
 * The LRU compares the most recent entry first: a client usually repeats one query, and that spares hashing the
 * (new, kilobyte-long) query string and the delete + set that marks recency on every request of that client.
 *
 * The document limits (limits.ts) are checked on that first parse, so a cached query pays nothing for them and a
 * refused one stays refused. Messages graphql-js words from the request's values are worded from a redacted copy
 * (redact.ts), so no card number or CVV is ever echoed.
 *
 * graphql-jit is not on the start-up path: jit.ts is imported on the first request, and the requests that come
 * before it has loaded are executed by graphql-js `execute` (same schema, same resolvers, same answers; a parity
 * test holds both paths to the same bytes). Loading it eagerly would put its whole import on the way from spawning
 * the mock to its first answer (the cold start), which token calls never need. An operation graphql-jit cannot
 * compile stays on graphql-js.
 *
 * The fee list (`paymentGatewayFeesCalc`) reads nothing but the instance's fee table, which never changes while it
 * runs, so its answer is a pure function of the request: the engine marks a compiled success of such a query `kept`,
 * and the route keeps the whole answer by the request's body text until the engine's reset
 * (http/routes.ts). The engine keeps no answer of its own: one cache, keyed where a repeated request costs
 * least to recognise. Only compiled successes are marked: an error answer is worded for its request, an internal
 * error must reach the log each time, and graphql-js's answers (before graphql-jit has loaded) must give way.
 *
 * @module
 */
import { type DocumentNode, Kind, type OperationDefinitionNode } from 'graphql/index.js';
import type { Assumptions } from '../../../assumptions.ts';
import { graphqlError } from '../../../contract/error-shapes.ts';
import { kitMessage } from '../../../internal/messages.ts';
import { isPlainObject } from '../../../internal/plain-object.ts';
import type { Clock } from '../domain/clock.ts';
import { createFeeCalculator } from '../domain/fees.ts';
import type { Guide, MockState, StoredPayment } from '../domain/payments.ts';
import type { SeededRandom } from '../domain/random.ts';
import { answer, type GraphqlResult, readOnlyRefusal } from './answers.ts';
import { createExecutableSchemas, runOperation, wireSchemaOf } from './executable-schema.ts';

import type { JitLoader } from './jit-loader.ts';
import {
  createOperationPlanner,
  decideGuide,
  type GuideMode,
  guideFailure,
  type OperationEntry,
  type RunnablePlan,
  variableSignals,
} from './operation-plans.ts';
import { createResolvers, type ResolverContext } from './resolvers.ts';

import type { WireRequirements } from './wire-schema.ts';

/** One GraphQL-over-HTTP request body, as parsed JSON (not yet checked). */
export interface GraphqlRequest {
  query: unknown;
  variables?: unknown;
  operationName?: unknown;
  /**
   * The request came as GET, which may only read: a mutation is answered 405 (`methodNotAllowed`) without running,
   * as GraphQL over HTTP requires.
   */
  readOnly?: boolean;
}

/** Who is calling: from the verified token and the socket. */
export interface GraphqlCallContext {
  /** Client id from the access token. */
  clientId: string;
  /** Requesting IP address; default of the payment's `ip_address`. */
  ip: string;
}

/** The answer to one request (defined with the other answer types in answers.ts). */
export type { GraphqlResult } from './answers.ts';

/** Root query fields answered from configuration alone, whose answer can be kept. */
const pureRootFields: ReadonlySet<string> = new Set(['paymentGatewayFeesCalc', '__typename']);
/** Root query fields whose answer comes from configuration alone (the fee table, the schema). */
const configurationOnlyFields: ReadonlySet<string> = new Set([...pureRootFields, '__schema', '__type']);

/**
 * The engine seam of decision 0001. `Answer` is a promise of the result only for an engine over a shared store's
 * card accounts (its resolvers read one from the store); memory's engine answers synchronously.
 */
export interface GraphqlEngine<Answer extends GraphqlResult | Promise<GraphqlResult> = GraphqlResult> {
  /** Executes one GraphQL-over-HTTP request body; never throws for client mistakes. */
  execute(request: GraphqlRequest, ctx: GraphqlCallContext): Answer;
  /**
   * False when `request` reads only configuration (the fee list, introspection) or is refused before it runs, so a
   * replica on a shared state store answers it without catching up first. Parses through the engine's
   * document cache, so the parse is shared with the execution that follows.
   */
  readsShared(request: GraphqlRequest): boolean;
  /** Rewinds the mock store's generated values (call with the state and random reset). Keeps compiled queries. */
  reset(): void;
  /** Bumped by every reset: an answer marked `kept` holds only while this number is the one it was kept under. */
  answersEpoch(): number;
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
  /**
   * The platform's query compiler (graphql-jit under Node, jit-loader.ts); `undefined` runs every operation on
   * graphql-js, as `execution: 'interpreted'` does (the browser build leaves graphql-jit out).
   */
  jit: JitLoader | undefined;
}

/**
 * The guides an engine serves, and the guide whose request signals can refuse a request: serving one guide, only
 * the other's; serving both, none refuse, and every signal is collected (undefined). Worked out once per engine.
 */
function guidesOf(mode: GuideMode): { guides: Guide[]; refusing: Guide | undefined } {
  if (mode === 'both') return { guides: ['current', 'legacy'], refusing: undefined };
  return { guides: [mode], refusing: mode === 'current' ? 'legacy' : 'current' };
}

/**
 * Creates the engine of one mock instance.
 *
 * @example
 * const engine = createGraphqlEngine({ assumptions, guide: 'current', state, clock, random, onPaymentAccepted, jit });
 * const { status, json } = engine.execute({ query, variables }, { clientId: 'test-client', ip: '127.0.0.1' });
 */
// Typed synchronous for a state that keeps its card accounts (every direct caller); the loader takes both.
export function createGraphqlEngine(deps: GraphqlEngineDeps): GraphqlEngine;
export function createGraphqlEngine(deps: GraphqlEngineDeps): GraphqlEngine<GraphqlResult | Promise<GraphqlResult>> {
  const { assumptions, guide: mode } = deps;
  const reasons = assumptions.reasonCodes;
  const errorStatus = assumptions.graphqlErrorHttpStatus;
  const { guides, refusing } = guidesOf(mode);
  // No compiler (the browser build) runs everything on graphql-js, as 'interpreted' does.
  const jitLoader = deps.execution === 'interpreted' ? undefined : deps.jit;
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
  const schemas = createExecutableSchemas(resolvers, deps.random);
  const planner = createOperationPlanner({
    errorStatus,
    reasons,
    limits: assumptions.limits,
    // The instance's schema: the limits read no resolver, and the wire schema would be one more build.
    limitSchema: () => schemas.schemaOf(guides[0]!),
    schemaOf: schemas.schemaOf,
  });
  const cache = createDocumentCache(deps.cacheSize ?? 1000, planner.documentEntry);
  /** Bumped by reset: kept answers of configuration-only queries made before it are forgotten. */
  let answersEpoch = 0;

  /** The compiled query of a valid plan, compiling it now when graphql-jit has loaded; undefined: use graphql-js. */
  function compiledOf(plan: RunnablePlan, document: DocumentNode, op: OperationEntry) {
    if (plan.compiled !== undefined || jitLoader === undefined) return plan.compiled ?? undefined;
    const jit = jitLoader.loaded();
    if (jit === undefined) {
      void jitLoader.load();
      return undefined;
    }
    plan.compiled = jit.compileOperation(plan.schema, document, op.operationName) ?? null;
    return plan.compiled ?? undefined;
  }
  const badRequest = (message: string): GraphqlResult =>
    answer(errorStatus, { errors: [graphqlError(message, reasons.badRequest)] });
  const internal = (error: unknown) => internalAnswer(error, reasons.internal);
  const awaits = deps.state.readSharedCardAccount !== undefined;

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

        const doc = cache.get(query);
        if (doc.failure || !doc.document) return doc.failure!;
        const op = planner.operationEntry(doc, doc.document, operationName ?? undefined);
        if (op.failure) return op.failure;
        const kind = op.operation?.operation;
        if (request.readOnly && kind !== undefined && kind !== 'query')
          return readOnlyRefusal(kind, op.operationName, reasons);

        const vars = (variables ?? undefined) as Record<string, unknown> | undefined;
        const decision = decideGuide(mode, doc.signals, variableSignals(op.bindings, vars, refusing));
        if (!decision.ok) return guideFailure(decision, op, errorStatus, reasons);
        const guide = decision.guide;

        const plan = planner.planFor(op, doc.document, guide);
        if (plan.failure) return { ...plan.failure, operationName: op.operationName, guide, rootFields: op.rootFields };
        const compiled = compiledOf(plan, doc.document, op);
        const context: ResolverContext = { clientId: callCtx.clientId, ip: callCtx.ip, guide };
        const result = runOperation(compiled, plan, doc.document, vars, context, op, errorStatus, reasons, awaits);
        if (result instanceof Promise) return result.catch(internal);
        // A configuration-only query's compiled success (the fee list) is marked, so the route may keep it.
        return compiled === undefined || plan.pure === false ? result : markingPure(plan, op.operation, result);
      } catch (error) {
        return internal(error);
      }
    },
    readsShared(request) {
      const { query, operationName } = request;
      if (typeof query !== 'string' || query.length === 0) return false;
      if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return false;
      const doc = cache.get(query);
      if (doc.failure || !doc.document) return false;
      const op = planner.operationEntry(doc, doc.document, operationName ?? undefined);
      if (op.failure || !op.operation) return false;
      if (op.operation.operation !== 'query') return true;
      // Fragments at the root could select anything: counted as shared, as is every field but the config-only ones.
      return op.operation.selectionSet.selections.some(
        (s) => s.kind !== Kind.FIELD || !configurationOnlyFields.has(s.name.value),
      );
    },
    answersEpoch: () => answersEpoch,
    reset() {
      answersEpoch++;
      schemas.reset();
    },
    async warmUp(options = {}) {
      if (options.scope === 'first-request') {
        schemas.schemaOf(guides[0]!);
        return;
      }
      for (const g of guides) schemas.schemaOf(g);
      await jitLoader?.load();
    },
    cacheStats: cache.stats,
  };
}

/** The answer to a request the mock failed on: `Internal server error`, the exception kept for the log. */
function internalAnswer(error: unknown, reason: string): GraphqlResult {
  const body = { errors: [graphqlError('Internal server error', reason)] };
  return { status: 500, body, json: JSON.stringify(body), internalError: error };
}

// Longer query texts are answered but not kept: a cache of 1,000 one-megabyte keys would hold a gigabyte. Parsing
// such a text again is bounded by the token limit.
const maxCachedQueryLength = 64 * 1024;

/** The cache of one engine. */
interface DocumentCache<Entry> {
  /** The entry of `query`, built with the cache's builder on a miss. */
  get(query: string): Entry;
  /** Counters, for tests and benchmarks. */
  stats(): { size: number; hits: number; misses: number };
}

/**
 * Creates a cache of at most `size` entries (at least 1), each made by `build` on first sight of its text.
 *
 * @example
 * const cache = createDocumentCache(1000, (query) => parse(query));
 * const doc = cache.get('{ ping }');
 */
function createDocumentCache<Entry>(size: number, build: (query: string) => Entry): DocumentCache<Entry> {
  const capacity = Math.max(1, size);
  const cache = new Map<string, Entry>();
  let hits = 0;
  let misses = 0;
  let recentQuery: string | undefined;
  let recentEntry: Entry | undefined;

  function remember(query: string, entry: Entry): Entry {
    recentQuery = query;
    recentEntry = entry;
    return entry;
  }

  return {
    get(query) {
      if (query === recentQuery && recentEntry !== undefined) {
        hits++;
        return recentEntry;
      }
      const cached = cache.get(query);
      if (cached !== undefined) {
        hits++;
        // Re-insert to mark as most recently used; Map keeps insertion order, so the first key is the LRU victim.
        cache.delete(query);
        cache.set(query, cached);
        return remember(query, cached);
      }
      misses++;
      const entry = build(query);
      if (query.length > maxCachedQueryLength) return entry;
      if (cache.size >= capacity) {
        const oldest = cache.keys().next().value;
        if (oldest !== undefined) cache.delete(oldest);
      }
      cache.set(query, entry);
      return remember(query, entry);
    },
    stats: () => ({ size: cache.size, hits, misses }),
  };
}

/**
 * Whether `operation` is a query whose root selects only configuration-only fields (no fragments at the root, which
 * could select anything; no introspection, which graphql-js answers).
 *
 * @example
 * isPureOperation(getOperationAST(parse('query ($a: Float!) { paymentGatewayFeesCalc(amount: $a) { fees } }'))); // true
 */
export function isPureOperation(operation: OperationDefinitionNode | undefined): boolean {
  if (operation === undefined || operation.operation !== 'query') return false;
  return operation.selectionSet.selections.every((s) => s.kind === Kind.FIELD && pureRootFields.has(s.name.value));
}

/** Whether `result` is data without errors from graphql-jit: the only answer a configuration-only query keeps. */
function isCompiledSuccess(result: GraphqlResult): boolean {
  return (
    result.executedBy === 'graphql-jit' &&
    result.internalError === undefined &&
    (result.body as { errors?: unknown }).errors === undefined
  );
}

/**
 * `result` marked `kept` when the plan's operation is configuration-only and `result` is its compiled success; the
 * plan (`holder`) learns once whether its operation is configuration-only.
 *
 * @example
 * return markingPure(plan, op.operation, runOperation(...));
 */
function markingPure(
  holder: { pure?: boolean | undefined },
  operation: OperationDefinitionNode | undefined,
  result: GraphqlResult,
): GraphqlResult {
  holder.pure ??= isPureOperation(operation);
  return holder.pure && isCompiledSuccess(result) ? { ...result, kept: true } : result;
}
