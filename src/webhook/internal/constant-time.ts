/**
 * Constant-time comparison of secrets.
 *
 * @module
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether `a` equals `b`, taking the same time wherever they first differ. Both sides are hashed first, so the
 * compared buffers always have the same length: `timingSafeEqual` never throws, and the time taken does not reveal
 * the secret's length either.
 */
export function constantTimeEqual(a: string | Uint8Array, b: string | Uint8Array): boolean {
  const da = createHash('sha256').update(a).digest();
  const db = createHash('sha256').update(b).digest();
  return timingSafeEqual(da, db);
}
