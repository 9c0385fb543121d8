import { createHmac, randomBytes } from 'node:crypto';
import { createSigner, createVerifier } from 'fast-jwt';
import { describe, expect, it } from 'vitest';
import { jwtHeaderSegment, verifyHs256 as verifyWith } from '../../../support/mock-internals/domain.ts';
import { createHs256Signer, nodeCrypto } from '../../../support/mock-internals/platform.ts';

const verifyHs256 = (token: string, sign: (input: string) => string) =>
  verifyWith(token, sign, nodeCrypto.textOfBase64url);

const key = randomBytes(32);
const sign = createHs256Signer(key);
const b64 = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const signed = (payload: unknown, header = jwtHeaderSegment) => {
  const input = `${header}.${b64(payload)}`;
  return `${input}.${sign(input)}`;
};

describe('HS256 signer', () => {
  it('gives the same signatures as createHmac, one-shot or not, for short and long inputs', () => {
    const plain = createHs256Signer(key, { oneShot: false });
    for (const length of [0, 1, 63, 64, 65, 300, 1100, 5000]) {
      const input = 'a.B-_'.repeat(length).slice(0, length);
      const expected = createHmac('sha256', key).update(input).digest('base64url');
      expect(sign(input)).toBe(expected);
      expect(plain(input)).toBe(expected);
    }
  });

  it('signs tokens that a JWT library of the field (fast-jwt) verifies', () => {
    const token = signed({ sub: 'a', n: 1 });
    expect(createVerifier({ key, algorithms: ['HS256'] })(token)).toEqual({ sub: 'a', n: 1 });
  });

  it('refuses keys longer than one SHA-256 block', () => {
    expect(() => createHs256Signer(randomBytes(65))).toThrow(RangeError);
  });
});

describe('verifyHs256', () => {
  it('returns the payload of a token it signed, and of one fast-jwt signed with the same key and header', () => {
    expect(verifyHs256(signed({ sub: 'a', gen: 2 }), sign)).toEqual({ sub: 'a', gen: 2 });
    const library = createSigner({ key, algorithm: 'HS256', noTimestamp: true })({ sub: 'b' });
    expect(library.split('.')[0]).toBe(jwtHeaderSegment);
    expect(verifyHs256(library, sign)).toEqual({ sub: 'b' });
  });

  it('rejects another key, a changed payload or signature, and malformed tokens', () => {
    const token = signed({ sub: 'a' });
    const [header, payload, signature] = token.split('.') as [string, string, string];
    expect(verifyHs256(token, createHs256Signer(randomBytes(32)))).toBeUndefined();
    expect(verifyHs256(`${header}.${b64({ sub: 'b' })}.${signature}`, sign)).toBeUndefined();
    const changed = signature.endsWith('A') ? 'B' : 'A';
    expect(verifyHs256(`${header}.${payload}.${signature.slice(0, -1)}${changed}`, sign)).toBeUndefined();
    expect(verifyHs256(`${header}.${payload}.${signature}x`, sign)).toBeUndefined();
    expect(verifyHs256(`${header}.${payload}`, sign)).toBeUndefined();
    expect(verifyHs256(`${token}.extra`, sign)).toBeUndefined();
    expect(verifyHs256('', sign)).toBeUndefined();
    expect(verifyHs256(header, sign)).toBeUndefined();
    expect(verifyHs256('not a token at all', sign)).toBeUndefined();
  });

  it('rejects other headers: alg none, another algorithm, or the same claims spelled differently', () => {
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: 'a' })}.`;
    expect(verifyHs256(none, sign)).toBeUndefined();
    // Correctly signed with our key, but under a header the mock never issues.
    expect(verifyHs256(signed({ sub: 'a' }, b64({ typ: 'JWT', alg: 'HS256' })), sign)).toBeUndefined();
    expect(verifyHs256(signed({ sub: 'a' }, b64({ alg: 'HS384', typ: 'JWT' })), sign)).toBeUndefined();
  });

  it('rejects correctly signed payloads that are not JSON objects', () => {
    expect(verifyHs256(signed('not json'), sign)).toBeUndefined();
    expect(verifyHs256(signed([1, 2]), sign)).toBeUndefined();
    expect(verifyHs256(signed(null), sign)).toBeUndefined();
    expect(verifyHs256(signed(42), sign)).toBeUndefined();
  });

  it('rejects a payload character above U+00FF that the latin1 signing input would alias to a signed one', () => {
    const token = signed({ sub: 'a', exp: 1 });
    const [header, payload, signature] = token.split('.') as [string, string, string];
    // Every position, aliased by the character with the same low byte: the signer would see the signed bytes.
    for (let i = 0; i < payload.length; i++) {
      const aliased = payload.slice(0, i) + String.fromCharCode(0x100 + payload.charCodeAt(i)) + payload.slice(i + 1);
      expect(sign(`${header}.${aliased}`)).toBe(signature);
      expect(verifyHs256(`${header}.${aliased}.${signature}`, sign)).toBeUndefined();
    }
    // Not base64url text, though correctly signed: standard base64 padding and alphabet, whitespace, an empty payload.
    for (const payloadSegment of [
      `${payload}=`,
      `${payload.replace(/-/g, '+').replace(/_/g, '/')}+`,
      ` ${payload}`,
      '',
    ]) {
      const input = `${header}.${payloadSegment}`;
      expect(verifyHs256(`${input}.${sign(input)}`, sign)).toBeUndefined();
    }
  });
});
