import { createHash } from 'node:crypto';
import { createVerifier } from 'fast-jwt';
import { describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../../../src/assumptions.ts';
import { createTokenService, tokenPairJson } from '../../../support/mock-internals/domain.ts';
import { createClock, MockHttpError } from '../../../support/mock-internals/foundations.ts';
import { nodeCrypto } from '../../../support/mock-internals/platform.ts';
import { tokenServiceSetup } from '../../../support/token-service-setup.ts';

describe('token service', () => {
  it('signs HS256 JWTs that fast-jwt verifies with the seed-derived key', () => {
    const { tokens } = tokenServiceSetup();
    const pair = tokens.issue('a');
    const other = createTokenService({
      assumptions: defaultAssumptions,
      clients: [{ clientId: 'a', apiKey: 'ka' }],
      clock: createClock(),
      seed: 'other',
      crypto: nodeCrypto,
    });
    expect(other.verify(pair.token, undefined)).toMatchObject({ ok: false, reason: 'invalidToken' });
    // The secret is SHA-256 over a label and the seed (tokens.ts); a standard verifier accepts the token with it.
    const key = createHash('sha256').update('payment-contract-kit jwt\0s').digest();
    const verified = createVerifier({ key, algorithms: ['HS256'], ignoreExpiration: true, complete: true })(pair.token);
    expect(verified.header).toMatchObject({ alg: 'HS256', typ: 'JWT' });
    expect(verified.payload).toMatchObject({ sub: 'a', exp: pair.expiration });
    expect(JSON.parse(tokenPairJson({ status: 'SUCCESS', data: pair }))).toEqual({ status: 'SUCCESS', data: pair });
  });

  it('signs tokens of clients with non-ASCII and JSON-special ids, and answers them in ASCII', () => {
    const ids = ['kunde-ü-日本', 'quote"back\\slash', `${'long-'.repeat(300)}id`];
    const tokens = createTokenService({
      assumptions: defaultAssumptions,
      clients: ids.map((clientId) => ({ clientId, apiKey: 'k' })),
      clock: createClock(),
      seed: 's',
      crypto: nodeCrypto,
    });
    const key = createHash('sha256').update('payment-contract-kit jwt\0s').digest();
    const verify = createVerifier({ key, algorithms: ['HS256'], ignoreExpiration: true });
    for (const id of ids) {
      const pair = tokens.issue(id);
      expect(verify(pair.token).sub).toBe(id);
      expect(tokens.verify(pair.token, id)).toEqual({ ok: true, clientId: id });
      // writeReply takes the byte length of this answer to be its length.
      const json = tokenPairJson({ status: 'SUCCESS', data: pair });
      expect(Buffer.byteLength(json)).toBe(json.length);
    }
  });

  it('expires on the virtual clock at exactly the TTL', () => {
    const { tokens, clock } = tokenServiceSetup();
    const pair = tokens.issue('a');
    clock.advance(pair.expiration * 1000 - clock.now() - 1);
    expect(tokens.verify(pair.token, undefined)).toEqual({ ok: true, clientId: 'a' });
    clock.advance(1);
    expect(tokens.verify(pair.token, undefined)).toMatchObject({ ok: false, reason: 'expiredToken' });
  });

  it('applies the generate-once policy only when rejecting', () => {
    const strict = tokenServiceSetup({ repeatGenerateToken: 'reject' }).tokens;
    strict.generate('a');
    expect(() => strict.generate('a')).toThrow(MockHttpError);
    expect(() => strict.generate('a')).toThrow(/use refresh-token/);
    strict.generate('b');
    strict.reset();
    expect(strict.generate('a').status).toBe('SUCCESS');
  });

  it('names the missing or wrong header', () => {
    const { tokens } = tokenServiceSetup();
    expect(() => tokens.authenticate(undefined, 'ka')).toThrow(/Missing header x-client-id/);
    expect(() => tokens.authenticate('a', undefined)).toThrow(/Missing header x-api-key/);
    expect(() => tokens.authenticate('a', 'kb')).toThrow(/Wrong x-api-key/);
    expect(tokens.authenticate('a', 'ka')).toBe('a');
  });

  it('mismatching x-client-id is a client mismatch', () => {
    const { tokens } = tokenServiceSetup();
    expect(tokens.verify(tokens.issue('a').token, 'b')).toMatchObject({ ok: false, reason: 'clientMismatch' });
  });

  it('revokes the tokens issued before a reset with the next revoke-all', () => {
    const { tokens } = tokenServiceSetup();
    tokens.revoke('a', undefined);
    const before = tokens.issue('a').token;
    tokens.reset();
    // A reset forgets revocations; the generation it rewinds must not meet the token's again at the next revoke-all.
    expect(tokens.verify(before, undefined)).toEqual({ ok: true, clientId: 'a' });
    tokens.revoke('a', undefined);
    expect(tokens.verify(before, undefined)).toMatchObject({ ok: false, reason: 'revokedToken' });
    const after = tokens.issue('a');
    expect(tokens.verify(after.token, undefined)).toEqual({ ok: true, clientId: 'a' });
    // The other client's generation is its own.
    expect(tokens.verify(tokens.issue('b').token, undefined)).toEqual({ ok: true, clientId: 'b' });
  });

  it('after a reset, revoking a newer token of the same jti keeps an older token of that jti revoked', () => {
    const records: { t: string }[] = [];
    let real = 1_700_000_000_000;
    const withStore = () =>
      createTokenService({
        assumptions: { tokenTtlSeconds: 600, repeatGenerateToken: 'reissue' },
        clients: [{ clientId: 'a', apiKey: 'ka' }],
        clock: createClock({ realNow: () => real }),
        seed: 's',
        crypto: nodeCrypto,
        record: (r) => records.push(r),
      });
    const tokens = withStore();
    const older = tokens.issue('a').token;
    tokens.reset();
    real += 5_000;
    // The id source restarted: the next token has the older one's jti and a later exp.
    const newer = tokens.issue('a').token;
    const jti = (t: string) => JSON.parse(Buffer.from(t.split('.')[1] as string, 'base64url').toString()).jti;
    expect(jti(newer)).toBe(jti(older));
    tokens.revoke('a', older);
    tokens.revoke('a', newer);
    for (const t of [older, newer]) expect(tokens.verify(t, undefined)).toMatchObject({ reason: 'revokedToken' });
    // A replay of the records and a snapshot keep both.
    const replayed = withStore();
    for (const r of records) replayed.apply({ ...r, o: 'p' });
    const fromSnapshot = withStore();
    for (const r of tokens.snapshot()) fromSnapshot.apply({ ...r, o: 'p' });
    for (const service of [replayed, fromSnapshot])
      for (const t of [older, newer]) expect(service.verify(t, undefined)).toMatchObject({ reason: 'revokedToken' });
    // Another token of the same client stays good.
    expect(tokens.verify(tokens.issue('a').token, undefined)).toEqual({ ok: true, clientId: 'a' });
  });

  it('a store keeps the highest generation over a reset: records after it, a snapshot, and older revoke-all records', () => {
    const records: { t: string }[] = [];
    const withStore = () =>
      createTokenService({
        assumptions: { tokenTtlSeconds: 600, repeatGenerateToken: 'reissue' },
        clients: [{ clientId: 'a', apiKey: 'ka' }],
        clock: createClock({ realNow: () => 1_700_000_000_000 }),
        seed: 's',
        crypto: nodeCrypto,
        record: (r) => records.push(r),
      });
    const first = withStore();
    first.revoke('a', undefined);
    const before = first.issue('a').token;
    first.reset();
    // What the control reset writes after its `rst`: all a file store keeps once it drops what came before.
    const kept = first.keptOverReset();
    expect(kept).toEqual([{ t: 'tk.h', c: 'a', v: 1 }]);
    const revokedAgain = (service: ReturnType<typeof withStore>) => {
      service.revoke('a', undefined);
      return service.verify(before, undefined);
    };
    const restarted = withStore();
    for (const r of kept) restarted.apply({ ...r, o: 'p' });
    expect(revokedAgain(restarted)).toMatchObject({ ok: false, reason: 'revokedToken' });
    // A compaction's snapshot carries it as well.
    const fromSnapshot = withStore();
    for (const r of first.snapshot()) fromSnapshot.apply({ ...r, o: 'p' });
    expect(revokedAgain(fromSnapshot)).toMatchObject({ ok: false, reason: 'revokedToken' });
    // The revoke-all record names its generation; one without it (an older kit's) takes the next one.
    expect(records.filter((r) => r.t === 'tk.ra')).toEqual([1, 2, 2].map((v) => ({ t: 'tk.ra', c: 'a', v })));
    const older = withStore();
    older.apply({ t: 'tk.ra', c: 'a', o: 'p' });
    older.apply({ t: 'tk.ra', c: 'a', o: 'p' });
    expect(older.keptOverReset()).toEqual([{ t: 'tk.h', c: 'a', v: 2 }]);
  });

  it('a view rebuilt from its own snapshot never hands out a refresh token or token id of its boot again', () => {
    const withStore = () => {
      const service = createTokenService({
        assumptions: { tokenTtlSeconds: 600, repeatGenerateToken: 'reissue' },
        clients: [
          { clientId: 'a', apiKey: 'ka' },
          { clientId: 'b', apiKey: 'kb' },
        ],
        clock: createClock({ realNow: () => 1_700_000_000_000 }),
        seed: 's',
        crypto: nodeCrypto,
        record: () => undefined,
      });
      service.setIdBase(2);
      return service;
    };
    const first = withStore();
    const handedOut = [first.issue('a'), first.issue('a'), first.issue('b')];
    // Both refresh tokens of `a` spent: only the marks say how far its numbers went.
    handedOut.push(first.refresh('a', handedOut[0]!.refresh_token).data);
    const marks = first.snapshot().filter((r) => r.t === 'tk.m');
    expect(marks).toEqual([
      { t: 'tk.m', c: 'a', n: 2 * 2 ** 32 + 2, j: 2 * 2 ** 32 + 3 },
      { t: 'tk.m', c: 'b', n: 2 * 2 ** 32, j: -1 },
    ]);
    const rebuilt = withStore();
    for (const r of first.snapshot()) rebuilt.apply({ ...r, o: 'p' });
    const next = [rebuilt.issue('a'), rebuilt.issue('b')];
    const seen = new Set(handedOut.flatMap((p) => [p.token, p.refresh_token]));
    for (const pair of next) {
      expect(seen.has(pair.refresh_token)).toBe(false);
      expect(seen.has(pair.token)).toBe(false);
    }
  });
});
