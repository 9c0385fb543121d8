/**
 * One redis-server for a test file, and the stores its tests open closed after each test: what every file that
 * tests the Redis store's own calls sets up. Registers the hooks itself; call it at the top of the file.
 *
 * @module
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { SandboxStore } from './mock-internals/store.ts';
import { startRedisServer, type TestRedisServer } from './redis-server.ts';

/** The file's server (its `url` once `beforeAll` ran) and the list a test adds each store it opens to. */
export function redisPerFile(): { readonly server: () => TestRedisServer; readonly opened: SandboxStore[] } {
  let redis: TestRedisServer | undefined;
  const opened: SandboxStore[] = [];
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
  });
  afterAll(async () => {
    await redis?.close();
  });
  return { server: () => redis!, opened };
}
