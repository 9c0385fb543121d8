import { describe, expect, it } from 'vitest';
import { createKnownSecrets } from '../../src/proxy/known-secrets.ts';

const R = '[x]';

describe('createKnownSecrets', () => {
  it('replaces every occurrence of every kept secret, and leaves a text without one as it was', () => {
    const s = createKnownSecrets(10);
    s.add('alpha-secret');
    s.add('beta-secret');
    expect(s.replaceIn('alpha-secret,beta-secret;alpha-secret', R)).toBe('[x],[x];[x]');
    const plain = 'nothing secret here at all';
    expect(s.replaceIn(plain, R)).toBe(plain);
  });

  it('replaces at each position the longest secret starting there, and the leftmost first', () => {
    const s = createKnownSecrets(10);
    s.add('abcdef');
    s.add('abcdefghij');
    s.add('efghijkl');
    expect(s.replaceIn('<abcdefghij>', R)).toBe('<[x]>');
    expect(s.replaceIn('<abcdefgh>', R)).toBe('<[x]gh>');
    // 'abcdef' starts before 'efghijkl' and wins, so the overlap is not replaced twice.
    expect(s.replaceIn('abcdefghijkl', R)).toBe('[x]kl');
  });

  it('tells apart secrets whose first characters hash alike', () => {
    // 'AaAaAa' and 'BBBBBB' have the same 31-based hash.
    const s = createKnownSecrets(10);
    s.add('AaAaAa-one');
    s.add('BBBBBB-two');
    expect(s.replaceIn('AaAaAa-one BBBBBB-two AaAaAa-two BBBBBB-one', R)).toBe('[x] [x] AaAaAa-two BBBBBB-one');
  });

  it('ignores values shorter than six characters and values kept already', () => {
    const s = createKnownSecrets(10);
    s.add('short');
    s.add('longer-one');
    s.add('longer-one');
    expect(s.size).toBe(1);
    expect(s.replaceIn('short longer-one', R)).toBe('short [x]');
  });

  it('forgets the oldest secret past its bound, whichever bucket it is in', () => {
    const s = createKnownSecrets(2);
    s.add('AaAaAa-one');
    s.add('BBBBBB-two');
    s.add('third-secret');
    expect(s.size).toBe(2);
    expect(s.replaceIn('AaAaAa-one BBBBBB-two third-secret', R)).toBe('AaAaAa-one [x] [x]');
  });

  it('keeps up with a new secret before every scan at its full bound', () => {
    // A long-running proxy learns a token on almost every exchange; each must be replaced at once.
    const s = createKnownSecrets(5_000);
    let missed = 0;
    for (let i = 0; i < 5_500; i++) {
      const token = `tok-${i.toString(36).padStart(6, '0')}-${'z'.repeat(i % 40)}`;
      s.add(token);
      if (s.replaceIn(`{"actual":"Bearer ${token}"}`, R) !== '{"actual":"Bearer [x]"}') missed++;
    }
    expect(missed).toBe(0);
    expect(s.size).toBe(5_000);
    expect(s.replaceIn('tok-000000-', R)).toBe('tok-000000-');
  });
});
