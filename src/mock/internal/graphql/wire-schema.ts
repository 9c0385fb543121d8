/**
 * The wire schema the mock serves, derived from a guide's SDL: every `@serverRequired` input field and argument is
 * made nullable, so that a missing value reaches the validator and is answered in the service's 7.3 shape instead
 * of as a GraphQL coercion error. The requirements removed from the types are collected here, in one place, for
 * the validator. Used for both guides.
 *
 * @module
 */
import {
  buildASTSchema,
  type ConstDirectiveNode,
  type DefinitionNode,
  type DocumentNode,
  type FieldDefinitionNode,
  type GraphQLSchema,
  type InputValueDefinitionNode,
  Kind,
  type NamedTypeNode,
  parse,
  type TypeNode,
} from 'graphql/index.js';
import type { InputRequirements, NestedInput, Requirement, WireRequirements } from './validation-messages.ts';

export type { InputRequirements, NestedInput, Requirement, WireRequirements };

/** A guide's wire schema with its requirement metadata. */
export interface WireSchema {
  /** The wire schema, built on first read (and once): the requirements alone do not need it. */
  readonly schema: GraphQLSchema;
  readonly requirements: WireRequirements;
  /** The relaxed SDL's document, from which each mock instance builds its own executable schema. */
  readonly document: DocumentNode;
}

const SERVER_REQUIRED = 'serverRequired';

/** Options of every wire schema build: the SDL is generated and tested (see {@link buildWireSchema}). */
export const wireBuildOptions = { assumeValidSDL: true, assumeValid: true } as const;

type Entry = { required: Requirement[]; nested: NestedInput[] };

/** The root operation type names of a schema document: its `schema { }` block, else the default names. */
function rootTypeNames(definitions: readonly DefinitionNode[]): Set<string> {
  const roots = new Set<string>();
  for (const d of definitions)
    if (d.kind === Kind.SCHEMA_DEFINITION || d.kind === Kind.SCHEMA_EXTENSION)
      for (const op of d.operationTypes ?? []) roots.add(op.type.name.value);
  return roots.size > 0 ? roots : new Set(['Query', 'Mutation', 'Subscription']);
}

const namedTypeOf = (type: TypeNode): NamedTypeNode => (type.kind === Kind.NAMED_TYPE ? type : namedTypeOf(type.type));

/**
 * Builds the wire schema of a guide from its SDL, or from the SDL already parsed without locations (the generated
 * documents the mock reads, `generated/schema-documents.ts`). The relaxation is done on the parsed document, before the one
 * schema build: relaxing a built schema (graphql-tools' mapSchema) would build every type a second time, on the
 * way to the mock's first GraphQL answer. The SDL is generated from schema.graphql and checked by the test suite
 * (wire-schema.test.ts validates both guides' wire schemas in full, and holds this walk to the mapSchema one), so
 * it is built without validation: validating it again on every start would only repeat that check on the first
 * /graphql request's time.
 *
 * @example
 * const { schema, requirements } = buildWireSchema(currentSchemaSdl);
 * requirements.inputTypes.get('ContactInput')?.required // [{ name: 'first_name', unlessPresent: undefined }, …]
 */
export function buildWireSchema(sdl: string | DocumentNode): WireSchema {
  const source = typeof sdl === 'string' ? parse(sdl, { noLocation: true }) : sdl;
  const inputTypes = new Map<string, Entry>();
  const fieldArguments = new Map<string, Entry>();
  const inputObjects = new Set<string>();
  for (const d of source.definitions)
    if (d.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION || d.kind === Kind.INPUT_OBJECT_TYPE_EXTENSION)
      inputObjects.add(d.name.value);
  const roots = rootTypeNames(source.definitions);

  const entry = (map: Map<string, Entry>, key: string): Entry => {
    let e = map.get(key);
    if (!e) {
      e = { required: [], nested: [] };
      map.set(key, e);
    }
    return e;
  };

  function relax(value: InputValueDefinitionNode, into: Entry): InputValueDefinitionNode {
    const name = value.name.value;
    const named = namedTypeOf(value.type).name.value;
    if (inputObjects.has(named)) into.nested.push({ name, type: named });
    const directive = value.directives?.find((d) => d.name.value === SERVER_REQUIRED);
    if (!directive) return value;
    into.required.push({ name, unlessPresent: unlessPresentOf(directive) });
    return value.type.kind === Kind.NON_NULL_TYPE ? { ...value, type: value.type.type } : value;
  }

  const relaxField = (typeName: string, field: FieldDefinitionNode): FieldDefinitionNode => {
    const into = entry(fieldArguments, `${typeName}.${field.name.value}`);
    return field.arguments ? { ...field, arguments: field.arguments.map((arg) => relax(arg, into)) } : field;
  };

  const definitions = source.definitions.map((d): DefinitionNode => {
    if (d.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION || d.kind === Kind.INPUT_OBJECT_TYPE_EXTENSION) {
      const into = entry(inputTypes, d.name.value);
      return d.fields ? { ...d, fields: d.fields.map((f) => relax(f, into)) } : d;
    }
    if ((d.kind === Kind.OBJECT_TYPE_DEFINITION || d.kind === Kind.OBJECT_TYPE_EXTENSION) && roots.has(d.name.value))
      return d.fields ? { ...d, fields: d.fields.map((f) => relaxField(d.name.value, f)) } : d;
    return d;
  });
  const document: DocumentNode = { kind: Kind.DOCUMENT, definitions };
  let schema: GraphQLSchema | undefined;
  return {
    get schema() {
      schema ??= buildASTSchema(document, wireBuildOptions);
      return schema;
    },
    requirements: { inputTypes, fieldArguments },
    document,
  };
}

/** The `unlessPresent` argument of one `@serverRequired`, when it is a string. */
function unlessPresentOf(directive: ConstDirectiveNode): string | undefined {
  const arg = directive.arguments?.find((a) => a.name.value === 'unlessPresent');
  return arg?.value.kind === Kind.STRING ? arg.value.value : undefined;
}
