import { describe, expect, it } from 'vitest';
import { testEngine } from './engine-fixtures.ts';

// engine.ts answers a repeated query from its most-recent entry without touching the LRU map; the order must stay exact.
describe('document cache: most recent entry', () => {
  const engine = testEngine({ cacheSize: 2 });
  const ctx = { clientId: 'test-client', ip: '203.0.113.7' };
  // A new string each time, as a parsed request body gives.
  const run = (name: string) => engine.execute({ query: `query ${name} { __typename }`.slice(0) }, ctx);

  it('counts repeated hits and keeps the repeated query as the most recently used', () => {
    expect(run('F').status).toBe(200);
    run('A');
    run('A');
    run('A');
    expect(engine.cacheStats()).toEqual({ size: 2, hits: 2, misses: 2 });
    run('B'); // evicts F, the least recently used
    run('A');
    expect(engine.cacheStats().misses).toBe(3);
    run('F');
    expect(engine.cacheStats().misses).toBe(4);
    // F evicted B (A was used after B), so A still hits.
    run('A');
    expect(engine.cacheStats()).toEqual({ size: 2, hits: 4, misses: 4 });
  });
});
