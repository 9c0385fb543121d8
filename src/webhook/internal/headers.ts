/**
 * The header reader moved to `src/internal/headers-like.ts` (the contract layer's webhook header reader uses it);
 * this path keeps the webhook modules' and tests' imports.
 *
 * @module
 */
export { type HeadersLike, isHeadersLike, readHeader } from '../../internal/headers-like.ts';
