// The reference model against two and three replicas of the CLI mock on one Redis, each request sent to a replica
// picked at random and a replica SIGKILLed and restarted mid-sequence: every answer is the one a single mock would
// give, whichever replica gives it. Integration tier (child processes, a redis-server of its own).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type TestRedisServer } from '../support/redis-server.ts';
import { replicaDeployment } from './process-deployments.ts';
import { runModel } from './run-model.ts';

let redis: TestRedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.close();
});

describe('the model against replicas on one Redis', () => {
  it.each([2, 3])(
    '%i replicas agree on every answer of 6 random sequences (seed 38)',
    async (replicas) => {
      const deployment = await replicaDeployment(replicas, redis.url, 38);
      try {
        const summary = await runModel(deployment, { numRuns: 6, seed: 38, maxCommands: 25 });
        expect(summary.sequences).toBe(6);
        expect(summary.byName.restart ?? 0).toBeGreaterThan(0);
      } finally {
        await deployment.close();
      }
    },
    90_000,
  );
});
