import { describe, expect, it } from 'vitest';
import { MockHttpError } from '../../../support/mock-internals/foundations.ts';
import { tokenServiceSetup } from '../../../support/token-service-setup.ts';

// tokens.ts caches verified claims by token string; every check but the signature must still run per request.
describe('verified token cache', () => {
  it('rejects a cached token once it is revoked singly', () => {
    const { tokens } = tokenServiceSetup();
    const { token } = tokens.issue('a');
    expect(tokens.verify(token, undefined)).toEqual({ ok: true, clientId: 'a' });
    tokens.revoke('a', token);
    expect(tokens.verify(token, undefined)).toMatchObject({ ok: false, reason: 'revokedToken' });
  });

  it('rejects a cached token once every token of its client is revoked', () => {
    const { tokens } = tokenServiceSetup();
    const { token } = tokens.issue('a');
    expect(tokens.verify(token, 'a')).toEqual({ ok: true, clientId: 'a' });
    tokens.revoke('a', undefined);
    expect(tokens.verify(token, 'a')).toMatchObject({ ok: false, reason: 'revokedToken' });
  });

  it('rejects a cached token once the virtual clock passes its expiry', () => {
    const { tokens, clock } = tokenServiceSetup();
    const { token } = tokens.issue('a');
    expect(tokens.verify(token, undefined)).toEqual({ ok: true, clientId: 'a' });
    clock.advance(600_000);
    expect(tokens.verify(token, undefined)).toMatchObject({ ok: false, reason: 'expiredToken' });
  });

  it('still checks the client header of a cached token on every request', () => {
    const { tokens } = tokenServiceSetup();
    const { token } = tokens.issue('a');
    expect(tokens.verify(token, 'a')).toEqual({ ok: true, clientId: 'a' });
    expect(tokens.verify(token, 'b')).toMatchObject({ ok: false, reason: 'clientMismatch' });
  });

  it('does not cache refusals: a tampered token stays invalid, the genuine one stays valid', () => {
    const { tokens } = tokenServiceSetup();
    const { token } = tokens.issue('a');
    const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(tokens.verify(tampered, undefined)).toMatchObject({ ok: false, reason: 'invalidToken' });
    expect(tokens.verify(tampered, undefined)).toMatchObject({ ok: false, reason: 'invalidToken' });
    expect(tokens.verify(token, undefined)).toEqual({ ok: true, clientId: 'a' });
  });

  it('answers each token with its own client when requests alternate between tokens', () => {
    const { tokens } = tokenServiceSetup();
    const a = tokens.issue('a').token;
    const b = tokens.issue('b').token;
    for (let i = 0; i < 3; i++) {
      expect(tokens.verify(a, undefined)).toEqual({ ok: true, clientId: 'a' });
      expect(tokens.verify(a, undefined)).toEqual({ ok: true, clientId: 'a' });
      expect(tokens.verify(b, undefined)).toEqual({ ok: true, clientId: 'b' });
      expect(tokens.verify(`${b}x`, undefined)).toMatchObject({ ok: false, reason: 'invalidToken' });
    }
  });

  it('keeps verifying correctly past the cache bound', () => {
    const { tokens } = tokenServiceSetup();
    const issued = Array.from({ length: 2100 }, () => tokens.issue('a').token);
    for (const token of issued) expect(tokens.verify(token, undefined)).toEqual({ ok: true, clientId: 'a' });
    tokens.revoke('a', issued[0]);
    expect(tokens.verify(issued[0], undefined)).toMatchObject({ ok: false, reason: 'revokedToken' });
    expect(tokens.verify(issued[2099], undefined)).toEqual({ ok: true, clientId: 'a' });
  });

  it('forgets the cache on reset: a token revoked before still verifies by signature after', () => {
    const { tokens } = tokenServiceSetup();
    const { token } = tokens.issue('a');
    tokens.verify(token, undefined);
    tokens.revoke('a', undefined);
    tokens.reset();
    // After a reset revocations are forgotten; the token is judged again on its signature and expiry.
    expect(tokens.verify(token, undefined)).toEqual({ ok: true, clientId: 'a' });
  });
});

describe('refresh token bound', () => {
  it('forgets the oldest unused refresh token first, skipping used ones', () => {
    const { tokens } = tokenServiceSetup({ maxRefreshTokensPerClient: 3 });
    const r1 = tokens.issue('a').refresh_token;
    const r2 = tokens.issue('a').refresh_token;
    const r3 = tokens.issue('a').refresh_token;
    tokens.refresh('a', r1); // uses r1, issues r4: r2, r3, r4 kept
    const r5 = tokens.issue('a').refresh_token; // full: r2 goes
    expect(() => tokens.refresh('a', r2)).toThrow(MockHttpError);
    expect(tokens.refresh('a', r3).data.refresh_token).toMatch(/^rt_/);
    expect(tokens.refresh('a', r5).data.refresh_token).toMatch(/^rt_/);
  });

  it('keeps working through many refresh cycles (used tokens do not pile up)', () => {
    const { tokens } = tokenServiceSetup({ maxRefreshTokensPerClient: 4 });
    let current = tokens.issue('a').refresh_token;
    for (let i = 0; i < 5000; i++) current = tokens.refresh('a', current).data.refresh_token;
    expect(tokens.refresh('a', current).data.refresh_token).toMatch(/^rt_/);
  });

  it('keeps an old unused refresh token however many others are issued and used meanwhile', () => {
    const { tokens } = tokenServiceSetup({ maxRefreshTokensPerClient: 3 });
    const kept = tokens.issue('a').refresh_token;
    let current = tokens.issue('a').refresh_token;
    for (let i = 0; i < 50; i++) current = tokens.refresh('a', current).data.refresh_token;
    expect(tokens.refresh('a', kept).data.refresh_token).toMatch(/^rt_/);
  });

  it('uses each refresh token once, for its own client only, and refuses look-alikes', () => {
    const { tokens } = tokenServiceSetup();
    const a = tokens.issue('a').refresh_token;
    const b = tokens.issue('b').refresh_token;
    expect(a).toMatch(/^rt_[0-9a-f]{32}$/);
    expect(b).not.toBe(a);
    expect(() => tokens.refresh('b', a)).toThrow(/unknown or already used/);
    expect(() => tokens.refresh('a', b)).toThrow(/unknown or already used/);
    const digits = a.slice(3);
    const lookAlikes = [
      `rt_${digits.slice(0, -1)}`, // too short
      `${a}0`, // too long
      `rt_${digits.toUpperCase()}`,
      `rt_${digits.slice(0, -12)}${'0'.repeat(11)}9`, // a number not issued yet
      `rt_${digits.slice(0, -12)}-00000000001`,
      `rt_${digits.slice(0, -12)}0x0000000000`,
      `xx_${digits}`,
      `rt_${'0'.repeat(16)}${digits.slice(16)}`, // another seed's prefix
    ];
    for (const fake of lookAlikes) expect(() => tokens.refresh('a', fake), fake).toThrow(MockHttpError);
    expect(tokens.refresh('a', a).data.refresh_token).toMatch(/^rt_/);
    expect(() => tokens.refresh('a', a)).toThrow(/unknown or already used/);
    expect(tokens.refresh('b', b).data.refresh_token).toMatch(/^rt_/);
  });

  it('refuses every refresh token issued before a revoke-all, and accepts the ones issued after', () => {
    const { tokens } = tokenServiceSetup();
    const before = [tokens.issue('a').refresh_token, tokens.issue('a').refresh_token];
    const other = tokens.issue('b').refresh_token;
    tokens.revoke('a', undefined);
    for (const r of before) expect(() => tokens.refresh('a', r)).toThrow(MockHttpError);
    expect(tokens.refresh('b', other).data.refresh_token).toMatch(/^rt_/);
    const after = tokens.issue('a').refresh_token;
    expect(tokens.refresh('a', after).data.refresh_token).toMatch(/^rt_/);
  });

  it('gives the same refresh tokens after a reset, and refuses the old ones until they are issued again', () => {
    const { tokens } = tokenServiceSetup();
    const first = tokens.issue('a').refresh_token;
    tokens.reset();
    expect(() => tokens.refresh('a', first)).toThrow(MockHttpError);
    expect(tokens.issue('a').refresh_token).toBe(first);
  });
});
