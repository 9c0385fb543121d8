/**
 * The Node platform's {@link CryptoPrimitives}: node:crypto, on the fastest paths Node offers, because the token
 * check runs on every request.
 *
 * HS256: where Node has the one-shot `crypto.hash` (20.12+), the HMAC is computed as RFC 2104 defines it, from two
 * one-shot SHA-256 calls over key pads prepared once: H((K ^ opad) || H((K ^ ipad) || message)). That allocates no
 * Hmac object (a native handle with a finalizer) per token, which matters on generate-token, the hottest REST path.
 * The inner digest comes back as a latin1 string, not a Buffer, and is written straight into the outer block: a
 * string result skips a Buffer allocation per signature, a large share of so short a computation. Elsewhere it falls
 * back to `createHmac`. Both give the same bytes (tested against `createHmac`).
 *
 * Secrets (API keys) are compared as SHA-256 digests with `timingSafeEqual`: the compared buffers always have the
 * same length, so neither where the two first differ nor the configured secret's length shows in the time taken. A
 * check digests only the candidate, into a buffer the matcher reuses.
 *
 * @module
 */
import * as crypto from 'node:crypto';
import { kitMessage } from '../../../internal/messages.ts';
import type { CryptoPrimitives } from './crypto-primitives.ts';

type OneShot = (algorithm: string, data: string | Uint8Array, encoding: 'hex' | 'latin1' | 'base64url') => string;
const oneShot = (crypto as unknown as { hash?: OneShot }).hash;

/** SHA-256 block size in bytes: the HMAC key pad length. */
const BLOCK = 64;

/** SHA-256 digest length in bytes. */
const DIGEST_BYTES = 32;

/**
 * Creates an HS256 signer for `key` (at most 64 bytes, as the mock's 32-byte secret is). `oneShot: false` forces the
 * `createHmac` path (tests compare the two).
 *
 * @example
 * const sign = createHs256Signer(secret);
 * const token = `${input}.${sign(input)}`;
 */
export function createHs256Signer(key: Uint8Array, options: { oneShot?: boolean } = {}): (input: string) => string {
  if (key.length > BLOCK) throw new RangeError(kitMessage('HS256 key longer than 64 bytes.'));
  if (!oneShot || options.oneShot === false) {
    const keyObject = crypto.createSecretKey(key);
    return (input) => crypto.createHmac('sha256', keyObject).update(input).digest('base64url');
  }
  const hash = oneShot;
  // Inner block: K ^ ipad, then the message (grown when a longer one comes). Outer: K ^ opad, then the inner digest.
  let inner = Buffer.alloc(BLOCK + 1024);
  const outer = Buffer.alloc(BLOCK + 32);
  for (let i = 0; i < BLOCK; i++) {
    const k = i < key.length ? key[i]! : 0;
    inner[i] = k ^ 0x36;
    outer[i] = k ^ 0x5c;
  }
  return (input) => {
    // The signing input is base64url text: one byte per character.
    if (BLOCK + input.length > inner.length) {
      const grown = Buffer.alloc(BLOCK + input.length * 2);
      inner.copy(grown, 0, 0, BLOCK);
      inner = grown;
    }
    const n = inner.write(input, BLOCK, 'latin1');
    outer.write(hash('sha256', inner.subarray(0, BLOCK + n), 'latin1'), BLOCK, 'latin1');
    return hash('sha256', outer, 'base64url');
  };
}

/** Writes the SHA-256 digest of `value` (UTF-8) into `into` (32 bytes). */
function digestInto(value: string, into: Buffer): void {
  if (oneShot) into.write(oneShot('sha256', value, 'latin1'), 0, 'latin1');
  else crypto.createHash('sha256').update(value).digest().copy(into);
}

/**
 * Makes a constant-time matcher for `secret`.
 *
 * @example
 * const matches = createSecretMatcher(client.apiKey);
 * if (!matches(req.headers['x-api-key'] ?? '')) refuse();
 */
export function createSecretMatcher(secret: string): (candidate: string) => boolean {
  const expected = Buffer.alloc(DIGEST_BYTES);
  digestInto(secret, expected);
  const given = Buffer.alloc(DIGEST_BYTES);
  return (candidate) => {
    digestInto(candidate, given);
    return crypto.timingSafeEqual(given, expected);
  };
}

function hexDigest(algorithm: 'sha256' | 'sha512', data: string): string {
  return oneShot ? oneShot(algorithm, data, 'hex') : crypto.createHash(algorithm).update(data).digest('hex');
}

// One reused buffer for the UTF-8 bytes of a JWT payload (a client id may be non-ASCII: at most 3 bytes a character).
let scratch = Buffer.allocUnsafe(1024);

/** node:crypto and Buffer. */
export const nodeCrypto: CryptoPrimitives = {
  sha256Hex: (text) => hexDigest('sha256', text),
  sha512Hex: (text) => hexDigest('sha512', text),
  hs256Signer: (key) => createHs256Signer(key),
  secretMatcher: createSecretMatcher,
  hmacSha256Base64: (key, text) => crypto.createHmac('sha256', key).update(text).digest('base64'),
  base64urlOfText(text) {
    if (text.length * 3 > scratch.length) scratch = Buffer.allocUnsafe(text.length * 3);
    const n = scratch.write(text, 0, 'utf8');
    return scratch.toString('base64url', 0, n);
  },
  textOfBase64url: (segment) => Buffer.from(segment, 'base64url').toString(),
};
