/**
 * The published schema of each guide (the SDL as written: `@serverRequired` positions non-null) and the test that
 * picks it: an operation that selects only introspection fields (`__schema`, `__type`, `__typename`) at its root is
 * answered from the published schema, so a client generating types from the mock's URL gets the types of
 * `schema.graphql`, not the wire schema's relaxed inputs (decisions/0006). Output types are the same in both, so
 * nothing a data query sees differs.
 *
 * @module
 */
import { buildSchema, type GraphQLSchema, Kind, type OperationDefinitionNode } from 'graphql/index.js';
import { currentSchemaSdl, legacySchemaSdl } from '../../../../generated/schema-sdl.ts';
import type { Guide } from '../payments/state.ts';

const metaFields = new Set(['__schema', '__type', '__typename']);

/**
 * Whether `operation` reads the schema: it selects `__schema` or `__type` at its root and nothing but introspection
 * fields there (fragments at the root do not count). A plain `{ __typename }` is a data query like any other.
 */
export function isIntrospectionOnly(operation: OperationDefinitionNode): boolean {
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
export function publishedSchemaOf(guide: Guide): GraphQLSchema {
  published[guide] ??= buildSchema(guide === 'current' ? currentSchemaSdl : legacySchemaSdl, {
    assumeValidSDL: true,
    assumeValid: true,
  });
  return published[guide];
}
