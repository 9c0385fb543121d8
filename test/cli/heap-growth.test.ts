import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { cliHeapGrowingPercent, limitHeapGrowth } from '../../src/cli/heap-growth.ts';

describe('limitHeapGrowth', () => {
  it("keeps a heap growth the user gave on Node's command line", () => {
    expect(limitHeapGrowth(['--heap-growing-percent=100'])).toBe(false);
    expect(limitHeapGrowth(['--max-old-space-size=512', '--heap_growing_percent', '100'])).toBe(false);
  });

  it('sets its own growth otherwise, and the process keeps running with it', () => {
    expect(cliHeapGrowingPercent).toBeGreaterThan(0);
    expect(limitHeapGrowth(['--enable-source-maps', '--max-old-space-size=512'])).toBe(true);
    // The flag is read at each full collection; the heap is still usable after it is set.
    expect(getHeapStatistics().total_heap_size).toBeGreaterThan(0);
  });
});
