// Issue 27's soak in the test run: 100,000 payments with the webhook receiver down for a simulated day, then back
// up, against the CLI mock as its own process (port 0, real HTTP, its virtual clock), so the memory figure is the
// mock's RSS and not the test runner's. It prints every figure; it asserts the deterministic ones (counts,
// accounting of every delivery, answer sizes) and the RSS bound. Latency is printed, not asserted: the
// benchmark holds timing goals, and this machine may be loaded. Needs `npm run build` (npm test builds first).
import { describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../src/assumptions.ts';
import { runSoak } from './run-soak.ts';

const PAYMENTS = 100_000;
const AFTER = 2_000;
/** The bound on the mock's RSS at 30,000 payments and at 100,000, with the receiver down. */
const RSS_BOUND_MB = 350;

describe('soak: a receiver down for a simulated day', () => {
  it('keeps the mock process within its memory bound, answers small pages, and accounts for every delivery', {
    timeout: 900_000,
  }, async () => {
    const figures = await runSoak({
      payments: PAYMENTS,
      outageMs: 86_400_000,
      batch: 1_000,
      concurrency: 16,
      afterPayments: AFTER,
      checkpoints: [30_000, PAYMENTS],
    });
    console.info(`[soak] ${JSON.stringify(figures)}`);
    const caps = defaultAssumptions.history;

    // 0 crashes, every payment accepted.
    expect(figures.payments).toEqual({ accepted: PAYMENTS + AFTER, refused: 0, crashes: 0 });
    // Every payment settled into exactly one delivery, and every delivery is accounted for.
    const d = figures.deliveries;
    expect(d.created).toBe(PAYMENTS + AFTER);
    expect(d.delivered + d.failed + d.pending + d.evicted).toBe(d.created);
    expect(d.pending).toBe(0);
    expect(d.delivered + d.failed).toBeLessThanOrEqual(caps.maxDeliveries);
    // The receiver came back: the payments made after it reached it, and so did any refused one redelivered.
    expect(d.received).toBeGreaterThanOrEqual(AFTER + d.redeliveredAfterOutage);
    // The pending cap was reached during the outage: refusals were counted, and logged once per episode rather
    // than once per refusal.
    expect(d.refusedAtCap).toBeGreaterThan(0);
    expect(figures.log.capLines.length).toBeGreaterThan(0);
    expect(figures.log.capLines.length * 100).toBeLessThan(d.refusedAtCap);
    // Every dashboard answer at its default page is small, at any history size (the 2 MB).
    expect(figures.controlAnswers.largestBytes).toBeLessThan(2 * 1024 * 1024);
    // Memory depends on the caps, not on the payments: the mock's RSS at 30,000 payments and at 100,000 (receiver
    // down), and its peak over the whole outage, are within the bound.
    const [, at30k, at100k] = figures.memory;
    expect(at30k).toMatchObject({ payments: 30_000 });
    expect(at100k).toMatchObject({ payments: PAYMENTS });
    expect(at30k!.rssMb).toBeLessThanOrEqual(RSS_BOUND_MB);
    expect(at100k!.rssMb).toBeLessThanOrEqual(RSS_BOUND_MB);
    expect(at100k!.peakRssMb).toBeLessThanOrEqual(RSS_BOUND_MB);
  });
});
