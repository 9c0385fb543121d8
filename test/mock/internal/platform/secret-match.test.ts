import { afterEach, describe, expect, it, vi } from 'vitest';

// Wraps node:crypto's timingSafeEqual so the tests can see every comparison the matcher and the token service make.
vi.mock('node:crypto', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:crypto')>();
  return { ...original, timingSafeEqual: vi.fn(original.timingSafeEqual) };
});

const crypto = await import('node:crypto');
const { createSecretMatcher, nodeCrypto } = await import('../../../support/mock-internals/platform.ts');
const { createClock } = await import('../../../support/mock-internals/foundations.ts');
const { createTokenService } = await import('../../../support/mock-internals/domain.ts');
const timingSafeEqual = vi.mocked(crypto.timingSafeEqual);

afterEach(() => timingSafeEqual.mockClear());

/** Lengths of the two buffers of every timingSafeEqual call so far. */
const comparedLengths = () => timingSafeEqual.mock.calls.map(([a, b]) => [a.byteLength, b.byteLength]);

describe('createSecretMatcher', () => {
  const matches = createSecretMatcher('k3y-of-client-a');

  it.each([
    ['the same key', 'k3y-of-client-a', true],
    ['one character changed', 'k3y-of-client-b', false],
    ['a prefix', 'k3y-of-client-', false],
    ['a longer key', 'k3y-of-client-aa', false],
    ['empty', '', false],
    ['surrounded by spaces', ' k3y-of-client-a ', false],
    ['another case', 'K3Y-OF-CLIENT-A', false],
    ['non-ASCII', 'k3y-of-client-\u00e1', false],
    ['very long', 'k'.repeat(100_000), false],
  ])('%s: %s', (_kind, candidate, expected) => {
    expect(matches(candidate)).toBe(expected);
    // Always one constant-time comparison of two 32-byte digests, whatever the candidate's length.
    expect(comparedLengths()).toEqual([[32, 32]]);
  });

  it('digests the candidate, not the raw strings: equal digests of different-length inputs never reach a === check', () => {
    const empty = createSecretMatcher('');
    expect(empty('')).toBe(true);
    expect(empty(' ')).toBe(false);
    expect(comparedLengths()).toEqual([
      [32, 32],
      [32, 32],
    ]);
  });
});

describe('token service API key checks', () => {
  const tokens = createTokenService({
    assumptions: { tokenTtlSeconds: 600, repeatGenerateToken: 'reissue' },
    clients: [
      { clientId: 'a', apiKey: 'key-a' },
      { clientId: 'b', apiKey: 'a-much-longer-key-of-client-b' },
    ],
    clock: createClock({ realNow: () => 1_700_000_000_000 }),
    seed: 's',
    crypto: nodeCrypto,
  });

  it('authenticate compares the key through timingSafeEqual on equal-length digests, right or wrong', () => {
    expect(tokens.authenticate('a', 'key-a')).toBe('a');
    expect(() => tokens.authenticate('a', 'key-b')).toThrow(/Wrong x-api-key/);
    expect(() => tokens.authenticate('a', 'a-much-longer-key-of-client-b')).toThrow(/Wrong x-api-key/);
    expect(() => tokens.authenticate('b', 'key-a')).toThrow(/Wrong x-api-key/);
    expect(comparedLengths()).toEqual([
      [32, 32],
      [32, 32],
      [32, 32],
      [32, 32],
    ]);
  });

  it('apiKeyMatches (for the GraphQL client-header check) does the same, and is false for an unknown client', () => {
    expect(tokens.apiKeyMatches('b', 'a-much-longer-key-of-client-b')).toBe(true);
    expect(tokens.apiKeyMatches('b', 'key-a')).toBe(false);
    expect(tokens.apiKeyMatches('b', '')).toBe(false);
    expect(comparedLengths()).toHaveLength(3);
    expect(tokens.apiKeyMatches('nobody', 'key-a')).toBe(false);
    expect(comparedLengths()).toHaveLength(3);
  });

  it('refuses a missing or empty key before comparing, naming the header', () => {
    expect(() => tokens.authenticate('a', undefined)).toThrow(/Missing header x-api-key/);
    expect(() => tokens.authenticate('a', '')).toThrow(/Missing header x-api-key/);
    expect(comparedLengths()).toEqual([]);
  });
});
