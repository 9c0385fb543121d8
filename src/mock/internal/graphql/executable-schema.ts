/**
 * The executable schema of each guide: the wire schema (built once per process from the generated SDL), the kit's
 * resolvers on every root field, and a `@graphql-tools/mock` MockStore with seeded scalar mocks completing whatever
 * a resolver leaves undefined (mock-fallback.ts). Each guide's schema is built the first time a request in that
 * guide needs it.
 *
 * @module
 */
import { createMockStore, type IMockStore } from '@graphql-tools/mock';
import { addResolversToSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql/index.js';
import { currentSchemaSdl, legacySchemaSdl } from '../../../../generated/schema-sdl.ts';
import { kitMessage } from '../../../internal/messages.ts';
import type { Guide } from '../payments/state.ts';
import type { SeededRandom } from '../random.ts';
import { createCompleter } from './mock-fallback.ts';
import type { createResolvers } from './resolvers.ts';
import { buildWireSchema, type WireSchema } from './wire-schema.ts';

const wireSchemas: Partial<Record<Guide, WireSchema>> = {};

/**
 * The wire schema of `guide`, built once per process: it depends only on the generated SDL.
 *
 * @example
 * wireSchemaOf('legacy').requirements;
 */
export function wireSchemaOf(guide: Guide): WireSchema {
  wireSchemas[guide] ??= buildWireSchema(guide === 'current' ? currentSchemaSdl : legacySchemaSdl);
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
