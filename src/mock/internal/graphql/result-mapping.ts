/**
 * Runs a planned operation and maps what graphql-jit or graphql-js returned to the engine's answer: data with the
 * compiled serializer, the kit's own 7.2/7.3 errors as they are, variable coercion errors worded again from a
 * redacted copy (redact.ts), and anything else masked as `Internal server error` with the exception handed back
 * for the server's log. Also words the answer for a request in the other guide's shape.
 *
 * @module
 */
import {
  type DocumentNode,
  type ExecutionResult,
  execute as executeWithGraphqlJs,
  type GraphQLSchema,
  getVariableValues,
} from 'graphql/index.js';
import { type GraphqlErrorEntry, graphqlError, validationError } from '../../../contract/error-shapes.ts';
import { kitMessage } from '../../../internal/messages.ts';
import { answer, type GraphqlResult, type ReasonCodes, validationFailure } from './answers.ts';
import { conflictMessage, type decideGuide, mismatchMessage } from './guide-detection.ts';
import type { CompiledQuery } from './jit.ts';
import type { OperationEntry, RunnablePlan } from './operation-plans.ts';
import { redactVariables } from './redact.ts';
import { GraphqlAnswerError, type ResolverContext } from './resolvers.ts';

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
