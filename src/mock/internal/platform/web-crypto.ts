/**
 * The web platform's {@link CryptoPrimitives}: @noble/hashes (audited, dependency-free, synchronous), because the
 * token check runs on every request and Web Crypto's `subtle` is asynchronous only. Bundled into the browser build
 * (a development dependency there), so consumers install nothing more. Same bytes as the Node primitives (tested).
 *
 * @module
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { kitMessage } from '../../../internal/messages.ts';
import {
  base64OfBytes,
  base64urlOfBytes,
  bytesOfBase64,
  constantTimeTextEqual,
  hexOfBytes,
  utf8Bytes,
  utf8Text,
} from '../../../internal/text-bytes.ts';
import type { CryptoPrimitives } from './crypto-primitives.ts';

/** SHA-256 block size in bytes. */
const BLOCK = 64;

/** @noble/hashes and the shared text helpers. */
export const webCrypto: CryptoPrimitives = {
  sha256Hex: (text) => hexOfBytes(sha256(utf8Bytes(text))),
  sha512Hex: (text) => hexOfBytes(sha512(utf8Bytes(text))),
  hs256Signer(key) {
    if (key.length > BLOCK) throw new RangeError(kitMessage('HS256 key longer than 64 bytes.'));
    // The keyed state is made once; each signature clones it, so the key pads are not rebuilt per token.
    const keyed = hmac.create(sha256, key);
    return (input) => base64urlOfBytes(keyed.clone().update(utf8Bytes(input)).digest());
  },
  secretMatcher(secret) {
    // Digests compared in constant time: equal length always, so neither the secret's length nor where a candidate
    // differs shows in the time taken.
    const expected = hexOfBytes(sha256(utf8Bytes(secret)));
    return (candidate) => constantTimeTextEqual(hexOfBytes(sha256(utf8Bytes(candidate))), expected);
  },
  hmacSha256Base64: (key, text) => base64OfBytes(hmac(sha256, key, utf8Bytes(text))),
  base64urlOfText: (text) => base64urlOfBytes(utf8Bytes(text)),
  textOfBase64url: (segment) => utf8Text(bytesOfBase64(segment) ?? new Uint8Array(0)),
};
