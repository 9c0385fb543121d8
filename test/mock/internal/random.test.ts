import { describe, expect, it } from 'vitest';
import { createSeededRandom } from '../../../src/mock/internal/random.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('createSeededRandom', () => {
  it('gives the same sequence for the same seed, and again after reset', () => {
    const a = createSeededRandom('seed');
    const b = createSeededRandom('seed');
    const first = [a.uuid(), a.uuid(), a.next(), a.nextInt(10)];
    expect([b.uuid(), b.uuid(), b.next(), b.nextInt(10)]).toEqual(first);
    a.reset();
    expect([a.uuid(), a.uuid(), a.next(), a.nextInt(10)]).toEqual(first);
  });

  it('gives another sequence for another seed', () => {
    expect(createSeededRandom('a').uuid()).not.toBe(createSeededRandom('b').uuid());
  });

  it('formats uuids as version 4, all distinct', () => {
    const r = createSeededRandom('uuids');
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const u = r.uuid();
      expect(u).toMatch(UUID_V4);
      seen.add(u);
    }
    expect(seen.size).toBe(1000);
  });

  it('keeps next() in [0, 1) and nextInt in range', () => {
    const r = createSeededRandom('floats');
    for (let i = 0; i < 1000; i++) {
      const x = r.next();
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
      const n = r.nextInt(7);
      expect(Number.isInteger(n) && n >= 0 && n < 7).toBe(true);
    }
  });

  it('forks independent generators that do not disturb the parent', () => {
    const a = createSeededRandom('seed');
    const b = createSeededRandom('seed');
    const fork = a.fork('mock-store');
    fork.uuid();
    expect(a.uuid()).toBe(b.uuid());
    expect(fork.uuid()).not.toBe(createSeededRandom('seed').uuid());
    expect(a.fork('x').uuid()).toBe(b.fork('x').uuid());
  });
});
