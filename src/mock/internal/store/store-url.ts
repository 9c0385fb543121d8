/**
 * The `store` option's URL: `memory:` (the default), `file:<path>` or `redis://…` / `rediss://…`.
 * Isomorphic: it only reads the text; the Node entry opens the file or the connection.
 *
 * @module
 */
import { kitMessage } from '../../../internal/messages.ts';

/** A parsed store URL. */
export type StoreUrl =
  | { readonly kind: 'memory' }
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'redis'; readonly url: string };

/**
 * Parses a store URL; throws a `TypeError` saying which forms exist.
 *
 * @example
 * parseStoreUrl('file:./sandbox.log'); // { kind: 'file', path: './sandbox.log' }
 */
export function parseStoreUrl(text: string): StoreUrl {
  const t = text.trim();
  if (t === 'memory:' || t === 'memory') return { kind: 'memory' };
  if (t.startsWith('redis://') || t.startsWith('rediss://')) return { kind: 'redis', url: t };
  if (t.startsWith('file://')) {
    let path = '';
    try {
      path = decodeURIComponent(new URL(t).pathname);
    } catch {
      path = '';
    }
    if (path !== '' && path !== '/') return { kind: 'file', path };
  } else if (t.startsWith('file:') && t.length > 'file:'.length) return { kind: 'file', path: t.slice('file:'.length) };
  throw new TypeError(
    kitMessage(
      `store "${text}" is not a store URL: give memory: (the default), file:<path> (e.g. file:./sandbox.log, one process) or redis://host:6379 (replicas).`,
    ),
  );
}
