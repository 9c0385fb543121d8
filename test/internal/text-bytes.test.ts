// The Buffer-free text helpers give Node's Buffer answers (the mock's core uses them in every runtime).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  base64OfBytes,
  base64urlOfBytes,
  bytesOfBase64,
  bytesOfHex,
  constantTimeTextEqual,
  hexOfBytes,
  utf8ByteLength,
  utf8Text,
} from '../../src/internal/text-bytes.ts';

// A fixed seed: the same cases on every run (CI must not meet a new one by chance).
fc.configureGlobal({ seed: 28 });

const texts = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }));
const bytes = fc.uint8Array({ maxLength: 200 });

describe('text-bytes', () => {
  it('utf8ByteLength counts as Buffer.byteLength does, lone surrogates included', () => {
    fc.assert(fc.property(texts, (text) => utf8ByteLength(text) === Buffer.byteLength(text, 'utf8')));
    expect(utf8ByteLength('\ud800')).toBe(3);
  });

  it('base64 and base64url encode as Buffer does, and decode back', () => {
    fc.assert(
      fc.property(bytes, (b) => {
        const buffer = Buffer.from(b);
        return (
          base64OfBytes(b) === buffer.toString('base64') &&
          base64urlOfBytes(b) === buffer.toString('base64url') &&
          Buffer.from(bytesOfBase64(base64urlOfBytes(b))!).equals(buffer) &&
          Buffer.from(bytesOfBase64(base64OfBytes(b))!).equals(buffer)
        );
      }),
    );
  });

  it('decodes unpadded base64 with a lone last character as Buffer does, and refuses what is not base64', () => {
    expect(Buffer.from(bytesOfBase64('abcde')!)).toEqual(Buffer.from('abcde', 'base64'));
    expect(bytesOfBase64('a$b')).toBeUndefined();
  });

  it('reads UTF-8 and hex as Buffer does', () => {
    fc.assert(fc.property(bytes, (b) => utf8Text(b) === Buffer.from(b).toString('utf8')));
    fc.assert(fc.property(bytes, (b) => hexOfBytes(b) === Buffer.from(b).toString('hex')));
    fc.assert(fc.property(bytes, (b) => Buffer.from(bytesOfHex(hexOfBytes(b))).equals(Buffer.from(b))));
  });

  it.each([
    ['equal', 'abc', 'abc', true],
    ['different', 'abc', 'abd', false],
    ['different lengths', 'abc', 'abcd', false],
    ['empty', '', '', true],
  ] as const)('constantTimeTextEqual: %s', (_name, a, b, expected) => {
    expect(constantTimeTextEqual(a, b)).toBe(expected);
  });
});
