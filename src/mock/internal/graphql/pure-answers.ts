/**
 * Answers of configuration-only queries, marked so the /graphql route may keep them. The fee list
 * (`paymentGatewayFeesCalc`) reads nothing but the instance's fee table, which never changes while it runs, so its
 * answer is a pure function of the request: the engine marks a compiled success of such a query `kept`, and the
 * route keeps the whole answer by the request's body text until the engine's reset (http/service-routes.ts). The
 * engine keeps no answer of its own: one cache, keyed where a repeated request costs least to recognise.
 *
 * Only compiled successes are marked: an error answer is worded for its request, an internal error must reach the
 * log each time, and the answers of graphql-js (before graphql-jit has loaded) must give way to the compiled ones.
 *
 * @module
 */
import { Kind, type OperationDefinitionNode } from 'graphql/index.js';
import type { GraphqlResult } from './answers.ts';

/** Root query fields answered from configuration alone, whose answer can be kept. */
const pureRootFields: ReadonlySet<string> = new Set(['paymentGatewayFeesCalc', '__typename']);

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
export function markingPure(
  holder: { pure?: boolean | undefined },
  operation: OperationDefinitionNode | undefined,
  result: GraphqlResult,
): GraphqlResult {
  holder.pure ??= isPureOperation(operation);
  return holder.pure && isCompiledSuccess(result) ? { ...result, kept: true } : result;
}
