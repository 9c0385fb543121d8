/**
 * Constant-time checks of a configured secret (a client's API key) against what a request sent.
 *
 * Both sides are compared as SHA-256 digests with `timingSafeEqual`: the compared buffers always have the same
 * length, so neither where the two first differ nor the configured secret's length shows in the time taken. The
 * configured secret is digested once, when the matcher is made; a check digests only the candidate, into a buffer
 * the matcher reuses (checks run synchronously, one at a time), so it allocates no Hash object or Buffer per call
 * where Node has the one-shot `crypto.hash` (20.12+), as in hs256.ts.
 *
 * @module
 */
import * as crypto from 'node:crypto';

type OneShot = (algorithm: string, data: string, encoding: 'latin1') => string;
const oneShot = (crypto as unknown as { hash?: OneShot }).hash;

/** SHA-256 digest length in bytes. */
const DIGEST_BYTES = 32;

/** Whether a candidate equals the secret a matcher was made for; takes the same time wherever they differ. */
export type SecretMatcher = (candidate: string) => boolean;

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
export function createSecretMatcher(secret: string): SecretMatcher {
  const expected = Buffer.alloc(DIGEST_BYTES);
  digestInto(secret, expected);
  const given = Buffer.alloc(DIGEST_BYTES);
  return (candidate) => {
    digestInto(candidate, given);
    return crypto.timingSafeEqual(given, expected);
  };
}
