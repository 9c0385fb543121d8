/**
 * Kept answers of configuration-only queries. The fee list (`paymentGatewayFeesCalc`) reads nothing but the
 * instance's fee table, which never changes while it runs, so its answer is a pure function of the document, the
 * operation, the guide and the variables: the engine keeps the serialized answer per plan (document, operation and
 * guide) and per variables, and sends it again instead of running the resolver, the validation and the serializer
 * (issue 22: the fee list against the bare node:http limit).
 *
 * Only compiled successes are kept: an error answer is worded for its request, an internal error must reach the log
 * each time, and the answers of graphql-js (before graphql-jit has loaded) must give way to the compiled ones. The
 * engine's reset forgets every kept answer (the mock store's generated values rewind with it). Memory is bounded: at
 * most {@link maxAnswersPerPlan} variable sets per plan (the set starts over when full), each keyed by its JSON text
 * of at most {@link maxKeyLength} characters.
 *
 * @module
 */
import { Kind, type OperationDefinitionNode } from 'graphql/index.js';
import { createKeptAnswers, type KeptAnswers, maxKeptAnswers } from '../kept-answers.ts';
import type { GraphqlResult } from './answers.ts';

/** Root query fields answered from configuration alone, whose answer can be kept. */
const pureRootFields: ReadonlySet<string> = new Set(['paymentGatewayFeesCalc', '__typename']);

/** Most variable sets whose answer one plan keeps (the bound of every kept set). */
export const maxAnswersPerPlan = maxKeptAnswers;

/** Longest variables JSON kept as a key; larger variables are answered, not kept. */
export const maxKeyLength = 256;

/** The kept answers of one plan, by the JSON text of the request's variables. */
export type PureAnswers = KeptAnswers<GraphqlResult>;

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

/**
 * The key of a request's variables: their JSON text ('' when there are none), or `undefined` when too long to keep.
 * Two requests with the same key coerce to the same variables, so they get the same answer.
 */
export function variablesKey(variables: Record<string, unknown> | undefined): string | undefined {
  if (variables === undefined) return '';
  const key = JSON.stringify(variables);
  return key.length <= maxKeyLength ? key : undefined;
}

/** Creates the kept answers of one plan (empty). */
export const createPureAnswers = (): PureAnswers => createKeptAnswers<GraphqlResult>();

/** Whether `result` is data without errors from graphql-jit: the only answer a configuration-only query keeps. */
function isCompiledSuccess(result: GraphqlResult): boolean {
  return (
    result.executedBy === 'graphql-jit' &&
    result.internalError === undefined &&
    (result.body as { errors?: unknown }).errors === undefined
  );
}

/**
 * Answers a compiled operation through the kept answers of its plan (`holder`): the kept answer of a
 * configuration-only query for these variables when there is one, else `run()`, kept when it is a compiled success.
 * Other operations just run; the plan learns once whether its operation is configuration-only.
 *
 * @example
 * return answerKeeping(plan, op.operation, variables, epoch, () => runOperation(...));
 */
export function answerKeeping(
  holder: { answers?: PureAnswers | null },
  operation: OperationDefinitionNode | undefined,
  variables: Record<string, unknown> | undefined,
  epoch: number,
  run: () => GraphqlResult,
): GraphqlResult {
  if (holder.answers === undefined) holder.answers = isPureOperation(operation) ? createPureAnswers() : null;
  const answers = holder.answers;
  const key = answers === null ? undefined : variablesKey(variables);
  if (answers === null || key === undefined) return run();
  const kept = answers.get(key, epoch);
  if (kept !== undefined) return kept;
  const result = run();
  if (!isCompiledSuccess(result)) return result;
  // Marked, so the /graphql route may keep it by the request's body bytes too (kept-graphql-answers.ts).
  const keptResult: GraphqlResult = { ...result, kept: true };
  answers.keep(key, epoch, keptResult);
  return keptResult;
}
