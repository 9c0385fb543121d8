// The journal scripts on a real Redis (decision 0040, step 7): the same requests journaled in memory and through the
// port give the same entries, pages under every cursor, limit and filter, and counts, with the capacity evicting
// the oldest alike; two stores on one prefix share one sequence; a reset leaves no journal key behind.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createJournal } from '../../../support/mock-internals/domain.ts';
import { createRedisStore } from '../../../support/mock-internals/store.ts';
import { redisPerFile } from '../../../support/redis-per-file.ts';

const { server, opened } = redisPerFile();

async function openStore(prefix = `js-${randomUUID()}:`) {
  const store = createRedisStore(server().url, { keyPrefix: prefix });
  opened.push(store);
  await store.open();
  return { prefix, journal: store.journalState!(), tokens: store.tokenState!() };
}

type Entry = Parameters<ReturnType<typeof createJournal>['record']>[0];

/** The `n`th request of a varied history: every field a filter reads takes several values, gaps included. */
function request(n: number): Entry {
  const graphql = n % 3 !== 0;
  return {
    method: n % 7 === 0 ? 'GET' : 'POST',
    path: graphql ? '/graphql' : '/api/v2/accounting/token/generate-token',
    status: n % 5 === 0 ? 401 : 200,
    at: 1_800_000_000_000 + n * 1_000,
    durationMs: n * 0.37,
    operationName: graphql ? (n % 2 === 0 ? 'processPaymentRequest' : 'paymentGatewayFeesCalc') : undefined,
    guide: graphql ? (n % 4 === 0 ? 'legacy' : 'current') : undefined,
    clientId: n % 6 === 0 ? undefined : n % 2 === 0 ? 'c1' : 'c2',
    summary: graphql ? { input: { amount: n, credit_card: { card_number: '411111******1111' } } } : undefined,
    outcome: n % 5 === 0 ? 'TOKEN_EXPIRED' : 'ok',
  };
}

async function journaled(count: number, capacity: number) {
  const memory = createJournal(capacity);
  const { journal, tokens, prefix } = await openStore();
  for (let n = 1; n <= count; n++) {
    memory.record(request(n));
    expect(await journal.append(request(n), capacity)).toBe(n);
  }
  return { memory, journal, tokens, prefix };
}

const filters = [
  {},
  { method: 'GET' },
  { path: '/graphql' },
  { status: 401 },
  { operationName: 'processPaymentRequest' },
  { clientId: 'c1' },
  { clientId: 'nobody' },
  { path: '/graphql', status: 200, clientId: 'c2', operationName: 'paymentGatewayFeesCalc', method: 'POST' },
];

describe('the journal scripts of a Redis store: what memory answers', () => {
  it('keeps the entries, counts and pages of the memory journal under every cursor, limit and filter', async () => {
    const { memory, journal } = await journaled(40, 25);
    expect(await journal.counts()).toEqual({ kept: memory.size(), cursor: memory.cursor() });
    expect(await journal.counts()).toEqual({ kept: 25, cursor: 40 });
    for (const since of [0, 10, 15, 16, 39, 40, 41])
      expect(await journal.entries(since)).toEqual(memory.entries(since));
    const cursors: { before?: number; after?: number }[] = [{}];
    for (let seq = 0; seq <= 42; seq++) cursors.push({ before: seq }, { after: seq });
    const queries = [];
    for (const limit of [1, 3, 500])
      for (const cursor of cursors) for (const filter of filters) queries.push({ query: { limit, ...cursor }, filter });
    const got = await Promise.all(queries.map(({ query, filter }) => journal.page(query, filter)));
    queries.forEach(({ query, filter }, i) => {
      expect(got[i], JSON.stringify({ query, filter })).toEqual(memory.page(query, filter));
    });
  });

  it('pages past more entries a filter skips than one batch of the walk holds', async () => {
    const { memory, journal } = await journaled(700, 1_000);
    for (const query of [{ limit: 2 }, { limit: 2, after: 0 }, { limit: 5, before: 650 }])
      expect(await journal.page(query, { method: 'GET' })).toEqual(memory.page(query, { method: 'GET' }));
  });

  it('numbers the entries of two stores on one prefix in one sequence', async () => {
    const a = await openStore();
    const b = await openStore(a.prefix);
    const seqs = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => (n % 2 ? a : b).journal.append(request(n), 10)));
    expect([...seqs].sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6]);
    expect((await b.journal.entries(0)).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('a reset empties the journal, leaves no journal key of the old epoch, and numbers from 1 again', async () => {
    const { journal, tokens, prefix } = await journaled(5, 10);
    expect(await tokens.reset()).toBe(1);
    expect(await journal.counts()).toEqual({ kept: 0, cursor: 0 });
    expect(await journal.page({ limit: 20 }, {})).toEqual({ items: [], order: 'newest-first', next: null });
    const raw = new Redis(server().url);
    try {
      expect((await raw.keys(`${prefix}*`)).sort()).toEqual([`${prefix}epoch`, `${prefix}pay:version`]);
    } finally {
      raw.disconnect();
    }
    expect(await journal.append(request(1), 10)).toBe(1);
  });
});
