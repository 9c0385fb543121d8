/**
 * Turns a raw request body (string, Buffer or Uint8Array) into bytes and text without re-serialising anything:
 * signatures and payload parsing must see exactly the bytes that came over the wire.
 *
 * @module
 */
import { Buffer } from 'node:buffer';
import { kitMessage } from '../../internal/messages.ts';

/** A request body exactly as received. */
export type RawBody = string | Uint8Array;

/** The body as bytes; throws a fix-naming TypeError when the caller passed something else (a parsed object). */
export function rawBodyBytes(rawBody: unknown, fn: string): Buffer {
  if (typeof rawBody === 'string') return Buffer.from(rawBody, 'utf8');
  if (rawBody instanceof Uint8Array) return Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  const got = rawBody === null ? 'null' : Array.isArray(rawBody) ? 'an array' : typeof rawBody;
  throw new TypeError(
    kitMessage(`${fn}: rawBody must be the raw request body as a string, Buffer or Uint8Array, got ${got}. `) +
      'Are you passing the raw request body? A body parser that already turned it into an object changes the bytes; ' +
      "read it raw instead (Express: express.raw({ type: 'application/json' }); Hono: await c.req.text()).",
  );
}
