/**
 * The wire schema the mock serves, derived from a guide's SDL: every `@serverRequired` input field and argument is
 * made nullable, so that a missing value reaches the validator and is answered in the service's 7.3 shape instead
 * of as a GraphQL coercion error. The requirements removed from the types are collected here, in one place, for
 * the validator. Used for both guides.
 *
 * @module
 */
import { getDirective, MapperKind, mapSchema } from '@graphql-tools/utils';
import {
  buildSchema,
  type GraphQLArgumentConfig,
  type GraphQLInputFieldConfig,
  type GraphQLInputType,
  type GraphQLSchema,
  getNamedType,
  isInputObjectType,
  isNonNullType,
} from 'graphql/index.js';

/** One input position the service requires, checked by the validator instead of the type system. */
export interface Requirement {
  /** Field or argument name. */
  readonly name: string;
  /** Sibling field whose presence lifts the requirement (from `@serverRequired(unlessPresent:)`). */
  readonly unlessPresent: string | undefined;
}

/** An input position holding an input object, which the validator descends into. */
export interface NestedInput {
  /** Field or argument name. */
  readonly name: string;
  /** Name of the input object type. */
  readonly type: string;
}

/** What the validator checks for the fields of one input object type, or the arguments of one root field. */
export interface InputRequirements {
  readonly required: readonly Requirement[];
  readonly nested: readonly NestedInput[];
}

/** Requirement metadata of one wire schema. */
export interface WireRequirements {
  /** Input object type name → its required and nested fields. */
  readonly inputTypes: ReadonlyMap<string, InputRequirements>;
  /** `Type.field` of a root field (for example `Mutation.processPaymentRequest`) → its arguments. */
  readonly fieldArguments: ReadonlyMap<string, InputRequirements>;
}

/** A guide's wire schema with its requirement metadata. */
export interface WireSchema {
  readonly schema: GraphQLSchema;
  readonly requirements: WireRequirements;
}

const SERVER_REQUIRED = 'serverRequired';

/**
 * Builds the wire schema of a guide from its SDL. The SDL is generated from schema.graphql and checked by the test
 * suite (wire-schema.test.ts validates both guides' wire schemas in full), so it is built without validation here:
 * SDL and schema validation were a quarter of the mock's first /graphql request (profiled).
 *
 * @example
 * const { schema, requirements } = buildWireSchema(currentSchemaSdl);
 * requirements.inputTypes.get('ContactInput')?.required // [{ name: 'first_name', unlessPresent: undefined }, …]
 */
export function buildWireSchema(sdl: string): WireSchema {
  const source = buildSchema(sdl, { assumeValidSDL: true, assumeValid: true });
  const inputTypes = new Map<string, { required: Requirement[]; nested: NestedInput[] }>();
  const fieldArguments = new Map<string, { required: Requirement[]; nested: NestedInput[] }>();

  const entry = (map: typeof inputTypes, key: string) => {
    let e = map.get(key);
    if (!e) {
      e = { required: [], nested: [] };
      map.set(key, e);
    }
    return e;
  };

  function relax<T extends GraphQLInputFieldConfig | GraphQLArgumentConfig>(
    config: T,
    name: string,
    into: { required: Requirement[]; nested: NestedInput[] },
  ): T {
    const named = getNamedType(config.type);
    if (isInputObjectType(named)) into.nested.push({ name, type: named.name });
    const directive = getDirective(source, config, SERVER_REQUIRED)?.[0];
    if (!directive) return config;
    const unlessPresent = typeof directive.unlessPresent === 'string' ? directive.unlessPresent : undefined;
    into.required.push({ name, unlessPresent });
    const type: GraphQLInputType = isNonNullType(config.type) ? config.type.ofType : config.type;
    return { ...config, type };
  }

  const schema = mapSchema(source, {
    [MapperKind.INPUT_OBJECT_FIELD]: (config, fieldName, typeName) =>
      relax(config, fieldName, entry(inputTypes, typeName)),
    [MapperKind.ROOT_FIELD]: (config, fieldName, typeName) => {
      if (!config.args) return config;
      const into = entry(fieldArguments, `${typeName}.${fieldName}`);
      const args: Record<string, GraphQLArgumentConfig> = {};
      for (const [argName, arg] of Object.entries(config.args)) args[argName] = relax(arg, argName, into);
      return { ...config, args };
    },
  });
  return { schema, requirements: { inputTypes, fieldArguments } };
}
