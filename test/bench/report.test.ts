import { describe, expect, it } from 'vitest';
import {
  type BenchSummary,
  coldVsRefKey,
  collectMetrics,
  contention,
  cpuPerRequest,
  cpuVsRefKey,
  evaluateTarget,
  floorOwnCpuKey,
  median,
  mockCpuVsKey,
  pairedFigures,
  proxyOwnCpuKey,
  proxyOwnCpuVsFloorKey,
  proxyPairCpuKey,
  type RoundResult,
  renderMarkdown,
  renderMarkdownTable,
  renderText,
  renderTextTable,
  rpsKey,
  rpsVsRefKey,
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
  const metrics = { a: 70, b: 100, c: 1.2 };
  it.each<[string, { target: Omit<Target, 'id' | 'label'>; want: { value: number | null; pass: boolean | null } }]>([
    [
      'a paired ratio under an at-most threshold passes',
      { target: { numerator: 'c', op: '<=', threshold: 1.3 }, want: { value: 1.2, pass: true } },
    ],
    [
      'a paired ratio over an at-most threshold fails',
      { target: { numerator: 'c', op: '<=', threshold: 1.15 }, want: { value: 1.2, pass: false } },
    ],
    [
      'a ratio of two metrics at the threshold passes',
      { target: { numerator: 'a', denominator: 'b', op: '>=', threshold: 0.7 }, want: { value: 0.7, pass: true } },
    ],
    [
      'missing numerator is not measured',
      { target: { numerator: 'x', op: '<=', threshold: 1 }, want: { value: null, pass: null } },
    ],
    [
      'missing denominator is not measured',
      { target: { numerator: 'a', denominator: 'y', op: '>=', threshold: 1 }, want: { value: null, pass: null } },
    ],
  ])('%s', (_name, { target, want }) => {
    const result = evaluateTarget({ id: 't', label: 't', ...target }, metrics);
    expect(result.pass).toBe(want.pass);
    if (want.value === null) expect(result.value).toBeNull();
    else expect(result.value).toBeCloseTo(want.value);
  });

  it('counts the rounds and cold starts where other processes took the server core, and calls a mostly contended run a busy host', () => {
    const waits = (shares: number[]) =>
      summarize(context, {
        workloads: [
          {
            id: 'w',
            title: 'w',
            runs: [{ ...run('mock', []), rounds: shares.map((otherCpu) => round(10, { otherCpu })) }],
          },
        ],
        coldStart: { mock: { label: 'mock', runsMs: [100, 100], otherCpuShares: [0.01, null] } },
      });
    expect(contention(waits([0.01, 0.5, 0.02]))).toEqual({ rounds: 4, contended: 1 });
    const quiet = renderText(waits([0.01, 0.5, 0.02]));
    expect(quiet).toContain(
      '1 of 4 rounds and cold starts had other processes take over 10% of the server core (flagged)',
    );
    expect(quiet).not.toContain('the host was busy');
    expect(renderText(waits([0.3, 0.5, 0.02]))).toContain(
      '2 of 4 rounds and cold starts had other processes take over 10% of the server core (flagged): the host was busy',
    );
  });

  it('flags runs whose server was not saturated', () => {
    const text = renderText(
      summarize(context, {
        workloads: [{ id: 'w', title: 'w', runs: [{ ...run('mock', []), rounds: [round(10, { serverCpu: 0.5 })] }] }],
        coldStart: {},
      }),
    );
    expect(text).toContain(
      'Server CPU under 85% (bound by the load generator or a busy machine, not by the server): w / mock.',
    );
  });
});

describe('pairedFigures', () => {
  // Round 2 runs slower for every server: the paired ratio does not move, a ratio of medians would.
  const rounds = (rps: number[], cpu = 0.98) => rps.map((r) => round(r, { serverCpu: cpu }));
  const workloads: WorkloadRun[] = [
    {
      id: 'fees-list',
      title: 'fees',
      runs: [
        { ...run('mock', []), rounds: rounds([8000, 6000, 8000]) },
        { ...run('rest-token', []), rounds: rounds([16000, 12000, 16000]) },
        { ...run('apollo', []), rounds: rounds([2000, 1500, 1000]) },
      ],
    },
  ];

  it('pairs each server with (a) round by round, on CPU per request and on req/s', () => {
    const figures = pairedFigures(workloads, {});
    expect(figures[cpuVsRefKey('fees-list', 'mock')]).toMatchObject({ median: 2, min: 2, max: 2, pairs: 3 });
    expect(figures[rpsVsRefKey('fees-list', 'mock')]?.median).toBeCloseTo(0.5);
    expect(figures[cpuVsRefKey('fees-list', 'rest-token')]).toBeUndefined();
  });

  it('compares the mock with the other servers as context (CPU per request ÷ theirs)', () => {
    const figures = pairedFigures(workloads, {});
    expect(figures[mockCpuVsKey('fees-list', 'apollo')]).toMatchObject({ median: 0.25, min: 0.125, max: 0.25 });
    expect(figures[mockCpuVsKey('fees-list', 'apollo')]?.pairs).toBe(3);
    expect(figures[mockCpuVsKey('fees-list', 'rest-token')]).toBeUndefined();
  });

  it('pairs cold starts run by run with (a)', () => {
    const figures = pairedFigures([], {
      mock: { label: 'mock', runsMs: [300, 240, 300] },
      'rest-token': { label: '(a)', runsMs: [200, 160, 200] },
    });
    expect(figures[coldVsRefKey('mock')]).toMatchObject({ median: 1.5, pairs: 3 });
  });

  it('flags a round in which other processes took either server’s core, and a contended cold start', () => {
    const waiting = (run: WorkloadRun['runs'][number], i: number, share: number) => ({
      ...run,
      rounds: run.rounds.map((r, j) => (j === i ? { ...r, otherCpu: share } : r)),
    });
    const [mock, ref, apollo] = workloads[0]!.runs;
    const contended: WorkloadRun[] = [
      { ...workloads[0]!, runs: [waiting(mock!, 2, 0.4), waiting(ref!, 1, 0.05), apollo!] },
    ];
    const figures = pairedFigures(contended, {
      mock: { label: 'mock', runsMs: [300, 240, 900], otherCpuShares: [0, 0.02, 0.6] },
      'rest-token': { label: '(a)', runsMs: [200, 160, 200], otherCpuShares: [0, 0, 0] },
    });
    // Others took 40% of the core in the mock's round 3: left out of every figure it is part of; 5% is under the line.
    expect(figures[cpuVsRefKey('fees-list', 'mock')]).toMatchObject({ pairs: 2, flagged: [2] });
    expect(figures[mockCpuVsKey('fees-list', 'apollo')]).toMatchObject({ pairs: 2, flagged: [2] });
    expect(figures[coldVsRefKey('mock')]).toMatchObject({ median: 1.5, pairs: 2, flagged: [2] });
  });

  it('leaves unusable runs out', () => {
    const broken: WorkloadRun[] = [
      { ...workloads[0]!, runs: workloads[0]!.runs.map((r) => (r.server === 'mock' ? { ...r, problem: 'x' } : r)) },
    ];
    expect(pairedFigures(broken, {})[cpuVsRefKey('fees-list', 'mock')]).toBeUndefined();
  });

  it('reads CPU per request from server CPU and req/s', () => {
    expect(cpuPerRequest(round(1000, { serverCpu: 0.5 }))).toBeCloseTo(0.0005);
    expect(cpuPerRequest(round(1000, { serverCpu: null }))).toBeUndefined();
    expect(cpuPerRequest(round(0))).toBeUndefined();
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

  it('lists the CPU targets of the workloads that ran, and always cold start and memory', () => {
    expect(targetsFor(['generate-token', 'card-fee']).map((t) => t.id)).toEqual([
      'generate-token-cpu',
      'cold-start',
      'memory-bounded',
    ]);
    expect(targetsFor(['process-payment']).find((t) => t.id === 'process-payment-cpu')?.threshold).toBe(2);
  });

  it('evaluates a whole run on paired ratios to (a)', () => {
    const paired: WorkloadRun[] = [
      {
        id: 'generate-token',
        title: 'generate-token',
        runs: [
          { ...run('mock', []), rounds: [round(8000, { serverCpu: 0.9 }), round(4000, { serverCpu: 0.45 })] },
          { ...run('rest-token', []), rounds: [round(10000, { serverCpu: 1 }), round(5000, { serverCpu: 0.5 })] },
          {
            ...run('rest-token-signed', []),
            rounds: [round(9000, { serverCpu: 0.9 }), round(4500, { serverCpu: 0.45 })],
          },
        ],
      },
    ];
    const summary = summarize(context, {
      workloads: paired,
      coldStart: {
        mock: { label: 'mock', runsMs: [150, 160] },
        'rest-token': { label: '(a)', runsMs: [100, 100] },
      },
    });
    const byId = Object.fromEntries(summary.targets.map((t) => [t.id, t]));
    // Against (a′), the floor that signs the same token: 112.5 µs ÷ 100 µs, over its 1.05.
    expect(byId['generate-token-cpu']).toMatchObject({ pass: false, threshold: 1.05 });
    expect(byId['generate-token-cpu']?.value).toBeCloseTo(1.125);
    expect(byId['cold-start']).toMatchObject({ pass: false });
    expect(byId['cold-start']?.value).toBeCloseTo(1.55);
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

  const summary: BenchSummary = summarize(context, {
    workloads: [
      {
        id: 'generate-token',
        title: 'generate-token',
        runs: [
          { ...run('mock', []), rounds: [round(5000, { serverCpu: 1 }), round(2500, { serverCpu: 0.5 })] },
          { ...run('rest-token', []), rounds: [round(10000, { serverCpu: 1 }), round(5000, { serverCpu: 0.5 })] },
          { ...run('prism', []), rounds: [round(1250, { serverCpu: 1 }), round(625, { serverCpu: 0.5 })] },
          {
            ...run('rest-token-signed', []),
            rounds: [round(8000, { serverCpu: 1 }), round(4000, { serverCpu: 0.5 })],
          },
        ],
      },
    ],
    coldStart: {},
  });

  it('shows CPU per request and req/s against (a) with spread and pairs, the peers as context, and failed targets', () => {
    const text = renderText(summary);
    expect(text).toContain('Test CPU, 2 cores, Node v20.0.0');
    expect(text).toMatch(
      /generate-token\s+mock\s+200\.0\s+2\.00× \(2\.00–2\.00, 2 pairs\)\s+0\.50× \(0\.50–0\.50, 2 pairs\)/,
    );
    expect(text).toMatch(/rest-token\s+100\.0\s+1 \(reference\)/);
    expect(text).toMatch(/generate-token\s+prism\s+0\.25× \(0\.25–0\.25, 2 pairs\)\s+4\.00× \(4\.00–4\.00, 2 pairs\)/);
    expect(text).toMatch(
      /generate-token: server CPU per request ≤ 1\.05 × \(a′\)'s\s+1\.60×\s+1\.60–1\.60, 2 pairs\s+≤ 1\.05\s+0\.66×\s+FAIL/,
    );
  });

  it('adds the in-process workloads and their targets when measured', () => {
    const figure = (median: number) => ({ median, min: median * 0.9, max: median * 1.1, pairs: 6, flagged: [] });
    const text = renderText(
      summarize(context, {
        workloads: [],
        coldStart: {},
        inProcess: {
          msw: { 'fees-list': figure(0.8), 'process-payment': figure(0.4) },
          setup: { createMs: { p50: 1.5, p99: 3, count: 50 }, resetMs: { p50: 0.01, p99: 0.05, count: 500 } },
          vitestFile: figure(1.2),
          webhooks: figure(0.7),
        },
      }),
    );
    expect(text).toMatch(
      /msw handlers, fee list ≥ 0\.5 × a hand-written msw handler\s+0\.80×\s+0\.72–0\.88, 6 pairs\s+≥ 0\.5\s+1\.60×\s+pass/,
    );
    expect(text).toMatch(/msw handlers, payment ≥ 0\.5 × a hand-written msw handler\s+0\.40×.*FAIL/);
    expect(text).toMatch(/100-test vitest file with a reset per test ≤ 1\.5 × hand-written handlers\s+1\.20×.*pass/);
    expect(text).toMatch(/createMockHandlers\(\)\s+1\.50\s+3\.00\s+50/);
  });

  it('judges the proxy in front of the mock against the mock alone, and the p50 it adds', () => {
    const rounds = (rps: number[]) => rps.map((r) => round(r));
    const result = summarize(context, {
      workloads: [
        {
          id: 'fees-list',
          title: 'fees',
          runs: [
            { ...run('mock', []), rounds: rounds([10000, 8000]) },
            { ...run('proxy', []), rounds: rounds([6000, 4400]) },
            { ...run('rest-token', []), rounds: rounds([20000, 16000]) },
          ],
        },
      ],
      coldStart: {},
      proxyLatency: { median: 0.4, min: 0.2, max: 0.9, pairs: 30, flagged: [] },
    });
    const byId = Object.fromEntries(result.targets.map((t) => [t.id, t]));
    // No bare passthrough ran, so the proxy's target has nothing to be judged against.
    expect(byId['proxy-fees-list']).toMatchObject({ value: null, pass: null });
    expect(byId['proxy-p50']).toMatchObject({ value: 0.4, pass: true });
    expect(byId['proxy-process-payment']).toBeUndefined();
  });

  it("prints the proxy's own table: req/s, the pair's CPU and the proxy's own CPU per request, each ÷ the mock's", () => {
    // Mock alone: 100 µs per request (0.9 core at 9,000 req/s). Proxy round: the pair uses 0.9 core at 3,000 req/s
    // (300 µs), of which the proxy process 0.6 core (200 µs).
    const result = summarize(context, {
      workloads: [
        {
          id: 'process-payment',
          title: 'payment',
          runs: [
            { ...run('mock', []), rounds: [round(9000, { serverCpu: 0.9 }), round(9000, { serverCpu: 0.9 })] },
            {
              ...run('proxy', []),
              rounds: [round(3000, { serverCpu: 0.9, proxyCpu: 0.6 }), round(3000, { serverCpu: 0.9, proxyCpu: 0.6 })],
            },
            { ...run('rest-token', []), rounds: [round(20000), round(20000)] },
          ],
        },
      ],
      coldStart: {},
      proxyLatency: { median: 0.35, min: 0.2, max: 0.9, pairs: 30, flagged: [] },
    });
    expect(result.paired[proxyPairCpuKey('process-payment')]?.median).toBeCloseTo(3);
    expect(result.paired[proxyOwnCpuKey('process-payment')]?.median).toBeCloseTo(2);
    const text = renderText(result);
    expect(text).toContain('The validating proxy in front of the mock');
    expect(text).toMatch(
      /process-payment\s+0\.33× \(0\.33–0\.33, 2 pairs\)\s+3\.00× \(3\.00–3\.00, 2 pairs\)\s+2\.00×.*\s200\.0/,
    );
    expect(text).toContain(
      'Added p50 on a fee list (one connection, sequential, paired slices proxy − mock): 0.350 ms',
    );
    // The proxy is not listed among the mock's peers: it fronts the mock.
    expect(text).not.toMatch(/mock compared with[\s\S]*proxy \(checks on\)/);
  });

  it("sets the proxy's own CPU beside the floor's (the bare passthrough in front of the same mock) and judges it", () => {
    // Mock alone: 100 µs per request. Proxy: 200 µs of its own. Floor: 0.45 core at 4,500 req/s, 100 µs of its own.
    const result = summarize(context, {
      workloads: [
        {
          id: 'fees-list',
          title: 'fee list',
          runs: [
            { ...run('mock', []), rounds: [round(9000, { serverCpu: 0.9 }), round(9000, { serverCpu: 0.9 })] },
            {
              ...run('proxy', []),
              rounds: [round(3000, { serverCpu: 0.9, proxyCpu: 0.6 }), round(3000, { serverCpu: 0.9, proxyCpu: 0.6 })],
            },
            {
              ...run('proxy-floor', []),
              rounds: [round(4500, { serverCpu: 0.9, proxyCpu: 0.45 }), round(5000, { serverCpu: 1, proxyCpu: 0.6 })],
            },
            { ...run('rest-token', []), rounds: [round(20000), round(20000)] },
          ],
        },
      ],
      coldStart: {},
    });
    // Round 2: the floor took 120 µs, so the proxy's 200 µs is 1.67× it.
    const vsFloor = result.paired[proxyOwnCpuVsFloorKey('fees-list')];
    expect([vsFloor?.min, vsFloor?.max, vsFloor?.pairs]).toEqual([expect.closeTo(200 / 120), expect.closeTo(2), 2]);
    // The proxy's target is that ratio against 1.5: a median of 1.83 fails it.
    const target = result.targets.find((t) => t.id === 'proxy-fees-list');
    expect(target).toMatchObject({ threshold: 1.5, pass: false });
    expect(target?.value).toBeCloseTo((200 / 120 + 2) / 2);
    const floorVsMock = result.paired[floorOwnCpuKey('fees-list')];
    expect([floorVsMock?.min, floorVsMock?.max, floorVsMock?.pairs]).toEqual([
      expect.closeTo(1),
      expect.closeTo(1.2),
      2,
    ]);
    const text = renderText(result);
    expect(text).toMatch(
      /fees-list\s+0\.33×.*\s200\.0\s+1\.83× \(1\.67–2\.00, 2 pairs\)\s+1\.10× \(1\.00–1\.20, 2 pairs\)\s+110\.0/,
    );
    // Neither the proxy nor its floor is listed among the mock's peers.
    expect(text).not.toMatch(/mock compared with[\s\S]*bare passthrough/);
  });

  it('renders Markdown for the README with the machine line', () => {
    const md = renderMarkdown(summary);
    expect(md).toContain('Machine: Test CPU, 2 cores, Node v20.0.0');
    expect(md).toContain("| workload | server | CPU µs per request | CPU per request ÷ (a)'s |");
    expect(md).toContain(
      "| generate-token: server CPU per request ≤ 1.05 × (a′)'s | 1.60× | 1.60–1.60, 2 pairs | ≤ 1.05 | 0.66× | FAIL |",
    );
  });

  it('names the load the host had when the run started, when it was read', () => {
    expect(renderMarkdown(summarize({ ...context, loadAtStart: 1.23 }, { workloads: [], coldStart: {} }))).toMatch(
      /Machine: .*; load 1\.2 at start; /,
    );
    expect(renderMarkdown(summary)).not.toContain('at start');
  });
});
