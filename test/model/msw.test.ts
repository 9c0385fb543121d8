// The reference model against the msw handlers under setupServer: a fixed-seed run inside the unit tier.
import { describe, expect, it } from 'vitest';
import { mswDeployment } from './deployments.ts';
import { runModel } from './run-model.ts';

describe('the model against the msw handlers', () => {
  it('agrees on every answer of 25 random sequences (seed 38)', async () => {
    const deployment = await mswDeployment();
    try {
      const summary = await runModel(deployment, { numRuns: 25, seed: 38, maxCommands: 40 });
      expect(summary.sequences).toBe(25);
      expect(summary.payments).toBeGreaterThan(0);
    } finally {
      await deployment.close();
    }
  }, 60_000);
});
