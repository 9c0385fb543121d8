/**
 * HMAC-SHA256 signatures for the mock's JWTs (HS256), base64url-encoded.
 *
 * Where Node has the one-shot `crypto.hash` (20.12+), the HMAC is computed as RFC 2104 defines it, from two one-shot
 * SHA-256 calls over key pads prepared once: H((K ^ opad) || H((K ^ ipad) || message)). That allocates no Hmac
 * object (a native handle with a finalizer) per token, which matters on generate-token, the hottest REST path.
 * Elsewhere it falls back to `createHmac`. Both give the same bytes (tested against `createHmac`).
 *
 * @module
 */
import * as crypto from 'node:crypto';

type OneShot = (algorithm: string, data: Uint8Array, encoding: 'buffer' | 'base64url') => Buffer | string;
const oneShot = (crypto as unknown as { hash?: OneShot }).hash;

/** SHA-256 block size in bytes: the HMAC key pad length. */
const BLOCK = 64;

/** Signs a JWT signing input (`header.payload`, ASCII) and returns the base64url signature. */
export type Hs256Signer = (signingInput: string) => string;

/**
 * Creates a signer for `key` (at most 64 bytes, as the mock's 32-byte secret is).
 *
 * @example
 * const sign = createHs256Signer(secret);
 * const token = `${input}.${sign(input)}`;
 */
export function createHs256Signer(key: Buffer, options: { oneShot?: boolean } = {}): Hs256Signer {
  if (key.length > BLOCK) throw new RangeError('[payment-contract-kit] HS256 key longer than 64 bytes.');
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
    (hash('sha256', inner.subarray(0, BLOCK + n), 'buffer') as Buffer).copy(outer, BLOCK);
    return hash('sha256', outer, 'base64url') as string;
  };
}
