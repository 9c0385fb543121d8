/**
 * The GraphQL schemas the static checks read, one pair per guide: the published schema (schema.graphql or the
 * legacy guide's schema) and a "served" copy in which every `@serverRequired` position is nullable. The served copy
 * is what the service types-checks against: a missing `contact` reaches its validator and is answered as a 7.3
 * validation error, so a pact expecting that error sends variables the published types would refuse.
 *
 * @module
 */
import { buildASTSchema, type GraphQLSchema, Kind, parse, type TypeNode, visit } from 'graphql/index.js';
import { currentSchemaSdl, legacySchemaSdl } from '../../../generated/schema-sdl.ts';
import type { GuideName } from '../guides.ts';

// The guide's name is the contract layer's; re-exported for the checker's modules.
export type { GuideName };

/** The schemas of one guide. */
export interface GuideSchemas {
  readonly guide: GuideName;
  /** The published types: what a successful request must satisfy. */
  readonly published: GraphQLSchema;
  /** `@serverRequired` positions nullable: what reaches the service's own validation. */
  readonly served: GraphQLSchema;
}

const SERVER_REQUIRED = 'serverRequired';

function build(sdl: string): GraphQLSchema {
  return buildASTSchema(parse(sdl));
}

/** The SDL's document with the non-null wrapper removed from every `@serverRequired` field and argument. */
function relaxed(sdl: string): GraphQLSchema {
  const document = visit(parse(sdl), {
    InputValueDefinition(node) {
      if (!node.directives?.some((d) => d.name.value === SERVER_REQUIRED)) return undefined;
      const type: TypeNode = node.type.kind === Kind.NON_NULL_TYPE ? node.type.type : node.type;
      return { ...node, type };
    },
  });
  return buildASTSchema(document);
}

const cache = new Map<GuideName, GuideSchemas>();

/**
 * The schemas of a guide, built once per process.
 *
 * @example
 * guideSchemas('legacy').published.getType('ProcessPaymentInput'); // defined
 */
export function guideSchemas(guide: GuideName): GuideSchemas {
  let schemas = cache.get(guide);
  if (!schemas) {
    const sdl = guide === 'current' ? currentSchemaSdl : legacySchemaSdl;
    schemas = { guide, published: build(sdl), served: relaxed(sdl) };
    cache.set(guide, schemas);
  }
  return schemas;
}
