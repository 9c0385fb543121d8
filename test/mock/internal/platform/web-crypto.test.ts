// The web platform's hashing gives the same bytes as the Node platform's, so a token, a card account uid or a
// payment uuid is the same whichever runtime the mock runs in (same seed, same answers).
import { createHmac, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nodeCrypto, webCrypto } from '../../../support/mock-internals/platform.ts';

// A fixed seed: the same cases on every run (CI must not meet a new one by chance).
fc.configureGlobal({ seed: 28 });

const texts = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary', maxLength: 300 }));

describe('web crypto primitives match the Node ones', () => {
  it.each(['sha256Hex', 'sha512Hex', 'base64urlOfText'] as const)('%s, for any text', (name) => {
    fc.assert(fc.property(texts, (text) => webCrypto[name](text) === nodeCrypto[name](text)));
  });

  it('textOfBase64url decodes what base64urlOfText encodes, as Node does', () => {
    fc.assert(
      fc.property(texts, (text) => {
        const segment = nodeCrypto.base64urlOfText(text);
        return webCrypto.textOfBase64url(segment) === nodeCrypto.textOfBase64url(segment);
      }),
    );
  });

  it('signs HS256 with the same signature as createHmac, for keys up to one block', () => {
    for (const length of [0, 1, 32, 64]) {
      const key = randomBytes(length);
      const [web, node] = [webCrypto.hs256Signer(key), nodeCrypto.hs256Signer(key)];
      for (const input of ['', 'a.b', 'eyJ.x-_'.repeat(200)]) {
        expect(web(input)).toBe(createHmac('sha256', key).update(input).digest('base64url'));
        expect(web(input)).toBe(node(input));
      }
    }
    expect(() => webCrypto.hs256Signer(randomBytes(65))).toThrow(RangeError);
  });

  it('signs Standard Webhooks HMACs alike', () => {
    const key = randomBytes(24);
    expect(webCrypto.hmacSha256Base64(key, 'id.1.{"a":"é"}')).toBe(nodeCrypto.hmacSha256Base64(key, 'id.1.{"a":"é"}'));
  });

  it.each([
    ['the same secret', 'k3y-a', true],
    ['another', 'k3y-b', false],
    ['a prefix', 'k3y-', false],
    ['empty', '', false],
    ['non-ASCII', 'k3y-á', false],
  ])('secretMatcher: %s', (_name, candidate, expected) => {
    expect(webCrypto.secretMatcher('k3y-a')(candidate)).toBe(expected);
    expect(nodeCrypto.secretMatcher('k3y-a')(candidate)).toBe(expected);
  });
});
