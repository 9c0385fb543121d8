/**
 * One-shot digests, the fast path for the mock's derived identifiers and seeded random blocks.
 * `crypto.hash` (Node 20.12+) skips the Hash object and is several times faster per call than `createHash`;
 * older Node 20 releases fall back to `createHash`.
 *
 * @module
 */
import * as crypto from 'node:crypto';

type OneShot = (algorithm: string, data: string, encoding: 'hex') => string;
const oneShot = (crypto as unknown as { hash?: OneShot }).hash;

/** SHA-512 digest of a UTF-8 string, as lower-case hex (128 digits). */
export function sha512Hex(data: string): string {
  return oneShot ? oneShot('sha512', data, 'hex') : crypto.createHash('sha512').update(data).digest('hex');
}

/** SHA-256 digest of a UTF-8 string, as lower-case hex. */
export function sha256Hex(data: string): string {
  return oneShot ? oneShot('sha256', data, 'hex') : crypto.createHash('sha256').update(data).digest('hex');
}
