/**
 * Text and bytes without Node's `Buffer`: UTF-8 lengths, base64 and base64url of UTF-8 text, hex to bytes. Built on
 * what browsers, workers and Node share (`TextEncoder`, `TextDecoder`, `btoa`, `atob`), so the mock's request path
 * runs in browsers and workers as well as Node (decision 0014). Node's faster `Buffer` paths stay behind the platform
 * seam where a path is hot.
 *
 * @module
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Bytes `text` takes in UTF-8, counted without encoding it (a lone surrogate counts 3, as the encoder writes U+FFFD).
 *
 * @example
 * utf8ByteLength('é'); // 2
 */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** UTF-8 bytes of `text`. */
export function utf8Bytes(text: string): Uint8Array {
  return encoder.encode(text);
}

/** `bytes` read as UTF-8 (invalid sequences become U+FFFD, as `Buffer#toString` does). */
export function utf8Text(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** Bytes as standard base64 with padding. */
export function base64OfBytes(bytes: Uint8Array): string {
  let binary = '';
  // In slices: String.fromCharCode takes its arguments on the stack.
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, Math.min(i + 0x8000, bytes.length)));
  return btoa(binary);
}

/** Bytes as base64url without padding (JWT segments). */
export function base64urlOfBytes(bytes: Uint8Array): string {
  return base64OfBytes(bytes).replace(/=+$/, '').replaceAll('+', '-').replaceAll('/', '_');
}

/**
 * Bytes of base64 or base64url text (padding optional), or `undefined` when it is not base64 text.
 *
 * @example
 * bytesOfBase64('aGk'); // Uint8Array [104, 105]
 */
export function bytesOfBase64(text: string): Uint8Array | undefined {
  let standard = text.replaceAll('-', '+').replaceAll('_', '/').replace(/=+$/, '');
  // A lone last character carries no whole byte; Node's Buffer ignores it, and so does this.
  if (standard.length % 4 === 1) standard = standard.slice(0, -1);
  const padded = standard + '='.repeat((4 - (standard.length % 4)) % 4);
  let binary: string;
  try {
    binary = atob(padded);
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Bytes of lower- or upper-case hex text of even length. */
export function bytesOfHex(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/** Bytes as lower-case hex. */
export function hexOfBytes(bytes: Uint8Array): string {
  let hex = '';
  for (const b of bytes) hex += (b < 16 ? '0' : '') + b.toString(16);
  return hex;
}

/**
 * Whether two strings are equal, in time that depends on their length only, not on where they first differ. For
 * fixed-length values (digests, signatures), whose lengths are public.
 *
 * @example
 * constantTimeTextEqual(givenSignature, expectedSignature);
 */
export function constantTimeTextEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
