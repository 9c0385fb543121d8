// Each request's duration (log line, journal) is read from the platform's monotonicNs: Node's is process.hrtime.bigint
// itself, so the CLI mock's first answer does not wait for perf_hooks to load (decision 0037) and a request's reads
// run none of the platform module's code. It must measure what performance.now measures, and a request through the
// Node platform must still carry its duration.
import { afterAll, describe, expect, it } from 'vitest';
import { buildMockApp } from '../../src/mock/core-app.ts';
import { nodePlatform } from '../../src/mock/node-platform.ts';
import { webPlatform } from '../../src/mock/web-platform.ts';

describe('monotonicNs', () => {
  for (const platform of [nodePlatform, webPlatform]) {
    it(`on the ${platform.name} platform, measures an interval as performance.now does`, () => {
      const before = [performance.now(), platform.monotonicNs(), performance.now()] as const;
      while (performance.now() - before[2] < 3) {
        // A short busy wait: a real interval, bracketed by performance.now on both sides.
      }
      const after = [performance.now(), platform.monotonicNs(), performance.now()] as const;
      const measured = Number(after[1] - before[1]) / 1e6;
      // The two reads lie between the brackets, so the interval does too (0.01 ms for rounding).
      expect(measured).toBeGreaterThanOrEqual(after[0] - before[2] - 0.01);
      expect(measured).toBeLessThanOrEqual(after[2] - before[0] + 0.01);
    });
  }

  it("on the Node platform, is Node's own process.hrtime.bigint (no global performance, no wrapper)", () => {
    expect(nodePlatform.monotonicNs).toBe(process.hrtime.bigint);
  });

  const { app } = buildMockApp({ log: false }, { platform: nodePlatform });
  afterAll(() => app.close());

  it('gives each journaled request a duration through the Node platform', async () => {
    const answer = await app.fetch(
      new Request('http://localhost:4010/api/v2/accounting/token/generate-token', {
        method: 'POST',
        headers: { 'x-client-id': 'test-client', 'x-api-key': 'test-api-key' },
      }),
    );
    expect(answer.status).toBe(200);
    const [entry] = await app.control.requests();
    expect(Number.isFinite(entry?.durationMs)).toBe(true);
    expect(entry?.durationMs).toBeGreaterThanOrEqual(0);
    // Milliseconds, not an absolute reading of either clock.
    expect(entry?.durationMs).toBeLessThan(60_000);
  });
});
