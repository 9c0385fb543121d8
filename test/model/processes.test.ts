// The reference model against the mock over real HTTP: the CLI, the CLI on a file: store SIGKILLed and restarted
// at random points, and the validating proxy in front of the mock. Integration tier (child processes, sockets).
import { describe, expect, it } from 'vitest';
import { cliDeployment, proxyDeployment } from './process-deployments.ts';
import { runModel } from './run-model.ts';

describe('the model against the mock over HTTP', () => {
  it('the CLI agrees on every answer of 15 random sequences (seed 38)', async () => {
    const deployment = await cliDeployment();
    try {
      const summary = await runModel(deployment, { numRuns: 15, seed: 38, maxCommands: 30 });
      expect(summary.sequences).toBe(15);
    } finally {
      await deployment.close();
    }
  }, 60_000);

  it('the CLI on a file: store, SIGKILLed and restarted, agrees on 5 random sequences (seed 38)', async () => {
    const deployment = await cliDeployment('file');
    try {
      const summary = await runModel(deployment, { numRuns: 5, seed: 38, maxCommands: 20 });
      expect(summary.byName.restart ?? 0).toBeGreaterThan(0);
    } finally {
      await deployment.close();
    }
  }, 90_000);

  it('the proxy in front of the mock agrees on 15 random sequences and reports no drift of the service (seed 38)', async () => {
    const deployment = await proxyDeployment();
    try {
      await runModel(deployment, { numRuns: 15, seed: 38, maxCommands: 30 });
      expect(deployment.proxyDrifts().filter((d) => d.kind !== 'consumer')).toEqual([]);
    } finally {
      await deployment.close();
    }
  }, 60_000);
});
