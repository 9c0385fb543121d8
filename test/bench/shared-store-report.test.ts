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

  it('counts one round trip per script, transaction and lone command; what scripts run inside is not one', () => {
    const before = parseCommandStats(info({ evalsha: 20, hget: 40, exec: 10, multi: 10, xadd: 10, info: 3 }));
    const after = parseCommandStats(
      info({
        // 100 requests: 150 scripts calling HGET, ZADD and HINCRBY, 20 transactions of 3 XADDs, 80 watcher reads,
        // 1 INCR and 2 PINGs sent alone.
        evalsha: 170,
        hget: 340,
        zadd: 150,
        hincrby: 150,
        exec: 30,
        multi: 30,
        xadd: 70,
        xread: 80,
        incr: 1,
        ping: 2,
        info: 9,
      }),
    );
    const trips = roundTripsPerRequest(before, after, 100);
    expect(trips.scripts).toBeCloseTo(1.5);
    expect(trips.transactions).toBeCloseTo(0.2);
    expect(trips.watcherReads).toBeCloseTo(0.8);
    expect(trips.other).toBeCloseTo(0.03);
    expect(trips.total).toBeCloseTo(1.5 + 0.2 + 0.8 + 0.03);
    expect(trips.inside).toEqual({ hget: 3, zadd: 1.5, hincrby: 1.5, multi: 0.2, xadd: 0.6 });
  });

  it('reads a command new since the first reading from zero', () => {
    const trips = roundTripsPerRequest(new Map(), parseCommandStats(info({ evalsha: 5, hmget: 5, xrange: 5 })), 5);
    expect(trips.scripts).toBe(1);
    expect(trips.transactions).toBe(0);
    expect(trips.total).toBe(1);
    expect(trips.inside).toEqual({ hmget: 1, xrange: 1 });
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
      scripts: 1,
      transactions: 1,
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
      'fees-list, mock on redis:// (one replica): 3.00 per request over 300 requests = scripts 1.00 + transactions 1.00 + watcher XREAD 1.00 + other 0.00 (run inside scripts and transactions: xadd 1.00)',
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
      expect(out).toContain('A shared store');
      expect(out).toMatch(/fees-list.+mock on redis:\/\/ \(one replica\).+0\.40× \(0\.40–0\.40, 2 pairs\)/);
      expect(out).toContain('- fees-list, mock on redis:// (one replica): 3.00 per request over 300 requests');
    }
  });

  it('prints the reason in place of the table when it was skipped, and nothing when it was not run', () => {
    const skipped = 'shared store: skipped, redis-server is not installed (apt-get install -y redis-server).';
    const summary = summarize(context, { workloads: [], coldStart: {}, sharedStore: { skipped, workloads: [] } });
    expect(renderText(summary)).toContain(`A shared store`);
    expect(renderText(summary)).toContain(skipped);
    expect(renderText(summarize(context, { workloads: [], coldStart: {} }))).not.toContain('A shared store');
  });
});
