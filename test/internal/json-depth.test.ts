import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonDepthWithin } from '../../src/internal/json-depth.ts';

const nested = (depth: number, open = '[', close = ']') => `${open.repeat(depth)}1${close.repeat(depth)}`;

describe('jsonDepthWithin', () => {
  it('counts objects and arrays, a top-level one being level 1', () => {
    expect(jsonDepthWithin('1', 0)).toBe(true);
    expect(jsonDepthWithin('[1]', 0)).toBe(false);
    expect(jsonDepthWithin('{"a":[1,{"b":2}]}', 3)).toBe(true);
    expect(jsonDepthWithin('{"a":[1,{"b":2}]}', 2)).toBe(false);
    expect(jsonDepthWithin(nested(64), 64)).toBe(true);
    expect(jsonDepthWithin(nested(65), 64)).toBe(false);
    expect(jsonDepthWithin(nested(5_000, '{"a":', '}'), 64)).toBe(false);
  });

  it('measures the deepest point, not the number of containers', () => {
    expect(jsonDepthWithin(`[${Array.from({ length: 1_000 }, () => '[1]').join(',')}]`, 2)).toBe(true);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonDepthWithin(JSON.stringify({ a: '[[[[{{{{' }), 1)).toBe(true);
    expect(jsonDepthWithin(JSON.stringify({ a: 'x"[[[[', b: '\\', c: '\\"{{{{' }), 1)).toBe(true);
    expect(jsonDepthWithin(`{"a":"\\\\"}${'['.repeat(5)}`, 1)).toBe(false);
  });

  it('does not recurse: a million levels are measured as quickly as they are read', () => {
    expect(jsonDepthWithin('['.repeat(1_000_000), 1_000_000)).toBe(true);
    expect(jsonDepthWithin('['.repeat(1_000_001), 1_000_000)).toBe(false);
  });

  it('judges mixed braces and brackets at the limit alike, few or many of them', () => {
    // Six openings nested four deep: within 4 whatever the count says, beyond 3.
    const few = '{"a":[{"b":[1]}],"c":{"d":[]}}';
    expect(jsonDepthWithin(few, 4)).toBe(true);
    expect(jsonDepthWithin(few, 3)).toBe(false);
    expect(jsonDepthWithin(`{"a":[${'{},'.repeat(100)}{}]}`, 3)).toBe(true);
    expect(jsonDepthWithin(`{"a":[${'{},'.repeat(100)}{"b":[]}]}`, 3)).toBe(false);
  });

  it('agrees with the depth of the parsed value for any JSON', () => {
    const depthOf = (value: unknown): number =>
      value !== null && typeof value === 'object'
        ? 1 + Math.max(0, ...Object.values(value as Record<string, unknown>).map(depthOf))
        : 0;
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 10 }), (value, maxDepth) => {
        const text = JSON.stringify(value);
        expect(jsonDepthWithin(text, maxDepth)).toBe(depthOf(value) <= maxDepth);
      }),
      { seed: 41, numRuns: 2_000 },
    );
  });

  it('leaves malformed text to the parser (an unclosed string ends the scan)', () => {
    expect(jsonDepthWithin('{"a":"[[[[[[', 1)).toBe(true);
  });
});
