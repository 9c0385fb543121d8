/**
 * The mock's JWTs (HS256): the one header it issues, and checking the tokens it issued itself. Signing is the
 * platform's (platform/node-crypto.ts under Node, platform/web-crypto.ts in a browser); this module needs no
 * runtime of its own.
 *
 * Checking is done here, not with a JWT library: the mock accepts only tokens it signed, with its one fixed header,
 * so a check is "same header segment, same signature, JSON payload". Loading a general JWT library cost the mock's
 * start-up more than the rest of its token code (decision 0001); tests check interoperability with one.
 *
 * @module
 */
import { constantTimeTextEqual } from '../../../internal/text-bytes.ts';

/** A non-empty base64url segment without padding. */
const base64urlText = /^[\w-]+$/;

/** Signs a JWT signing input (`header.payload`, ASCII) and returns the base64url signature. */
export type Hs256Signer = (signingInput: string) => string;

/** The base64url JOSE header of every token the mock issues: `{"alg":"HS256","typ":"JWT"}`. */
export const jwtHeaderSegment = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9';

/**
 * Checks a compact JWT against `sign` and returns its decoded payload, or `undefined` when it is not a token signed
 * with that key under {@link jwtHeaderSegment}: wrong segment count, another header (so another algorithm, `none`
 * included), a payload segment that is not base64url text, a signature that does not match, or a payload that is not
 * a JSON object.
 *
 * @example
 * const claims = verifyHs256(token, sign, platform.crypto.textOfBase64url); // { sub, jti, ... } or undefined
 */
export function verifyHs256(
  token: string,
  sign: Hs256Signer,
  textOfBase64url: (segment: string) => string,
): Record<string, unknown> | undefined {
  const firstDot = jwtHeaderSegment.length;
  if (token.length <= firstDot || token.charCodeAt(firstDot) !== 0x2e || !token.startsWith(jwtHeaderSegment))
    return undefined;
  const secondDot = token.indexOf('.', firstDot + 1);
  if (secondDot === -1 || token.indexOf('.', secondDot + 1) !== -1) return undefined;
  // The signer writes its input as latin1, one byte per UTF-16 unit: a character above U+00FF would be signed as its
  // low byte, so a payload with such a character would pass as the ASCII token it aliases, yet decode differently.
  // Only base64url text can be a payload the mock signed.
  if (!base64urlText.test(token.slice(firstDot + 1, secondDot))) return undefined;
  // Constant time, as a real verifier would be; the lengths are public (always 43 characters when valid).
  if (!constantTimeTextEqual(token.slice(secondDot + 1), sign(token.slice(0, secondDot)))) return undefined;
  try {
    const payload: unknown = JSON.parse(textOfBase64url(token.slice(firstDot + 1, secondDot)));
    return typeof payload === 'object' && payload !== null && !Array.isArray(payload)
      ? (payload as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
