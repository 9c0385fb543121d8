/**
 * The hashing a platform gives the mock's core (node:crypto under Node, a sync hash library in browsers): the one
 * piece of the platform seam (platform.ts) that tokens and webhooks reach on the request path.
 *
 * @module
 */

/**
 * Synchronous hashing the request path needs. Synchronous because a token check runs on every request and must not
 * add a promise turn (Web Crypto's `subtle` is async only).
 */
export interface CryptoPrimitives {
  /** SHA-256 of UTF-8 text, as lower-case hex. */
  sha256Hex(text: string): string;
  /** SHA-512 of UTF-8 text, as lower-case hex (the seeded random source's blocks). */
  sha512Hex(text: string): string;
  /** An HS256 signer for `key` (at most 64 bytes): base64url HMAC-SHA-256 of an ASCII signing input. */
  hs256Signer(key: Uint8Array): (signingInput: string) => string;
  /** A matcher telling whether a candidate equals `secret`, in time that does not show where they differ. */
  secretMatcher(secret: string): (candidate: string) => boolean;
  /** Base64 HMAC-SHA-256 of UTF-8 `text` under `key` (Standard Webhooks signatures). */
  hmacSha256Base64(key: Uint8Array, text: string): string;
  /** UTF-8 text as base64url without padding (JWT payload segments). */
  base64urlOfText(text: string): string;
  /** The UTF-8 text of base64url bytes (the caller has checked the alphabet). */
  textOfBase64url(segment: string): string;
}
