/**
 * One real `redis-server` for a test file of replicas sharing it: started before the file, stopped after it, with a
 * probe client to read the stream and the snapshot directly, and the apps and stalled stores of each test closed
 * and let go after it. The store tests on Redis each had this set-up written out.
 *
 * @module
 */
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { MockApp } from '../../src/mock/control-types.ts';
import type { SandboxStore } from './mock-internals/store.ts';
import { startRedisServer, type TestRedisServer } from './redis-server.ts';
import { type Stallable, stallableStore } from './stallable-store.ts';

/** The file's Redis, its probe client, and what each test leaves to close. */
export interface RedisSuite {
  /** `redis://127.0.0.1:<port>` of the file's server. */
  readonly url: string;
  /** A client of its own, for reading keys as the tests check them. */
  readonly probe: Redis;
  /** Closes `app` after the test. */
  track(app: MockApp): MockApp;
  /** No longer closes these after the test (a test that closed them itself). */
  untrack(...apps: MockApp[]): void;
  /** `base` made stallable; it is let go after the test, so no call stays held. */
  stall(base: SandboxStore): Stallable;
}

/** Registers the file's hooks and returns its suite; call it at the top level of a test file. */
export function redisSuite(): RedisSuite {
  let redis: TestRedisServer | undefined;
  let probe: Redis | undefined;
  let apps: MockApp[] = [];
  const stalls: Stallable[] = [];
  beforeAll(async () => {
    redis = await startRedisServer();
    probe = new Redis(redis.url, { lazyConnect: true });
    await probe.connect();
  });
  afterEach(async () => {
    for (const s of stalls.splice(0)) s.resume();
    for (const app of apps) await app.close();
    apps = [];
  });
  afterAll(async () => {
    probe?.disconnect();
    await redis?.close();
  });
  return {
    get url() {
      if (!redis) throw new Error('redisSuite(): the Redis server starts in beforeAll; read url inside a test.');
      return redis.url;
    },
    get probe() {
      if (!probe) throw new Error('redisSuite(): the probe connects in beforeAll; use it inside a test.');
      return probe;
    },
    track(app) {
      apps.push(app);
      return app;
    },
    untrack(...closed) {
      apps = apps.filter((a) => !closed.includes(a));
    },
    stall(base) {
      const s = stallableStore(base);
      stalls.push(s);
      return s;
    },
  };
}
