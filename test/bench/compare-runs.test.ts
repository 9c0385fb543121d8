import { describe, expect, it } from 'vitest';
import { compareRuns, type RunFile, renderComparison, selfBaselineChecks } from '../../bench/compare-runs.ts';

const r = (median: number, min: number, max: number) => ({ median, min, max, pairs: 12, flagged: [] });
const run = (paired: RunFile['summary']['paired']): RunFile => ({ summary: { paired } });

describe('compareRuns', () => {
  it('says which figures agree within their spreads and skips what one run lacks', () => {
    const first = run({
      'cpu-vs-ref:fees-list:mock': r(1.3, 1.2, 1.5),
      'cpu-vs-ref:process-payment:mock': r(2.7, 2.6, 2.8),
      'cold-vs-ref:mock': r(1.9, 1.8, 2.0),
    });
    const second = run({
      'cpu-vs-ref:fees-list:mock': r(1.35, 1.25, 1.45),
      'cpu-vs-ref:process-payment:mock': r(3.0, 2.9, 3.1),
    });
    const figures = compareRuns(first, second);
    expect(figures.map((f) => [f.key, f.agree])).toEqual([
      ['cpu-vs-ref:fees-list:mock', true],
      ['cpu-vs-ref:process-payment:mock', false],
    ]);
    expect(renderComparison(figures, [])).toContain('1 of 2 judged figures agree');
  });

  it('shows req/s beside (a) and the peers without judging it, and judges every other figure', () => {
    const first = run({
      'rps-vs-ref:fees-list:graphql-execute': r(0.44, 0.35, 0.84),
      'mock-rps-vs:fees-list:apollo': r(4.12, 3.52, 5.27),
      'proxy-vs-mock:fees-list': r(0.18, 0.11, 0.24),
      'in-process:vitest-file': r(1.12, 1.07, 1.22),
    });
    const second = run({
      'rps-vs-ref:fees-list:graphql-execute': r(0.57, 0.45, 0.83),
      'mock-rps-vs:fees-list:apollo': r(3.79, 3.32, 4.01),
      'proxy-vs-mock:fees-list': r(0.3, 0.25, 0.35),
      'in-process:vitest-file': r(1.13, 1.09, 1.19),
    });
    const figures = compareRuns(first, second);
    expect(figures.map((f) => [f.key, f.agree, f.judged])).toEqual([
      ['rps-vs-ref:fees-list:graphql-execute', false, false],
      ['mock-rps-vs:fees-list:apollo', false, false],
      ['proxy-vs-mock:fees-list', false, true],
      ['in-process:vitest-file', true, true],
    ]);
    const text = renderComparison(figures, []);
    expect(text).toContain('1 of 2 judged figures agree');
    expect(text).toContain('req/s beside (a) and the peers (context, not judged): 0 of 2 agree');
    expect(text).toMatch(/rps-vs-ref:fees-list:graphql-execute .* no \(req\/s: context, not judged\)/);
    expect(text).toMatch(/proxy-vs-mock:fees-list .* NO$/m);
  });

  it('leaves the baseline server and NaN figures out', () => {
    const both = run({
      'cpu-vs-ref:fees-list:baseline': r(1.3, 1.2, 1.4),
      'mock-cpu-vs:fees-list:baseline': r(1, 0.9, 1.1),
      'rps-vs-ref:fees-list:proxy': r(Number.NaN, Number.NaN, Number.NaN),
    });
    expect(compareRuns(both, both)).toEqual([]);
  });
});

describe('selfBaselineChecks', () => {
  it('judges each mock ÷ baseline figure against 0.95–1.05', () => {
    const checks = selfBaselineChecks(
      run({
        'mock-cpu-vs:fees-list:baseline': r(1.02, 0.9, 1.1),
        'mock-rps-vs:fees-list:baseline': r(0.93, 0.8, 1.0),
        'cpu-vs-ref:fees-list:mock': r(1.3, 1.2, 1.4),
      }),
    );
    expect(checks.map((c) => [c.key, c.withinBand, c.judged])).toEqual([
      ['mock-cpu-vs:fees-list:baseline', true, true],
      ['mock-rps-vs:fees-list:baseline', false, false],
    ]);
    const text = renderComparison([], checks);
    expect(text).toContain('1 of 1 CPU-per-request figures read within the band');
    expect(text).toMatch(/mock-rps-vs:fees-list:baseline .* no \(req\/s: context, not judged\)/);
  });

  it('fails a CPU-per-request figure outside the band', () => {
    const checks = selfBaselineChecks(run({ 'mock-cpu-vs:generate-token:baseline': r(1.06, 0.96, 1.21) }));
    expect(checks.map((c) => [c.withinBand, c.judged])).toEqual([[false, true]]);
    expect(renderComparison([], checks)).toContain('0 of 1 CPU-per-request figures read within the band');
  });
});
