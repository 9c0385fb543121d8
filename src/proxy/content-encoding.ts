/**
 * The body as the checker and the HAR file read it: a `Content-Encoding` of gzip, deflate or br is undone on a copy
 * (the forwarded bytes stay compressed). Decoding is bounded like every body of the proxy, so a compression bomb
 * cannot take its memory.
 *
 * @module
 */
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

function header(raw: readonly string[], name: string): string | undefined {
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === name) return raw[i + 1];
  return undefined;
}

/**
 * The decoded body, the body itself when it is not encoded, or undefined when it cannot be decoded within
 * `maxBytes` (or the encoding is unknown).
 *
 * @example
 * decodedBody(['Content-Encoding', 'gzip'], gzipSync('{}'), 1024)?.toString() // '{}'
 */
export function decodedBody(rawHeaders: readonly string[], body: Buffer, maxBytes: number): Buffer | undefined {
  const encoding = header(rawHeaders, 'content-encoding')?.trim().toLowerCase();
  if (!encoding || encoding === 'identity' || body.length === 0) return body;
  const options = { maxOutputLength: maxBytes };
  try {
    if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(body, options);
    if (encoding === 'deflate') return inflateSync(body, options);
    if (encoding === 'br') return brotliDecompressSync(body, options);
  } catch {
    return undefined;
  }
  return undefined;
}
