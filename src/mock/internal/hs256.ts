/**
 * HMAC-SHA256 for the mock's JWTs (HS256): signing, and checking the tokens the mock issued itself.
 *
 * Where Node has the one-shot `crypto.hash` (20.12+), the HMAC is computed as RFC 2104 defines it, from two one-shot
 * SHA-256 calls over key pads prepared once: H((K ^ opad) || H((K ^ ipad) || message)). That allocates no Hmac
 * object (a native handle with a finalizer) per token, which matters on generate-token, the hottest REST path. The
 * inner digest comes back as a latin1 string, not a Buffer, and is written straight into the outer block: a
 * string result skips the Buffer allocation (about 0.3 µs of 1.2 µs per signature, measured). Elsewhere it falls
 * back to `createHmac`. Both give the same bytes (tested against `createHmac`).
 *
 * Checking is done here too, not with a JWT library: the mock accepts only tokens it signed, with its one fixed
 * header, so a check is "same header segment, same signature, JSON payload". Loading a general JWT library cost the
 * mock's start-up more than the rest of its token code (decision 0001); tests check interoperability with one.
 *
 * @module
 */
import * as crypto from 'node:crypto';
import { kitMessage } from '../../internal/messages.ts';

type OneShot = (algorithm: string, data: Uint8Array, encoding: 'latin1' | 'base64url') => string;
const oneShot = (crypto as unknown as { hash?: OneShot }).hash;

/** A non-empty base64url segment without padding. */
const base64urlText = /^[\w-]+$/;

/** SHA-256 block size in bytes: the HMAC key pad length. */
const BLOCK = 64;

/** Signs a JWT signing input (`header.payload`, ASCII) and returns the base64url signature. */
export type Hs256Signer = (signingInput: string) => string;

/** The base64url JOSE header of every token the mock issues: `{"alg":"HS256","typ":"JWT"}`. */
export const jwtHeaderSegment = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

/**
 * Creates a signer for `key` (at most 64 bytes, as the mock's 32-byte secret is).
 *
 * @example
 * const sign = createHs256Signer(secret);
 * const token = `${input}.${sign(input)}`;
 */
export function createHs256Signer(key: Buffer, options: { oneShot?: boolean } = {}): Hs256Signer {
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

/**
 * Checks a compact JWT against `sign` and returns its decoded payload, or `undefined` when it is not a token signed
 * with that key under {@link jwtHeaderSegment}: wrong segment count, another header (so another algorithm, `none`
 * included), a payload segment that is not base64url text, a signature that does not match, or a payload that is not
 * a JSON object.
 *
 * @example
 * const claims = verifyHs256(token, sign); // { sub, jti, ... } or undefined
 */
export function verifyHs256(token: string, sign: Hs256Signer): Record<string, unknown> | undefined {
  const firstDot = jwtHeaderSegment.length;
  if (token.length <= firstDot || token.charCodeAt(firstDot) !== 0x2e || !token.startsWith(jwtHeaderSegment))
    return undefined;
  const secondDot = token.indexOf('.', firstDot + 1);
  if (secondDot === -1 || token.indexOf('.', secondDot + 1) !== -1) return undefined;
  // The signer writes its input as latin1, one byte per UTF-16 unit: a character above U+00FF would be signed as its
  // low byte, so a payload with such a character would pass as the ASCII token it aliases, yet decode differently.
  // Only base64url text can be a payload the mock signed.
  if (!base64urlText.test(token.slice(firstDot + 1, secondDot))) return undefined;
  const expected = Buffer.from(sign(token.slice(0, secondDot)));
  const given = Buffer.from(token.slice(secondDot + 1));
  // Constant time, as a real verifier would be; the lengths are public (always 43 characters when valid).
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return undefined;
  try {
    const payload: unknown = JSON.parse(Buffer.from(token.slice(firstDot + 1, secondDot), 'base64url').toString());
    return typeof payload === 'object' && payload !== null && !Array.isArray(payload)
      ? (payload as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
