/**
 * graphql-jit behind a module of its own, so the engine can load it with `import()` after start-up: with its JSON
 * serializer (fast-json-stringify and ajv) it is about half of the GraphQL code the mock bundles, and the first
 * requests are served by graphql-js while it loads (engine.ts).
 *
 * @module
 */
import type { DocumentNode, GraphQLSchema } from 'graphql/index.js';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';

export type { CompiledQuery } from 'graphql-jit';

/**
 * Compiles one validated operation, with a JSON serializer made for its result shape. Returns `undefined` when
 * graphql-jit cannot compile it; the engine then keeps executing it with graphql-js.
 *
 * @example
 * const compiled = compileOperation(schema, document, 'paymentGatewayFeesCalc');
 * const json = compiled?.stringify(compiled.query(undefined, context, variables));
 */
export function compileOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
): CompiledQuery | undefined {
  const compiled = compileQuery(schema, document, operationName, {
    customJSONSerializer: true,
    disablingCapturingStackErrors: true,
  });
  return isCompiledQuery(compiled) ? compiled : undefined;
}
