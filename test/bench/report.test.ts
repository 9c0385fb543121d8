import { describe, expect, it } from 'vitest';
import {
  type BenchSummary,
  collectMetrics,
  evaluateTarget,
  median,
  type RoundResult,
  renderMarkdown,
  renderMarkdownTable,
  renderText,
  renderTextTable,
  rpsKey,
  type ServerRun,
  summarize,
  summarizeRun,
  type Target,
  targetMargin,
  targetsFor,
  usable,
  type WorkloadRun,
} from '../../bench/report.ts';

const round = (rps: number, over: Partial<RoundResult> = {}): RoundResult => ({
  rps,
  p50: 1,
  p99: 3,
  requests: rps * 4,
  non2xx: 0,
  errors: 0,
  failures: 0,
  serverCpu: 0.98,
  ...over,
});

const run = (server: string, rps: number[], over: Partial<ServerRun> = {}): ServerRun => ({
  server,
  label: server,
  rounds: rps.map((r) => round(r)),
  peakRssKb: 81_920,
  ...over,
});

const context = {
  date: '2026-01-01T00:00:00.000Z',
  cpu: 'Test CPU',
  cores: 2,
  node: 'v20.0.0',
  pinning: 'pinned',
  settings: '3 × 4 s rounds',
};

describe('median', () => {
  it.each([
    ['odd length', { given: [3, 1, 2], want: 2 }],
    ['even length', { given: [4, 1, 3, 2], want: 2.5 }],
    ['one value', { given: [7], want: 7 }],
  ])('%s', (_name, { given, want }) => {
    expect(median(given)).toBe(want);
  });

  it('is NaN for no values', () => {
    expect(median([])).toBeNaN();
  });
});

describe('summarizeRun and usable', () => {
  it('takes medians over rounds', () => {
    expect(summarizeRun(run('mock', [100, 300, 200]))).toMatchObject({ rps: 200, p50: 1, p99: 3, failureRate: 0 });
  });

  it('counts non-2xx, socket errors and failed checks as failures', () => {
    const r: ServerRun = { ...run('mock', []), rounds: [round(1000, { requests: 1000, non2xx: 5, failures: 5 })] };
    expect(summarizeRun(r).failureRate).toBeCloseTo(0.01);
    expect(usable(r)).toBe(false);
  });

  it('rejects a run with a recorded problem or without rounds', () => {
    expect(usable(run('mock', [100], { problem: 'answer check failed' }))).toBe(false);
    expect(usable(run('mock', []))).toBe(false);
    expect(usable(run('mock', [100]))).toBe(true);
  });
});

describe('evaluateTarget', () => {
  const metrics = { a: 70, b: 100, c: 20, d: 25 };
  it.each<[string, { target: Omit<Target, 'id' | 'label'>; want: { value: number | null; pass: boolean | null } }]>([
    [
      'ratio at the threshold passes',
      { target: { numerator: 'a', denominator: 'b', op: '>=', threshold: 0.7 }, want: { value: 0.7, pass: true } },
    ],
    [
      'ratio under the threshold fails',
      { target: { numerator: 'a', denominator: 'b', op: '>=', threshold: 0.8 }, want: { value: 0.7, pass: false } },
    ],
    [
      'at most: under passes',
      { target: { numerator: 'c', denominator: 'd', op: '<=', threshold: 2.5 }, want: { value: 0.8, pass: true } },
    ],
    [
      'best of several counts',
      {
        target: { numerator: 'b', denominator: ['c', 'd', 'missing'], op: '>=', threshold: 3 },
        want: { value: 4, pass: true },
      },
    ],
    [
      'missing numerator is not measured',
      { target: { numerator: 'x', denominator: 'b', op: '>=', threshold: 1 }, want: { value: null, pass: null } },
    ],
    [
      'missing denominators are not measured',
      {
        target: { numerator: 'a', denominator: ['x', 'y'], op: '>=', threshold: 1 },
        want: { value: null, pass: null },
      },
    ],
  ])('%s', (_name, { target, want }) => {
    const result = evaluateTarget({ id: 't', label: 't', ...target }, metrics);
    expect(result.pass).toBe(want.pass);
    if (want.value === null) expect(result.value).toBeNull();
    else expect(result.value).toBeCloseTo(want.value);
  });

  it('gives the per-CPU ratio against the same reference', () => {
    const result = evaluateTarget(
      {
        id: 't',
        label: 't',
        numerator: 'rps:w:mock',
        denominator: ['rps:w:yoga', 'rps:w:apollo'],
        op: '>=',
        threshold: 3,
      },
      {
        'rps:w:mock': 900,
        'rps:w:yoga': 100,
        'rps:w:apollo': 300,
        'cpu:w:mock': 1000,
        'cpu:w:apollo': 250,
        'cpu:w:yoga': 1,
      },
    );
    expect(result.value).toBe(3);
    expect(result.perCpuValue).toBe(4);
  });

  it('flags runs whose server was not saturated', () => {
    const text = renderText(
      summarize(
        context,
        [{ id: 'w', title: 'w', runs: [{ ...run('mock', []), rounds: [round(10, { serverCpu: 0.5 })] }] }],
        {},
      ),
    );
    expect(text).toContain(
      'Server CPU under 85% (bound by the load generator or a busy machine, not by the server): w / mock.',
    );
  });

  it('names the best reference it compared with', () => {
    const result = evaluateTarget(
      { id: 't', label: 't', numerator: 'b', denominator: ['c', 'd'], op: '>=', threshold: 3 },
      metrics,
    );
    expect(result.against).toBe('d');
  });
});

describe('collectMetrics and targetsFor', () => {
  const workloads: WorkloadRun[] = [
    {
      id: 'generate-token',
      title: 'generate-token',
      runs: [run('mock', [8000]), run('rest-token', [10000]), run('prism', [2000])],
    },
    {
      id: 'fees-list',
      title: 'fees',
      runs: [
        run('mock', [9000], { problem: 'answer check failed' }),
        run('graphql-execute', [8000]),
        run('yoga', [1000]),
      ],
    },
  ];

  it('keeps medians of usable runs only', () => {
    const metrics = collectMetrics(workloads, { mock: { label: 'mock', runsMs: [200, 100, 300] } });
    expect(metrics[rpsKey('generate-token', 'mock')]).toBe(8000);
    expect(metrics[rpsKey('fees-list', 'mock')]).toBeUndefined();
    expect(metrics['cold:mock']).toBe(200);
  });

  // Start point (0 payments) left out; 9 checkpoints: thirds are 1-3, 4-6, 7-9.
  const kb = [50_000, 60_000, 62_000, 64_000, 70_000, 66_000, 68_000, 90_000, 64_000, 66_000];

  it('compares the median heap after GC of the middle and the last third of the memory checkpoints', () => {
    const points = kb.map((heap, i) => ({
      payments: i * 10,
      rssKb: 500_000 + i,
      peakRssKb: 600_000,
      heapAfterGcKb: heap,
      storedPayments: 10,
    }));
    const metrics = collectMetrics([], {}, { target: 90, checkpoints: points, failures: 0 });
    expect(metrics['memory:mid']).toBe(68_000);
    expect(metrics['memory:last']).toBe(66_000);
    expect(metrics['memory:uses-heap']).toBe(1);
  });

  it('falls back to RSS when the heap probe did not answer', () => {
    const points = kb.map((rssKb, i) => ({ payments: i * 10, rssKb, peakRssKb: 90_000, storedPayments: null }));
    const metrics = collectMetrics([], {}, { target: 90, checkpoints: points, failures: 0 });
    expect(metrics['memory:mid']).toBe(68_000);
    expect(metrics['memory:uses-heap']).toBe(0);
  });

  it('lists the throughput targets of the workloads that ran, and always cold start and memory', () => {
    const ids = targetsFor(['generate-token']).map((t) => t.id);
    expect(ids).toEqual(['token-vs-a', 'generate-token-vs-usual', 'cold-start', 'memory-bounded']);
  });

  it('evaluates a whole run', () => {
    const summary = summarize(context, workloads, {
      mock: { label: 'mock', runsMs: [150] },
      'rest-token': { label: '(a)', runsMs: [100] },
    });
    const byId = Object.fromEntries(summary.targets.map((t) => [t.id, t]));
    expect(byId['token-vs-a']).toMatchObject({ pass: true, value: 0.8 });
    expect(byId['generate-token-vs-usual']).toMatchObject({ pass: true, value: 4 });
    expect(byId['fees-vs-b']?.pass).toBeNull();
    expect(byId['cold-start']).toMatchObject({ pass: true, value: 1.5 });
    expect(byId['memory-bounded']?.pass).toBeNull();
  });
});

describe('targetMargin', () => {
  it.each<[string, { given: { value: number | null; op: '>=' | '<='; threshold: number }; want: number | null }]>([
    ['at least, above the threshold', { given: { value: 0.84, op: '>=', threshold: 0.7 }, want: 1.2 }],
    ['at least, below the threshold', { given: { value: 0.35, op: '>=', threshold: 0.7 }, want: 0.5 }],
    ['at most, under the threshold passes above 1', { given: { value: 2, op: '<=', threshold: 2.5 }, want: 1.25 }],
    ['at most, over the threshold', { given: { value: 5, op: '<=', threshold: 2.5 }, want: 0.5 }],
    ['not measured', { given: { value: null, op: '>=', threshold: 3 }, want: null }],
  ])('%s', (_name, { given, want }) => {
    const margin = targetMargin(given);
    if (want === null) expect(margin).toBeNull();
    else expect(margin).toBeCloseTo(want);
  });
});

describe('rendering', () => {
  it('aligns a text table, numbers to the right', () => {
    expect(
      renderTextTable(
        ['name', 'req/s'],
        [
          ['mock', '12,000'],
          ['(a)', '900'],
        ],
      ),
    ).toBe(['name   req/s', '----  ------', 'mock  12,000', '(a)      900'].join('\n'));
  });

  it('renders a Markdown table with right-aligned number columns and escaped pipes', () => {
    expect(renderMarkdownTable(['server', 'ratio'], [['a | b', '1.10×']])).toBe(
      ['| server | ratio |', '|---|---:|', '| a \\| b | 1.10× |'].join('\n'),
    );
  });

  const summary: BenchSummary = summarize(
    context,
    [
      {
        id: 'generate-token',
        title: 'generate-token',
        runs: [run('mock', [5000]), run('rest-token', [10000]), run('prism', [2000])],
      },
    ],
    {},
  );

  it('shows req/s, latencies, peak RSS, server CPU and mock ÷ reference, and marks failed targets', () => {
    const text = renderText(summary);
    expect(text).toContain('Test CPU, 2 cores, Node v20.0.0');
    expect(text).toMatch(/rest-token\s+10,000\s+1\s+3\s+80\s+98%\s+10,204\s+0\.50×/);
    expect(text).toMatch(/generate-token ≥ 0\.7 × \(a\) bare node:http\s+0\.50×\s+0\.50×\s+≥ 0\.7\s+0\.71×\s+FAIL/);
    expect(text).toMatch(
      /generate-token ≥ 3 × best of Prism \/ yoga \/ Apollo\s+2\.50×\s+2\.50×\s+≥ 3\s+0\.83×\s+FAIL/,
    );
  });

  it('renders Markdown for the README with the machine line', () => {
    const md = renderMarkdown(summary);
    expect(md).toContain('Machine: Test CPU, 2 cores, Node v20.0.0');
    expect(md).toContain('| workload | server | req/s |');
    expect(md).toContain('| generate-token ≥ 0.7 × (a) bare node:http | 0.50× | 0.50× | ≥ 0.7 | 0.71× | FAIL |');
  });
});
