/**
 * The Node entry's store opener: `file:` opens the file store, `redis://` / `rediss://` the Redis store
 * (ioredis, an optional peer, loaded only then). The isomorphic core only parses the URL (store-url.ts) and calls
 * this seam. With it go the token operations over a Redis store's shared token state, which the browser builds
 * leave out.
 *
 * @module
 */
import { kitMessage } from '../internal/messages.ts';
import type { MockAppSeams } from './core-app.ts';
import { sharedJournal } from './internal/domain/shared-journal.ts';
import { sharedTokenOps } from './internal/domain/shared-tokens.ts';
import { createFileStore } from './internal/store/file-store.ts';
import { createRedisStore } from './internal/store/redis-store.ts';
import type { SandboxStore } from './internal/store/sandbox-store.ts';
import { parseStoreUrl } from './internal/store/store-url.ts';
import { planStore } from './internal/store/store-wiring.ts';
import { sharedSandboxParts } from './shared-parts.ts';

/**
 * Opens the store a URL names (not `memory:`, which has no store object). Nothing is read until `open()`.
 *
 * @example
 * const store = openNodeStore('file:./sandbox.log');
 */
export function openNodeStore(url: string): SandboxStore {
  const parsed = parseStoreUrl(url);
  if (parsed.kind === 'file') return createFileStore(parsed.path);
  if (parsed.kind === 'redis') return createRedisStore(parsed.url);
  throw new TypeError(kitMessage(`store "${url}" is memory:, which has no store object to open.`));
}

/**
 * What the Node entries pass the composition root for stores: the store planner with its sync layer, the opener,
 * the token operations over a Redis store's shared token state, its journal, payments and webhooks (kept out of the
 * browser builds, which have none of them).
 *
 * @example
 * const { app } = buildMockApp(options, { ...nodeStoreSeams, platform: nodePlatform });
 */
export const nodeStoreSeams: Pick<
  MockAppSeams,
  'openStore' | 'sharedTokenOps' | 'sharedJournal' | 'planStore' | 'sharedParts'
> = {
  openStore: openNodeStore,
  planStore,
  sharedTokenOps,
  sharedJournal,
  sharedParts: sharedSandboxParts,
};
