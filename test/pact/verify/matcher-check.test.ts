// Matchers against the kind of value the schema holds at their place.
import { describe, expect, it } from 'vitest';
import { describeValue, matcherProblems, type PositionType } from '../../../src/pact/verify/matcher-check.ts';

const at = (kind: PositionType['kind'], label: string, nullable = false): PositionType => ({ kind, nullable, label });

describe('matcherProblems', () => {
  it.each([
    ['type on anything', [{ match: 'type' }], at('object', 'Payment!'), {}, []],
    ['number on Float', [{ match: 'number' }], at('number', 'Float!'), 1.5, []],
    ['integer on Float', [{ match: 'integer' }], at('number', 'Float!'), 1, []],
    [
      'decimal on Int',
      [{ match: 'decimal' }],
      at('integer', 'Int!'),
      1,
      ['matcher "decimal" wants a decimal number, the schema has Int!'],
    ],
    [
      'boolean on String',
      [{ match: 'boolean' }],
      at('string', 'String!'),
      true,
      ['matcher "boolean" wants a boolean, the schema has String!'],
    ],
    ['date on String', [{ match: 'date', date: 'yyyy-MM-dd' }], at('string', 'String!'), '2026-01-01', []],
    [
      'timestamp on Float',
      [{ match: 'timestamp' }],
      at('number', 'Float!'),
      1,
      ['matcher "timestamp" wants a timestamp string, the schema has Float!'],
    ],
    ['eachLike on a list', [{ match: 'type', min: 1 }], at('list', '[Fee!]!'), [], []],
    [
      'eachLike on an object',
      [{ match: 'type', min: 1 }],
      at('object', 'Fee!'),
      [],
      ['matcher "type" with min/max (eachLike) wants a list, the schema has Fee!'],
    ],
    [
      'null on non-null',
      [{ match: 'null' }],
      at('string', 'String!'),
      null,
      ['matcher "null" wants null, the schema has non-null String!'],
    ],
    ['null on nullable', [{ match: 'null' }], at('string', 'String', true), null, []],
    ['values on an object', [{ match: 'values' }], at('object', 'object'), {}, []],
    [
      'values on a string',
      [{ match: 'values' }],
      at('string', 'String!'),
      'a',
      ['matcher "values" wants an object, the schema has String!'],
    ],
    [
      'regex its example fails',
      [{ match: 'regex', regex: '^\\d+$' }],
      at('string', 'String!'),
      'abc',
      ['the example, the string "abc", does not match its own regex /^\\d+$/'],
    ],
    [
      'an unknown matcher',
      [{ match: 'fuzzy' }],
      at('string', 'String!'),
      'a',
      ['matcher "fuzzy" is not a Pact matcher the kit knows'],
    ],
  ])('%s', (_name, matchers, position, example, want) => {
    expect(matcherProblems(matchers, position, example)).toEqual(want);
  });
});

describe('matcherProblems on a matcher named like an object method', () => {
  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])('"%s" is an unknown matcher', (name) => {
    expect(matcherProblems([{ match: name }], at('string', 'String!'), 'x')).toEqual([
      `matcher "${name}" is not a Pact matcher the kit knows`,
    ]);
  });
});

describe('describeValue', () => {
  it('masks a card number and hides a secret', () => {
    expect(describeValue('4111 1111 1111 1111')).toBe('the string "411111******1111"');
    expect(describeValue(123, true)).toBe('a number');
  });
});
