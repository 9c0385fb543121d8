/**
 * Access tokens as bytes: signing the mock's HS256 JWTs and decoding the ones it signed, with the verified-claims
 * cache. Policy (who may have a token, revocation, expiry) stays in tokens.ts; this module only answers "is this a
 * token of this instance, and what does it claim".
 *
 * Verified claims are cached by token string (bounded), because every GraphQL request carries the same few tokens
 * and checking a signature was a fifth of a fee-list request's CPU (profiled).
 *
 * @module
 */
import { bytesOfHex } from '../../../internal/text-bytes.ts';
import type { CryptoPrimitives } from '../platform/crypto-primitives.ts';
import { jwtHeaderSegment, verifyHs256 } from './hs256.ts';

/** Claims of an access token issued by the mock. */
export interface AccessClaims {
  sub: string;
  typ: 'access';
  jti: string;
  /** Revocation generation of the client at issue time. */
  gen: number;
  iat: number;
  exp: number;
}

/** Signs and decodes one instance's access tokens. */
export interface AccessTokenCodec {
  /** Signs a token; `subJson` is the client id already JSON-escaped. */
  sign(subJson: string, jti: string, gen: number, iat: number, exp: number): string;
  /** The claims of a token this instance signed, or `undefined` for anything else. */
  decode(token: string): AccessClaims | undefined;
  /** Forgets the verified-claims cache. */
  reset(): void;
}

/** Most verified tokens whose claims are kept; the cache is dropped whole when full (a miss costs one verify). */
const verifiedCacheSize = 1024;

/** Creates the codec with the platform's `crypto`; the signing secret is derived from `seed`. */
export function createAccessTokenCodec(seed: string, crypto: CryptoPrimitives): AccessTokenCodec {
  const signature = crypto.hs256Signer(bytesOfHex(crypto.sha256Hex(`payment-contract-kit jwt\0${seed}`)));
  const { base64urlOfText, textOfBase64url } = crypto;
  // The payload is written as a template, not JSON.stringify'd: every claim but `sub` is a number or a hex/uuid
  // string, and `sub` is JSON-escaped once per client.
  // token string → its verified claims (signature and shape checked).
  const verified = new Map<string, AccessClaims>();
  // The latest verified token: a client sends the same one request after request, and comparing two strings is
  // cheaper than hashing the new (300-character) header string for the Map lookup.
  let recentToken: string | undefined;
  let recentClaims: AccessClaims | undefined;

  function decodeUncached(token: string): AccessClaims | undefined {
    // Malformed, another header or algorithm, or a bad signature: all mean "not a token of this mock".
    const claims = verifyHs256(token, signature, textOfBase64url) as Partial<AccessClaims> | undefined;
    if (
      claims === undefined ||
      claims.typ !== 'access' ||
      typeof claims.sub !== 'string' ||
      typeof claims.jti !== 'string' ||
      typeof claims.gen !== 'number' ||
      typeof claims.exp !== 'number'
    )
      return undefined;
    return claims as AccessClaims;
  }

  return {
    sign(subJson, jti, gen, iat, exp) {
      const payload = `{"sub":${subJson},"typ":"access","jti":"${jti}","gen":${gen},"iat":${iat},"exp":${exp}}`;
      const signed = `${jwtHeaderSegment}.${base64urlOfText(payload)}`;
      return `${signed}.${signature(signed)}`;
    },
    decode(token) {
      if (token === recentToken) return recentClaims;
      let claims = verified.get(token);
      if (claims === undefined) {
        claims = decodeUncached(token);
        if (claims === undefined) return undefined;
        if (verified.size >= verifiedCacheSize) verified.clear();
        verified.set(token, claims);
      }
      recentToken = token;
      recentClaims = claims;
      return claims;
    },
    reset() {
      verified.clear();
      recentToken = undefined;
      recentClaims = undefined;
    },
  };
}
