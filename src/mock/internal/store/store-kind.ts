/**
 * The `store` option's value kind: a store URL, checked as the store opener will read it, or a store object from
 * code.
 *
 * @module
 */
import { kitMessage } from '../../../internal/messages.ts';
import { parsedBy, type ValueKind } from '../../../internal/option-table.ts';
import type { SandboxStore } from './sandbox-store.ts';
import { parseStoreUrl } from './store-url.ts';

/** The state store: a store URL (`memory:`, `file:<path>`, `redis://…`) or, from code, a store object. */
export const storeKind: ValueKind<string | SandboxStore> = parsedBy('url', (value: string | SandboxStore) => {
  if (typeof value === 'string') {
    parseStoreUrl(value);
    return value.trim();
  }
  const kind = typeof value === 'object' && value !== null ? (value as { kind?: unknown }).kind : undefined;
  if (kind === 'file' || kind === 'redis') return value;
  throw new TypeError(
    kitMessage('mock option "store" must be a store URL (memory:, file:<path>, redis://…) or a SandboxStore object.'),
  );
});
