import { describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../src/assumptions.ts';
import { resolveMockOptions } from '../../src/mock/options.ts';

describe('resolveMockOptions: limits', () => {
  it('defaults every limit from the assumptions', () => {
    const resolved = resolveMockOptions();
    expect(resolved.assumptions.limits).toEqual(defaultAssumptions.limits);
    expect(resolved.maxBodyBytes).toBe(defaultAssumptions.limits.maxBodyBytes);
  });

  it('lets the maxBodyBytes option win over assumptions.limits.maxBodyBytes, keeping the other limits', () => {
    const resolved = resolveMockOptions({
      maxBodyBytes: 10,
      assumptions: { limits: { maxBodyBytes: 20, maxAliases: 3 } },
    });
    expect(resolved.maxBodyBytes).toBe(10);
    expect(resolved.assumptions.limits).toEqual({ ...defaultAssumptions.limits, maxBodyBytes: 10, maxAliases: 3 });
    expect(resolveMockOptions({ assumptions: { limits: { maxBodyBytes: 20 } } }).maxBodyBytes).toBe(20);
  });

  it.each<[string, Parameters<typeof resolveMockOptions>[0], string]>([
    ['a zero limit', { assumptions: { limits: { maxDepth: 0 } } }, 'assumptions.limits.maxDepth'],
    ['a fractional limit', { assumptions: { limits: { maxCost: 1.5 } } }, 'assumptions.limits.maxCost'],
    ['a zero body size', { maxBodyBytes: 0 }, 'assumptions.limits.maxBodyBytes'],
    [
      'a zero metadata depth',
      { assumptions: { bounds: { maxMetadataDepth: 0 } } },
      'assumptions.bounds.maxMetadataDepth',
    ],
  ])('refuses %s, naming it', (_name, options, option) => {
    expect(() => resolveMockOptions(options)).toThrow(`mock option "${option}" must be a whole number of at least 1`);
  });
});
