/**
 * The replica suite (issue 23) on a real Redis: Debian's redis-server on a free port, each test under a fresh key
 * prefix, so the same two-replica behaviour the shared in-memory test store shows holds on the store replicas use in
 * a team's staging. A replica "dies" by losing its connection (its store is closed under it).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { createRedisStore, type SandboxStore } from '../../support/mock-internals/store.ts';
import { startRedisServer, type TestRedisServer } from '../../support/redis-server.ts';
import { describeReplicas } from './replica-suite.ts';

let redis: TestRedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.close();
});

describeReplicas('Redis', () => {
  const keyPrefix = `replicas-${randomUUID()}:`;
  const stores: SandboxStore[] = [];
  return {
    replica: () => {
      const store = createRedisStore(redis.url, { keyPrefix });
      stores.push(store);
      return store;
    },
    sever: (store) => {
      void store.close();
    },
    dispose: async () => {
      await Promise.all(stores.map((s) => s.close().catch(() => undefined)));
    },
  };
});
