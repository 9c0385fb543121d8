// The order the integration and package files start in: the slowest first across both tiers, failed ones before
// them, known figures when vitest's cache has none.
import { describe, expect, it } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import { SlowestFirstSequencer, typicalSeconds } from './slowest-first.ts';

const root = '/repo';

function spec(project: string, file: string, isolate = true): TestSpecification {
  return {
    moduleId: `${root}/${file}`,
    project: { name: project, config: { isolate, sequence: { groupOrder: 0 } } },
  } as unknown as TestSpecification;
}

function sequencer(results: Record<string, { duration: number; failed: boolean }>, sizes: Record<string, number>) {
  const ctx = {
    config: { root },
    cache: {
      getFileTestResults: (key: string) => results[key],
      getFileStats: (key: string) => (sizes[key] === undefined ? undefined : { size: sizes[key] }),
    },
  } as unknown as Vitest;
  return new SlowestFirstSequencer(ctx);
}

const names = (files: TestSpecification[]) =>
  files.map((f) => `${f.project.name}:${f.moduleId.slice(root.length + 1)}`);

describe('SlowestFirstSequencer', () => {
  it('orders by the durations in the cache across projects, a failed file first', async () => {
    const files = [spec('integration', 'a.test.ts'), spec('package', 'b.test.ts'), spec('integration', 'c.test.ts')];
    const order = await sequencer(
      {
        'integration:a.test.ts': { duration: 1_000, failed: false },
        'package:b.test.ts': { duration: 90_000, failed: false },
        'integration:c.test.ts': { duration: 10, failed: true },
      },
      {},
    ).sort(files);
    expect(names(order)).toEqual(['integration:c.test.ts', 'package:b.test.ts', 'integration:a.test.ts']);
  });

  it('takes the known figures without a cache (a fresh clone), then larger files first', async () => {
    const slow = Object.entries(typicalSeconds).sort(([, x], [, y]) => y - x);
    expect(slow.length).toBeGreaterThan(1);
    const [slowest, next] = [slow[0]![0], slow[1]![0]];
    const files = [spec('unit', 'small.test.ts'), spec('unit', 'big.test.ts'), spec('p', next), spec('i', slowest)];
    const order = await sequencer({}, { 'unit:small.test.ts': 10, 'unit:big.test.ts': 5_000 }).sort(files);
    expect(names(order)).toEqual([`i:${slowest}`, `p:${next}`, 'unit:big.test.ts', 'unit:small.test.ts']);
  });

  it('keeps isolated files before those that share a module graph, as vitest does', async () => {
    const files = [spec('unit', 'shared.test.ts', false), spec('unit-isolated', 'own.test.ts', true)];
    const order = await sequencer({ 'unit:shared.test.ts': { duration: 9_000, failed: false } }, {}).sort(files);
    expect(names(order)).toEqual(['unit-isolated:own.test.ts', 'unit:shared.test.ts']);
  });
});
