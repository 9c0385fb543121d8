// The reference model against the mock in process and the msw handlers: a fixed-seed run inside the unit tier.
import { describe, expect, it } from 'vitest';
import { inProcessDeployment } from './deployments.ts';
import { runModel } from './run-model.ts';

describe('the model against createMockApp(...).fetch', () => {
  it('agrees on every answer of 40 random sequences (seed 38)', async () => {
    const deployment = await inProcessDeployment();
    try {
      const summary = await runModel(deployment, { numRuns: 40, seed: 38, maxCommands: 40 });
      expect(summary.sequences).toBe(40);
      expect(summary.webhooks).toBeGreaterThan(0);
    } finally {
      await deployment.close();
    }
  }, 60_000);
});
