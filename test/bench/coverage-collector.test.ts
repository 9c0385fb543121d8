// The collector bench tells events the collector counts (so it times real counting, not a reader that ignores them),
// and reports both sides' figures.
import { describe, expect, it } from 'vitest';
import { collectorCost, collectorSide } from '../../bench/coverage-collector.ts';

describe('bench/coverage-collector.ts', () => {
  it.each([
    ['fees', { want: { 'graphql.current.paymentGatewayFeesCalc': 10 } }],
    [
      'payment',
      {
        want: {
          'graphql.current.processPaymentRequest': 10,
          'card.accepted': 10,
          'payment.by-card-details': 5,
          'payment.by-card-account': 5,
        },
      },
    ],
  ] as const)('tells the events of a %s request, each counted', (workload, { want }) => {
    const { tell, collector } = collectorSide('with', workload);
    for (let i = 0; i < 10; i++) tell(i);
    const counted = collector!.report().behaviours.filter((b) => b.covered);
    expect(Object.fromEntries(counted.map((b) => [b.id, b.count]))).toEqual(want);
  });

  it('times both sides', () => {
    const cost = collectorCost('fees', { slices: 3, perSlice: 1000 });
    expect(cost.withoutNs).toBeGreaterThanOrEqual(0);
    expect(cost.withNs).toBeGreaterThan(0);
    expect(cost.collectorNs).toBe(cost.withNs - cost.withoutNs);
  });
});
