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

  it('leaves malformed text to the parser (an unclosed string ends the scan)', () => {
    expect(jsonDepthWithin('{"a":"[[[[[[', 1)).toBe(true);
  });
});
