import { describe, expect, it } from 'vitest';
import { renderMarkdown, renderText, summarize } from '../../bench/report.ts';
import {
  parseCommandStats,
  roundTripLines,
  roundTripsPerRequest,
  type StoreRound,
  type StoreWorkloadRun,
  sharedStoreRows,
  storeFigures,
} from '../../bench/shared-store-report.ts';

const info = (calls: Record<string, number>) =>
  `# Commandstats\r\n${Object.entries(calls)
    .map(([c, n]) => `cmdstat_${c}:calls=${n},usec=10,usec_per_call=1.00,rejected_calls=0,failed_calls=0`)
    .join('\r\n')}\r\n`;

describe('round trips per request from INFO commandstats', () => {
  it('parses calls per command', () => {
    const stats = parseCommandStats(info({ exec: 7, xadd: 12, 'client|setname': 2 }));
    expect(stats.get('exec')).toBe(7);
    expect(stats.get('xadd')).toBe(12);
    expect(stats.get('client|setname')).toBe(2);
  });

  it('counts one round trip per transaction and script, splits reads from appends, and leaves out its own INFO', () => {
    const before = parseCommandStats(info({ exec: 10, multi: 10, hmget: 4, xrange: 4, xadd: 6, info: 3 }));
    const after = parseCommandStats(
      info({
        // 100 requests: 100 catch-up reads (MULTI HMGET XRANGE EXEC), 200 appends of 3 XADDs in all, 50 claims
        // (EVALSHA running SET), 80 watcher reads, 2 XRANGEs alone, 1 INCR.
        exec: 310,
        multi: 310,
        hmget: 104,
        xrange: 106,
        xadd: 306,
        evalsha: 50,
        set: 50,
        xread: 80,
        incr: 1,
        info: 9,
      }),
    );
    const trips = roundTripsPerRequest(before, after, 100);
    expect(trips.catchUpReads).toBeCloseTo(1);
    expect(trips.appends).toBeCloseTo(2);
    expect(trips.claims).toBeCloseTo(0.5);
    expect(trips.watcherReads).toBeCloseTo(0.8);
    expect(trips.other).toBeCloseTo(0.03);
    expect(trips.total).toBeCloseTo(1 + 2 + 0.5 + 0.8 + 0.03);
    expect(trips.inside).toMatchObject({ xadd: 3, multi: 3, hmget: 1, set: 0.5, xrange: 1 });
  });

  it('reads a command new since the first reading from zero', () => {
    const trips = roundTripsPerRequest(new Map(), parseCommandStats(info({ exec: 5, hmget: 5, xrange: 5 })), 5);
    expect(trips.catchUpReads).toBe(1);
    expect(trips.appends).toBe(0);
    expect(trips.total).toBe(1);
  });
});

const round = (rps: number, requests: number, mockCpu: number, redisCpu: number): StoreRound => ({
  rps,
  requests,
  failed: 0,
  mockCpuSeconds: mockCpu,
  redisCpuSeconds: redisCpu,
});

const run: StoreWorkloadRun = {
  id: 'fees-list',
  title: 'fee list',
  rounds: {
    // Round 2 runs at half speed for everyone: the paired ratios stay the same.
    memory: [round(1000, 1000, 0.5, 0), round(500, 500, 0.5, 0)],
    'redis-1': [round(400, 400, 0.5, 0.1), round(200, 200, 0.5, 0.1)],
    'redis-2': [round(250, 250, 0.5, 0.25), round(125, 125, 0.5, 0.25)],
  },
  roundTrips: {
    'redis-1': {
      requests: 300,
      catchUpReads: 1,
      appends: 1,
      claims: 0,
      watcherReads: 1,
      other: 0,
      total: 3,
      inside: { xadd: 1 },
    },
  },
  problems: {},
};

describe('the shared-store figures and table', () => {
  it('pairs req/s and CPU per request with the memory mock of the same round', () => {
    const one = storeFigures(run, 'redis-1');
    expect(one.rps.median).toBeCloseTo(0.4);
    expect(one.rps.pairs).toBe(2);
    // memory: 0.5 ms per request in round 1, 1 ms in round 2; redis-1: 1.25 ms and 2.5 ms.
    expect(one.mockCpu.median).toBeCloseTo(2.5);
    expect(one.totalCpu.median).toBeCloseTo(3);
    expect(storeFigures(run, 'redis-2').totalCpu.median).toBeCloseTo(6);
  });

  it('renders a reference row for memory, ratio rows for Redis, the round trips, and a problem in place of figures', () => {
    const rows = sharedStoreRows({ workloads: [{ ...run, problems: { 'redis-2': 'did not start: no port' } }] });
    expect(rows).toHaveLength(3);
    expect(rows[0]).toEqual(['fees-list', 'mock, memory: (one process)', '750', '1 (reference)', '1', '1', '0', '0']);
    expect(rows[1]!.slice(3)).toEqual([
      '0.40× (0.40–0.40, 2 pairs)',
      '2.50× (2.50–2.50, 2 pairs)',
      '3.00× (3.00–3.00, 2 pairs)',
      '3.00',
      '0',
    ]);
    expect(rows[2]!.at(-1)).toBe('did not start: no port');
    expect(roundTripLines({ workloads: [run] })).toEqual([
      'fees-list, mock on redis:// (one replica): 3.00 per request over 300 requests = catch-up read 1.00 + append 1.00 + claim scripts 0.00 + watcher XREAD 1.00 + other 0.00 (inside transactions and scripts: xadd 1.00)',
    ]);
  });
});

describe('the shared-store section of the report', () => {
  const context = {
    date: '2026-01-01T00:00:00.000Z',
    cpu: 'Test CPU',
    cores: 2,
    node: 'v20.0.0',
    pinning: 'p',
    settings: 's',
  };

  it('prints the table and the round-trip lines in text and Markdown', () => {
    const summary = summarize(context, { workloads: [], coldStart: {}, sharedStore: { workloads: [run] } });
    for (const out of [renderText(summary), renderMarkdown(summary)]) {
      expect(out).toContain('A shared store (issue 23)');
      expect(out).toMatch(/fees-list.+mock on redis:\/\/ \(one replica\).+0\.40× \(0\.40–0\.40, 2 pairs\)/);
      expect(out).toContain('- fees-list, mock on redis:// (one replica): 3.00 per request over 300 requests');
    }
  });

  it('prints the reason in place of the table when it was skipped, and nothing when it was not run', () => {
    const skipped = 'shared store: skipped, redis-server is not installed (apt-get install -y redis-server).';
    const summary = summarize(context, { workloads: [], coldStart: {}, sharedStore: { skipped, workloads: [] } });
    expect(renderText(summary)).toContain(`A shared store (issue 23)`);
    expect(renderText(summary)).toContain(skipped);
    expect(renderText(summarize(context, { workloads: [], coldStart: {} }))).not.toContain('A shared store');
  });
});
