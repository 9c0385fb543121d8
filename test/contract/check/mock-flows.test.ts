// The real mock's every flow, in both guides, checked with the one checker: not one drift, and the guide detected.
import { describe, expect, it } from 'vitest';
import { checkExchange } from '../../../src/contract/check/index.ts';
import { recordMockTraffic } from './support/mock-traffic.ts';

describe.each(['current', 'legacy'] as const)('the mock in the %s guide', (guide) => {
  it.each(['both', guide] as const)('checks clean with --guide %s, the guide detected or given', async (option) => {
    const traffic = await recordMockTraffic(guide, option === 'both' ? 'both' : guide);
    const kinds = new Set(traffic.map((t) => t.exchange.kind ?? 'http'));
    expect(kinds).toEqual(new Set(['http', 'webhook']));
    expect(traffic.filter((t) => t.exchange.kind === 'webhook').length).toBeGreaterThanOrEqual(3);
    for (const { name, exchange } of traffic) {
      const result = checkExchange(exchange, { guide: option });
      expect({ name, drifts: result.drifts, skipped: result.skipped }).toEqual({
        name,
        drifts: [],
        skipped: undefined,
      });
      if (exchange.request.url.endsWith('/graphql')) expect({ name, guide: result.guide }).toEqual({ name, guide });
    }
  });
});
