/**
 * The executable schema of each guide: built per mock instance from the wire schema's document (relaxed once per
 * process from the generated SDL, guide-schema-source.ts), with the kit's resolvers on every root field, and a `@graphql-tools/mock`
 * MockStore with seeded scalar mocks completing whatever a resolver leaves undefined (mock-fallback.ts). Each
 * guide's schema is built the first time a request in that guide needs it.
 *
 * @module
 */
import { createMockStore, type IMockStore } from '@graphql-tools/mock';
import { buildASTSchema, type GraphQLField, type GraphQLObjectType, type GraphQLSchema } from 'graphql/index.js';
import { kitMessage } from '../../../internal/messages.ts';
import type { Guide } from '../payments/state.ts';
import type { SeededRandom } from '../random.ts';
import { guideSchemaSource } from './guide-schema-source.ts';
import { createCompleter } from './mock-fallback.ts';
import type { createResolvers } from './resolvers.ts';
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
 * MockStore completes (mock-fallback.ts); every other field is read off that result, which graphql-jit compiles to
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
