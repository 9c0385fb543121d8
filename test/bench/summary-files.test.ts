import { describe, expect, it } from 'vitest';
import { type Measurements, type RoundResult, renderMarkdown, type ServerRun, summarize } from '../../bench/report.ts';
import { type SummaryFlags, withoutBaseline, writesSummary } from '../../bench/summary-files.ts';

const round = (rps: number, serverCpu: number): RoundResult => ({
  rps,
  p50: 1,
  p99: 3,
  requests: rps,
  non2xx: 0,
  errors: 0,
  failures: 0,
  serverCpu,
  otherCpu: 0,
});

const run = (server: string, label: string, rps: readonly number[], cpu = 0.95): ServerRun => ({
  server,
  label,
  rounds: rps.map((r) => round(r, cpu)),
  peakRssKb: 81_920,
});

const context = {
  date: '2026-01-01T00:00:00.000Z',
  cpu: 'Test CPU',
  cores: 2,
  node: 'v20.0.0',
  pinning: 'pinned',
  settings: '3 × 1 s rounds',
};

const cold = (label: string, runsMs: readonly number[]) => ({ label, runsMs, otherCpuShares: runsMs.map(() => 0) });

/** A run without --baseline: the mock, a peer and (a) in two workloads, and their cold starts. */
const plain: Measurements = {
  workloads: [
    {
      id: 'generate-token',
      title: 'generate-token',
      runs: [
        run('mock', 'mock (payment-contract-kit)', [40_000, 41_000, 39_000]),
        run('rest-token-signed', '(a′) floor', [34_000, 35_000, 33_000]),
        run('rest-token', '(a) node:http', [60_000, 59_000, 61_000]),
      ],
    },
    {
      id: 'fees-list',
      title: 'fees-list',
      runs: [
        run('mock', 'mock (payment-contract-kit)', [43_000, 44_000, 42_000]),
        run('yoga', '(d) graphql-yoga', [3_500, 3_600, 3_400]),
        run('rest-token', '(a) node:http', [53_000, 54_000, 52_000]),
      ],
    },
  ],
  coldStart: {
    mock: cold('mock (payment-contract-kit)', [300, 310, 290]),
    'rest-token': cold('(a) node:http', [200, 205, 195]),
  },
};

/** The same run with the baseline build beside the mock in every workload and in the cold starts. */
const withBaseline: Measurements = {
  workloads: plain.workloads.map((w) => ({
    ...w,
    runs: [
      w.runs[0]!,
      run('baseline', 'mock, baseline build (--baseline)', [30_000, 31_000, 29_000]),
      ...w.runs.slice(1),
    ],
  })),
  coldStart: {
    mock: plain.coldStart.mock!,
    baseline: cold('mock, baseline build (--baseline)', [320, 330, 310]),
    'rest-token': plain.coldStart['rest-token']!,
  },
};

describe('writesSummary', () => {
  it.each<[string, { given: SummaryFlags; want: boolean }]>([
    ['a full run', { given: {}, want: true }],
    ['a full run beside a baseline build', { given: { baseline: '../kit-before' }, want: true }],
    ['more rounds than a full run', { given: { rounds: '20', seconds: '2' }, want: true }],
    ['--quick', { given: { quick: true }, want: false }],
    ['--quick beside a baseline build', { given: { quick: true, baseline: '../kit-before' }, want: false }],
    ['--only', { given: { only: 'fees-list' }, want: false }],
    ['--servers', { given: { servers: 'mock' }, want: false }],
    ['--servers beside a baseline build', { given: { servers: 'mock', baseline: '../kit-before' }, want: false }],
    ['--rounds below a full run', { given: { rounds: '3' }, want: false }],
    ['--seconds below a full run', { given: { seconds: '0.5' }, want: false }],
    ['--payments below a full run', { given: { payments: '20000' }, want: false }],
    ["--connections at the full run's 8", { given: { connections: '8' }, want: true }],
    ['--connections other than 8', { given: { connections: '32' }, want: false }],
    ['--profile', { given: { profile: true }, want: false }],
    ['--no-cold-start', { given: { 'no-cold-start': true }, want: false }],
    ['--no-memory', { given: { 'no-memory': true }, want: false }],
    ['--no-latency-curve', { given: { 'no-latency-curve': true }, want: false }],
    ['--no-in-process', { given: { 'no-in-process': true }, want: false }],
    ['--no-proxy-latency', { given: { 'no-proxy-latency': true }, want: false }],
    ['--no-shared-store', { given: { 'no-shared-store': true }, want: false }],
  ])('%s', (_name, { given, want }) => {
    expect(writesSummary(given, true)).toBe(want);
  });

  it('is false when the mock is not there to measure', () => {
    expect(writesSummary({}, false)).toBe(false);
  });
});

describe('withoutBaseline', () => {
  it('leaves a summary whose tables and targets are those of the same run without --baseline', () => {
    const beside = summarize(context, withBaseline);
    expect(renderMarkdown(beside)).toContain('mock, baseline build (--baseline)');

    const committed = summarize(context, withoutBaseline(withBaseline));
    const alone = summarize(context, plain);
    expect(renderMarkdown(committed)).toBe(renderMarkdown(alone));
    expect(committed.targets).toEqual(alone.targets);
    expect(committed.paired).toEqual(alone.paired);
    expect(JSON.stringify(committed)).not.toContain('baseline');
  });

  it('changes nothing in a run without a baseline', () => {
    expect(JSON.stringify(summarize(context, withoutBaseline(plain)))).toBe(JSON.stringify(summarize(context, plain)));
  });
});
