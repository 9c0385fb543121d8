import { getDirective, MapperKind, mapSchema } from '@graphql-tools/utils';
import {
  buildSchema,
  type GraphQLArgumentConfig,
  type GraphQLInputFieldConfig,
  GraphQLSchema,
  getNamedType,
  isInputObjectType,
  isNonNullType,
  parse,
  printSchema,
  validateSchema,
} from 'graphql/index.js';
import { describe, expect, it } from 'vitest';
import { currentSchemaDocumentJson, legacySchemaDocumentJson } from '../../../../generated/schema-documents.ts';
import { currentSchemaSdl, legacySchemaSdl } from '../../../../generated/schema-sdl.ts';
import {
  buildWireSchema,
  guideSchemaSource,
  parsedGuideSchema,
  type WireRequirements,
  wireSchemaOf,
} from '../../../support/mock-internals/graphql.ts';

describe('buildWireSchema', () => {
  // The mock builds wire schemas with validation off (start-up time); this is the validation it skips.
  for (const [guide, sdl] of [
    ['current', currentSchemaSdl],
    ['legacy', legacySchemaSdl],
  ] as const) {
    it(`gives a valid schema for the ${guide} guide`, () => {
      expect(() => buildSchema(sdl)).not.toThrow();
      const { schema } = buildWireSchema(sdl);
      // Rebuilt from its own config without the assumption, so validateSchema really checks it.
      const checked = new GraphQLSchema({ ...schema.toConfig(), assumeValid: false });
      expect(validateSchema(checked)).toEqual([]);
    });
  }

  // The CLI's mock script reads each guide's SDL already parsed (generated JSON, its cold start): it must be that
  // SDL's document, and the wire schema built from it the one the library builds from the SDL, descriptions and
  // requirements included.
  for (const [guide, sdl, json] of [
    ['current', currentSchemaSdl, currentSchemaDocumentJson],
    ['legacy', legacySchemaSdl, legacySchemaDocumentJson],
  ] as const) {
    it(`reads the ${guide} guide's generated document as parsing its SDL gives it`, () => {
      expect(JSON.parse(json)).toEqual(parse(sdl, { noLocation: true }));
      expect(guideSchemaSource(guide)).toBe(sdl);
      const fromSdl = wireSchemaOf(guide);
      const served = buildWireSchema(parsedGuideSchema(guide));
      expect(printSchema(served.schema)).toBe(printSchema(fromSdl.schema));
      expect(printSchema(served.schema)).toContain('"""');
      expect(sorted(served.requirements.inputTypes)).toEqual(sorted(fromSdl.requirements.inputTypes));
      expect(sorted(served.requirements.fieldArguments)).toEqual(sorted(fromSdl.requirements.fieldArguments));
      expect(served.requirements.inputTypes.size).toBeGreaterThan(0);
    });
  }

  it('relaxes @serverRequired positions to nullable and records them', () => {
    const { schema, requirements } = buildWireSchema(currentSchemaSdl);
    const contact = requirements.inputTypes.get('ContactInput');
    expect(contact?.required.map((r) => r.name)).toContain('first_name');
    const field = schema.getType('ContactInput');
    expect(field && 'getFields' in field && String(field.getFields().first_name?.type)).toBe('String');
  });

  // The mock relaxes the parsed SDL before its one schema build (start-up time). The oracle is the way it was done
  // before, relaxing the built schema with mapSchema: both must give the same schema and the same requirements.
  for (const [guide, sdl] of [
    ['current', currentSchemaSdl],
    ['legacy', legacySchemaSdl],
  ] as const) {
    it(`relaxes the ${guide} guide as relaxing the built schema does`, () => {
      const oracle = relaxBuiltSchema(sdl);
      const wire = buildWireSchema(sdl);
      expect(printSchema(wire.schema)).toBe(printSchema(oracle.schema));
      expect(sorted(wire.requirements.inputTypes)).toEqual(sorted(oracle.requirements.inputTypes));
      expect(sorted(wire.requirements.fieldArguments)).toEqual(sorted(oracle.requirements.fieldArguments));
      // The relaxation really happened (the two could agree on nothing done).
      expect(printSchema(wire.schema)).not.toBe(printSchema(buildSchema(sdl)));
    });
  }

  it('relaxes arguments of root fields only, under a renamed root type too', () => {
    const sdl = `directive @serverRequired(unlessPresent: String) on INPUT_FIELD_DEFINITION | ARGUMENT_DEFINITION
      schema { query: Q }
      input In { a: String! @serverRequired(unlessPresent: "b") b: String }
      type Q { f(x: In! @serverRequired, y: Int!): T }
      type T { g(z: Int! @serverRequired): Int }`;
    const wire = buildWireSchema(sdl);
    expect(printSchema(wire.schema)).toBe(printSchema(relaxBuiltSchema(sdl).schema));
    expect(wire.requirements.fieldArguments.get('Q.f')).toEqual({
      required: [{ name: 'x', unlessPresent: undefined }],
      nested: [{ name: 'x', type: 'In' }],
    });
    expect(wire.requirements.fieldArguments.has('T.g')).toBe(false);
    expect(wire.requirements.inputTypes.get('In')?.required).toEqual([{ name: 'a', unlessPresent: 'b' }]);
  });
});

const sorted = (map: WireRequirements['inputTypes']) => [...map].sort(([a], [b]) => a.localeCompare(b));

/** The earlier wire schema build: the built schema relaxed with graphql-tools' mapSchema. */
function relaxBuiltSchema(sdl: string) {
  const source = buildSchema(sdl, { assumeValidSDL: true, assumeValid: true });
  type Entry = {
    required: { name: string; unlessPresent: string | undefined }[];
    nested: { name: string; type: string }[];
  };
  const inputTypes = new Map<string, Entry>();
  const fieldArguments = new Map<string, Entry>();
  const entry = (map: Map<string, Entry>, key: string) => {
    if (!map.has(key)) map.set(key, { required: [], nested: [] });
    return map.get(key)!;
  };
  function relax<T extends GraphQLInputFieldConfig | GraphQLArgumentConfig>(config: T, name: string, into: Entry): T {
    const named = getNamedType(config.type);
    if (isInputObjectType(named)) into.nested.push({ name, type: named.name });
    const directive = getDirective(source, config, 'serverRequired')?.[0];
    if (!directive) return config;
    const unlessPresent = typeof directive.unlessPresent === 'string' ? directive.unlessPresent : undefined;
    into.required.push({ name, unlessPresent });
    return { ...config, type: isNonNullType(config.type) ? config.type.ofType : config.type };
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
