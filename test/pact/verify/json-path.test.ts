// Pact's JSON paths: parsed, matched against concrete places, the most specific rule first.
import { describe, expect, it } from 'vitest';
import { formatPath, parseJsonPath, pathMatches } from '../../../src/pact/verify/json-path.ts';
import { matchersAt, readMatchingRules } from '../../../src/pact/verify/matching-rules.ts';

describe('parseJsonPath', () => {
  it.each([
    ['$', []],
    [
      '$.a.b',
      [
        { kind: 'field', name: 'a' },
        { kind: 'field', name: 'b' },
      ],
    ],
    ['$.a[*].b', [{ kind: 'field', name: 'a' }, { kind: 'any' }, { kind: 'field', name: 'b' }]],
    ['$.a.*', [{ kind: 'field', name: 'a' }, { kind: 'any' }]],
    [
      '$.a[2]',
      [
        { kind: 'field', name: 'a' },
        { kind: 'index', index: 2 },
      ],
    ],
    [
      "$.v['input.contact']",
      [
        { kind: 'field', name: 'v' },
        { kind: 'field', name: 'input.contact' },
      ],
    ],
  ])('%s', (path, want) => {
    expect(parseJsonPath(path)).toEqual(want);
  });

  it.each(['a.b', '$.a[', '$.a[x]', '$..'])('refuses %s', (path) => {
    expect(parseJsonPath(path)).toBeUndefined();
  });
});

describe('pathMatches and formatPath', () => {
  it('matches wildcards against names and indexes, step for step', () => {
    const pattern = parseJsonPath('$.data.list[*].id')!;
    expect(pathMatches(pattern, ['data', 'list', 3, 'id'])).toBe(true);
    expect(pathMatches(pattern, ['data', 'list', 3])).toBe(false);
    expect(pathMatches(pattern, ['data', 'other', 3, 'id'])).toBe(false);
  });

  it('writes odd names in brackets', () => {
    expect(formatPath(['errors', 0, 'extensions', 'validation', 'input.contact'])).toBe(
      "$.errors[0].extensions.validation['input.contact']",
    );
  });
});

describe('matchersAt', () => {
  it('picks the most specific rule that matches the place', () => {
    const rules = readMatchingRules({
      body: {
        '$.items[*].id': { matchers: [{ match: 'type' }] },
        '$.items[0].id': { matchers: [{ match: 'integer' }] },
      },
    });
    expect(matchersAt(rules.body, ['items', 0, 'id'])).toEqual([{ match: 'integer' }]);
    expect(matchersAt(rules.body, ['items', 1, 'id'])).toEqual([{ match: 'type' }]);
    expect(matchersAt(rules.body, ['items', 1])).toEqual([]);
  });
});
