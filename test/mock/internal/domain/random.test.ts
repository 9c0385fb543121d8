import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSeededRandom, uuidV4FromHex } from '../../../support/mock-internals/foundations.ts';
import { nodeCrypto } from '../../../support/mock-internals/platform.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('createSeededRandom', () => {
  it('gives the same sequence for the same seed, and again after reset', () => {
    const a = createSeededRandom('seed', nodeCrypto.sha512Hex);
    const b = createSeededRandom('seed', nodeCrypto.sha512Hex);
    const first = [a.uuid(), a.uuid(), a.next(), a.nextInt(10)];
    expect([b.uuid(), b.uuid(), b.next(), b.nextInt(10)]).toEqual(first);
    a.reset();
    expect([a.uuid(), a.uuid(), a.next(), a.nextInt(10)]).toEqual(first);
  });

  it('gives another sequence for another seed', () => {
    expect(createSeededRandom('a', nodeCrypto.sha512Hex).uuid()).not.toBe(
      createSeededRandom('b', nodeCrypto.sha512Hex).uuid(),
    );
  });

  it('formats uuids as version 4, all distinct', () => {
    const r = createSeededRandom('uuids', nodeCrypto.sha512Hex);
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const u = r.uuid();
      expect(u).toMatch(UUID_V4);
      seen.add(u);
    }
    expect(seen.size).toBe(1000);
  });

  it('keeps next() in [0, 1) and nextInt in range', () => {
    const r = createSeededRandom('floats', nodeCrypto.sha512Hex);
    for (let i = 0; i < 1000; i++) {
      const x = r.next();
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
      const n = r.nextInt(7);
      expect(Number.isInteger(n) && n >= 0 && n < 7).toBe(true);
    }
  });

  it('forks independent generators that do not disturb the parent', () => {
    const a = createSeededRandom('seed', nodeCrypto.sha512Hex);
    const b = createSeededRandom('seed', nodeCrypto.sha512Hex);
    const fork = a.fork('mock-store');
    fork.uuid();
    expect(a.uuid()).toBe(b.uuid());
    expect(fork.uuid()).not.toBe(createSeededRandom('seed', nodeCrypto.sha512Hex).uuid());
    expect(a.fork('x').uuid()).toBe(b.fork('x').uuid());
  });

  it('draws uuids from the SHA-512 block stream, at block boundaries too', () => {
    // The stream, written out: block k is SHA-512 of "<seed>\0<k>"; a uuid takes the next 16 bytes, next() 7.
    const blocks = Buffer.concat(Array.from({ length: 8 }, (_, k) => createHash('sha512').update(`s\0${k}`).digest()));
    const expectedUuid = (at: number) => {
      const b = Buffer.from(blocks.subarray(at, at + 16));
      b[6] = (b[6]! & 0x0f) | 0x40;
      b[8] = (b[8]! & 0x3f) | 0x80;
      const h = b.toString('hex');
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    };
    const random = createSeededRandom('s', nodeCrypto.sha512Hex);
    expect(random.uuid()).toBe(expectedUuid(0)); // bytes 0-15
    random.next(); // bytes 16-22
    expect(random.uuid()).toBe(expectedUuid(23)); // bytes 23-38
    expect(random.uuid()).toBe(expectedUuid(39)); // bytes 39-54
    expect(random.uuid()).toBe(expectedUuid(55)); // crosses into block 1
    expect(random.uuidHex()).toBe(expectedUuid(71).replaceAll('-', '')); // within block 1
  });
});

describe('uuidV4FromHex', () => {
  it('sets the version and variant and keeps the other digits', () => {
    expect(uuidV4FromHex('00112233445566778899aabbccddeeff', '-')).toBe('00112233-4455-4677-8899-aabbccddeeff');
    expect(uuidV4FromHex('ffffffffffffffffffffffffffffffff', '')).toBe('ffffffffffff4fffbfffffffffffffff');
    expect(uuidV4FromHex('00000000000000000000000000000000', '-')).toBe('00000000-0000-4000-8000-000000000000');
  });
});
