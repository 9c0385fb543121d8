import { buildSchema, GraphQLSchema, validateSchema } from 'graphql/index.js';
import { describe, expect, it } from 'vitest';
import { currentSchemaSdl, legacySchemaSdl } from '../../../../generated/schema-sdl.ts';
import { buildWireSchema } from '../../../support/mock-internals/graphql.ts';

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

  it('relaxes @serverRequired positions to nullable and records them', () => {
    const { schema, requirements } = buildWireSchema(currentSchemaSdl);
    const contact = requirements.inputTypes.get('ContactInput');
    expect(contact?.required.map((r) => r.name)).toContain('first_name');
    const field = schema.getType('ContactInput');
    expect(field && 'getFields' in field && String(field.getFields().first_name?.type)).toBe('String');
  });
});
