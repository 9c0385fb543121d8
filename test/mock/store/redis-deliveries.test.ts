// The delivery scripts on a real Redis (decision 0040, step 6): the same deliveries, attempts and outcomes on the
// memory history and on the port give the same pages under every cursor and filter, the same counters and evictions;
// a claim takes only what is due on the sandbox clock, two claimers never share a delivery, a lapsed claim is taken
// again and its old token's outcome refused; outcomes finish or reschedule as the caller decides; the pending cap is
// the sandbox's; a reset leaves no delivery key behind; a store that is down rejects every call. Real time is always
// passed in, so nothing here waits.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../../src/assumptions.ts';
import { collectPage } from '../../support/mock-internals/foundations.ts';
import {
  type AttemptVerdict,
  createRedisStore,
  type DeliveryCaps,
  type NewDelivery,
  StoreUnavailableError,
} from '../../support/mock-internals/store.ts';
import {
  createDeliveryStore,
  type Delivery,
  type DeliveryFilter,
  deliveryMatches,
  newDelivery,
  recordAttempt,
  retryDelayMs,
  snapshot,
  type WebhookEvent,
} from '../../support/mock-internals/webhooks.ts';
import { redisPerFile } from '../../support/redis-per-file.ts';
import { startRedisServer } from '../../support/redis-server.ts';

const { server, opened } = redisPerFile();
const roomy: DeliveryCaps = { maxDeliveries: 10_000, maxPendingDeliveries: 10_000, maxAttemptsPerDelivery: 3 };
const policy = { ...defaultAssumptions.webhook.retry, maxAttempts: 3, initialDelayMs: 1_000, maxDelayMs: 8_000 };
const URL_A = 'http://127.0.0.1:9/hooks/a';
const URL_B = 'http://127.0.0.1:9/hooks/b?x=1';
const T0 = 1_900_000_000_000;

async function openStore(prefix = `dv-${randomUUID()}:`, url = server().url) {
  const store = createRedisStore(url, { keyPrefix: prefix });
  opened.push(store);
  await store.open();
  return { prefix, deliveries: store.deliveryState!(), tokens: store.tokenState!(), clock: store.clockState!() };
}

function eventOf(uuid: string, clientId: string): WebhookEvent {
  const payload = {
    amount: 1234,
    payment_gateway_fee: 12,
    paid_at: '2030-01-01T00:00:00.000Z',
    status: 'success',
    uuid,
  };
  return { clientId, paymentUuid: uuid, payload: { ...payload, metadata: { big: '12345678901234567890' } } };
}

/** The delivery of `uuid` to `url` as the port takes it, due at `dueAt`. */
function delivery(uuid: string, clientId: string, url: string, dueAt = T0, id = `whd_${uuid}_${url.at(-1)}`) {
  const event = eventOf(uuid, clientId);
  const body = JSON.stringify(event.payload);
  const fields: NewDelivery = {
    ...{ id, clientId, paymentUuid: uuid, url, eventType: 'payment.status', payload: event.payload, body },
    ...{ headers: { 'x-client-id': clientId, 'x-delivery-id': id }, enqueuedAt: dueAt, dueAt },
  };
  return { fields, event };
}

/** What the attempts of a delivery come to in the replay: by its index, delivered, late, exhausted or gone. */
function plan(index: number, attempt: number): number {
  if (index % 4 === 0) return 200;
  if (index % 4 === 1) return attempt < 3 ? 503 : 204;
  if (index % 4 === 2) return 500;
  return 410;
}

/** The verdict memory's attempt runner reaches for `status` (delivery-attempts.ts), at virtual `now`. */
function verdictOf(status: number, attemptsInRound: number, now: number): AttemptVerdict {
  if (status >= 200 && status < 300) return { state: 'delivered', at: now };
  if (status === 410) return { state: 'gone', reason: 'receiver-gone' };
  if (attemptsInRound + 1 >= policy.maxAttempts) return { state: 'failed', reason: 'retries-exhausted' };
  return { state: 'retry-scheduled', nextAttemptAt: now + retryDelayMs(policy, attemptsInRound + 1, () => 0.5) };
}

/** An attempt started on a memory delivery, as the attempt runner starts it. */
function startInMemory(memory: ReturnType<typeof createDeliveryStore>, d: Delivery) {
  memory.setState(d, 'sending');
  d.nextAttemptAt = undefined;
}

/** The verdict applied to a memory delivery as the dispatcher's lanes and attempt runner apply it. */
function applyToMemory(memory: ReturnType<typeof createDeliveryStore>, d: Delivery, verdict: AttemptVerdict) {
  d.nextAttemptAt = undefined;
  if (verdict.state === 'retry-scheduled') {
    memory.setState(d, 'retry-scheduled');
    d.nextAttemptAt = verdict.nextAttemptAt;
    return;
  }
  d.reason = verdict.state === 'delivered' ? undefined : (verdict.reason as Delivery['reason']);
  memory.setState(d, verdict.state);
  if (verdict.state === 'delivered') d.deliveredAt = verdict.at;
}

/** The same deliveries on a memory history and on the port; `rounds` claims, each sending and recording them all. */
async function replay(caps: DeliveryCaps, rounds: number) {
  let seq = 0;
  const memory = createDeliveryStore({ maxFinished: caps.maxDeliveries, nextSeq: () => ++seq });
  const { deliveries } = await openStore();
  const index = new Map<string, number>();
  const payments = [
    ['p1', 'c1'],
    ['p2', 'c2'],
    ['p3', 'c1'],
    ['p4', 'c3'],
    ['p5', 'c1'],
    ['p6', 'c2'],
  ] as const;
  for (const [uuid, client] of payments)
    for (const url of [URL_A, URL_B]) {
      // The last payment's deliveries are due much later: they stay queued.
      const { fields, event } = delivery(uuid, client, url, uuid === 'p6' ? T0 + 10 ** 9 : T0);
      index.set(fields.id, index.size);
      const d = newDelivery({ ...fields, event, target: new URL(url), problem: undefined, now: fields.enqueuedAt });
      memory.add(d);
      expect(await deliveries.enqueue(fields, caps)).toEqual({ created: true, refused: false, seq });
    }
  let real = T0;
  for (let round = 0; round < rounds; round++) {
    const claim = await deliveries.claimDue(100, 30_000, real);
    const sent = claim.deliveries.map((c) => [c, memory.get(c.id)!] as const);
    for (const [, d] of sent) startInMemory(memory, d);
    for (const [c, d] of sent) {
      const status = plan(index.get(c.id)!, c.attempt);
      const attempt = { number: c.attempt, at: real, status, ms: 7, responseBody: `answer ${status}` };
      const verdict = verdictOf(status, c.attemptsInRound, real);
      recordAttempt(d, attempt, caps.maxAttemptsPerDelivery);
      applyToMemory(memory, d, verdict);
      expect((await deliveries.recordAttempt(c.id, claim.token, attempt, verdict, caps)).recorded).toBe(true);
    }
    real += 60_000;
  }
  // One attempt under way, claimed and not recorded: it shows as sending.
  if (rounds > 0)
    for (const c of (await deliveries.claimDue(1, 30_000, real)).deliveries) startInMemory(memory, memory.get(c.id)!);
  return { memory, deliveries, index };
}

/** Filters a page is asked with: each one alone, and a few together. */
const filters: DeliveryFilter[] = [
  {},
  ...(['pending', 'queued', 'sending', 'retry-scheduled', 'delivered', 'failed', 'gone'] as const).map((state) => ({
    state,
  })),
  { paymentUuid: 'p1' },
  { paymentUuid: 'p2', state: 'delivered' },
  { paymentUuid: 'p6', state: 'pending' },
  { paymentUuid: 'none' },
  { clientId: 'c1' },
  { clientId: 'c1', state: 'failed' },
  { clientId: 'c2', url: URL_B },
  { clientId: 'nobody' },
  { url: URL_A },
  { url: URL_B, state: 'pending' },
  { url: URL_A, paymentUuid: 'p3' },
];

/** Every page of `limits` under every cursor up to 14 and every filter, on both: the same answers. */
async function expectSamePages({ memory, deliveries }: Awaited<ReturnType<typeof replay>>) {
  const cursors: { before?: number; after?: number }[] = [{}];
  for (let seq = 0; seq <= 14; seq++) cursors.push({ before: seq }, { after: seq });
  const queries = [];
  for (const limit of [1, 3, 50])
    for (const cursor of cursors) for (const filter of filters) queries.push({ query: { limit, ...cursor }, filter });
  const got = await Promise.all(queries.map(({ query, filter }) => deliveries.page(query, filter)));
  queries.forEach(({ query, filter }, i) => {
    const expected = collectPage(memory.sources(filter), query, (d) => deliveryMatches(d, filter), snapshot);
    expect(got[i], JSON.stringify({ query, filter })).toEqual(expected);
  });
  const { version: _v, ...counts } = memory.counts();
  const { version: _w, ...stored } = await deliveries.counts();
  expect(stored).toEqual(counts);
}

describe('the delivery scripts of a Redis store: what memory answers', () => {
  it('pages as the memory history does, under every cursor, limit and filter, as attempts go on', async () => {
    const seen = new Set<string>();
    for (const rounds of [0, 1, 2, 4]) {
      const both = await replay(roomy, rounds);
      await expectSamePages(both);
      for (const [state, n] of Object.entries((await both.deliveries.counts()).byState)) if (n > 0) seen.add(state);
      for (const id of both.index.keys()) {
        const stored = await both.deliveries.delivery(id);
        const d = both.memory.get(id)!;
        expect(stored?.record).toEqual(snapshot(d));
        expect(stored).toMatchObject({ attemptCount: d.attemptCount, roundStart: d.roundStart });
      }
    }
    expect([...seen].sort()).toEqual(['delivered', 'failed', 'gone', 'queued', 'retry-scheduled', 'sending']);
  });

  it('evicts the finished longest ago past the cap and drops the oldest attempts past theirs, as memory does', async () => {
    const caps = { maxDeliveries: 3, maxPendingDeliveries: 100, maxAttemptsPerDelivery: 2 };
    const both = await replay(caps, 4);
    expect((await both.deliveries.counts()).evicted).toBeGreaterThan(0);
    await expectSamePages(both);
    let dropped = 0;
    for (const id of both.index.keys()) {
      const kept = both.memory.get(id);
      const stored = await both.deliveries.delivery(id);
      expect(stored?.record, id).toEqual(kept && snapshot(kept));
      dropped += stored?.record.attemptsDropped ?? 0;
    }
    expect(dropped).toBeGreaterThan(0);
  });
});

describe('the delivery scripts of a Redis store: enqueue, claims and outcomes', () => {
  it('enqueues once per id, keeping the exact body, the headers and the URL', async () => {
    const { deliveries } = await openStore();
    const { fields } = delivery('p1', 'c1', URL_B);
    const body = '{"amount":12345678901234567890, "note":"naïve — ✓"}';
    expect(await deliveries.enqueue({ ...fields, body }, roomy)).toEqual({ created: true, refused: false, seq: 1 });
    expect(await deliveries.enqueue({ ...fields, body: 'other' }, roomy)).toEqual({
      created: false,
      refused: false,
      seq: 1,
    });
    const stored = await deliveries.delivery(fields.id);
    expect(stored?.record).toMatchObject({ body, url: URL_B, state: 'queued', seq: 1, attempts: [] });
    expect(stored?.headers).toEqual(fields.headers);
    expect(await deliveries.delivery('whd_unknown')).toBeUndefined();
    expect(await deliveries.counts()).toMatchObject({ kept: 1, pending: 1, byState: { queued: 1 } });
  });

  it('claims only what is due on the virtual clock, which moves with the sandbox clock', async () => {
    const { deliveries, clock } = await openStore();
    await deliveries.enqueue(delivery('a', 'c1', URL_A, 1_000).fields, roomy);
    await deliveries.enqueue(delivery('b', 'c1', URL_A, 5_000).fields, roomy);
    await deliveries.enqueue(delivery('c', 'c1', URL_A, 5_001).fields, roomy);
    const first = await deliveries.claimDue(10, 60_000, 2_000);
    expect(first.deliveries.map((d) => d.id)).toEqual(['whd_a_a']);
    expect(first.deliveries[0]).toMatchObject({ attempt: 1, attemptsInRound: 0, url: URL_A, clientId: 'c1' });
    expect(first.nextDueAt).toBe(5_000);
    expect(await deliveries.claimDue(10, 60_000, 2_000)).toMatchObject({ deliveries: [], nextDueAt: 5_000 });
    await clock.advance(3_000);
    const second = await deliveries.claimDue(1, 60_000, 2_000);
    expect(second.deliveries.map((d) => d.id)).toEqual(['whd_b_a']);
    expect(second.nextDueAt).toBe(5_001);
    expect((await deliveries.delivery('whd_b_a'))?.record.state).toBe('sending');
    expect((await deliveries.claimDue(0, 60_000, 10_000)).deliveries).toEqual([]);
  });

  it('never hands one delivery to two claimers at once', async () => {
    const a = await openStore();
    const b = await openStore(a.prefix);
    for (let i = 0; i < 40; i++) await a.deliveries.enqueue(delivery(`p${i}`, 'c1', URL_A, 0).fields, roomy);
    const byA: string[] = [];
    const byB: string[] = [];
    for (;;) {
      const [x, y] = await Promise.all([a.deliveries.claimDue(3, 60_000, 1), b.deliveries.claimDue(3, 60_000, 1)]);
      byA.push(...x.deliveries.map((d) => d.id));
      byB.push(...y.deliveries.map((d) => d.id));
      if (x.deliveries.length + y.deliveries.length === 0) break;
    }
    expect(byA.filter((id) => byB.includes(id))).toEqual([]);
    expect(new Set([...byA, ...byB]).size).toBe(40);
    expect(byA.length + byB.length).toBe(40);
  });

  it('takes a lapsed claim again at its deadline, and refuses the old token its outcome', async () => {
    const { deliveries } = await openStore();
    await deliveries.enqueue(delivery('x', 'c1', URL_A, 0).fields, roomy);
    const first = await deliveries.claimDue(10, 500, 1_000);
    expect(first.deliveries.map((d) => d.id)).toEqual(['whd_x_a']);
    expect((await deliveries.claimDue(10, 500, 1_499)).deliveries).toEqual([]);
    const second = await deliveries.claimDue(10, 500, 1_500);
    expect(second.deliveries).toMatchObject([{ id: 'whd_x_a', attempt: 1 }]);
    const attempt = { number: 1, at: 1_000, status: 200, ms: 3 };
    const late = await deliveries.recordAttempt('whd_x_a', first.token, attempt, { state: 'delivered', at: 1 }, roomy);
    expect(late.recorded).toBe(false);
    expect(late.delivery?.record).toMatchObject({ state: 'sending', attempts: [] });
    const done = await deliveries.recordAttempt('whd_x_a', second.token, attempt, { state: 'delivered', at: 2 }, roomy);
    expect(done.recorded).toBe(true);
    expect(done.delivery?.record).toMatchObject({ state: 'delivered', deliveredAt: 2, attempts: [attempt] });
    const again = await deliveries.recordAttempt(
      'whd_x_a',
      second.token,
      attempt,
      { state: 'delivered', at: 3 },
      roomy,
    );
    expect(again).toMatchObject({ recorded: false, delivery: { record: { deliveredAt: 2 } } });
    expect(await deliveries.claimDue(10, 500, 10 ** 9)).toMatchObject({ deliveries: [], nextDueAt: undefined });
    const unknown = await deliveries.recordAttempt(
      'whd_none',
      second.token,
      attempt,
      { state: 'gone', reason: 'receiver-gone' },
      roomy,
    );
    expect(unknown).toEqual({ recorded: false, delivery: undefined });
  });

  it('reschedules a failed attempt at the time given, fails it after the last, and redelivers it under its id', async () => {
    const { deliveries } = await openStore();
    await deliveries.enqueue(delivery('r', 'c1', URL_A, 0).fields, roomy);
    let real = 100;
    for (let n = 1; n <= 3; n++) {
      const claim = await deliveries.claimDue(10, 60_000, real);
      expect(claim.deliveries).toMatchObject([{ id: 'whd_r_a', attempt: n, attemptsInRound: n - 1 }]);
      const verdict = verdictOf(503, n - 1, real);
      const { delivery: after } = await deliveries.recordAttempt(
        'whd_r_a',
        claim.token,
        { number: n, at: real, status: 503, ms: 1 },
        verdict,
        roomy,
      );
      if (verdict.state === 'retry-scheduled') {
        expect(after?.record).toMatchObject({ state: 'retry-scheduled', nextAttemptAt: verdict.nextAttemptAt });
        expect(await deliveries.claimDue(10, 60_000, verdict.nextAttemptAt - 1)).toMatchObject({
          deliveries: [],
          nextDueAt: verdict.nextAttemptAt,
        });
        real = verdict.nextAttemptAt;
      } else expect(after?.record).toMatchObject({ state: 'failed', reason: 'retries-exhausted' });
    }
    expect(await deliveries.claimDue(10, 60_000, 10 ** 12)).toMatchObject({ deliveries: [], nextDueAt: undefined });
    expect(await deliveries.redeliver('whd_none', 0, roomy)).toBe('unknown');
    expect(await deliveries.redeliver('whd_r_a', real + 5, roomy)).toBe('ok');
    expect(await deliveries.redeliver('whd_r_a', real + 5, roomy)).toBe('in-progress');
    const { record } = (await deliveries.delivery('whd_r_a'))!;
    expect(record).toMatchObject({ state: 'queued', redeliveries: 1 });
    expect(record.reason).toBeUndefined();
    const claim = await deliveries.claimDue(10, 60_000, real + 5);
    expect(claim.deliveries).toMatchObject([{ id: 'whd_r_a', attempt: 4, attemptsInRound: 0 }]);
    expect(await deliveries.counts()).toMatchObject({ kept: 1, pending: 1, byState: { sending: 1, failed: 0 } });
  });

  it('applies the pending cap to the whole sandbox, and keeps an unsendable delivery failed', async () => {
    const a = await openStore();
    const b = await openStore(a.prefix);
    const caps = { ...roomy, maxPendingDeliveries: 2 };
    expect(await a.deliveries.enqueue(delivery('p1', 'c1', URL_A).fields, caps)).toMatchObject({ refused: false });
    expect(await b.deliveries.enqueue(delivery('p2', 'c2', URL_A).fields, caps)).toMatchObject({ refused: false });
    expect(await a.deliveries.enqueue(delivery('p3', 'c1', URL_A).fields, caps)).toEqual({
      created: true,
      refused: true,
      seq: 3,
    });
    expect((await b.deliveries.delivery('whd_p3_a'))?.record).toMatchObject({ state: 'failed', reason: 'pending-cap' });
    expect(await b.deliveries.redeliver('whd_p3_a', 0, caps)).toBe('at-cap');
    const bad = {
      ...delivery('p4', 'c1', URL_A).fields,
      body: '',
      failed: { reason: 'payload-error' as const, error: 'a b' },
    };
    expect(await a.deliveries.enqueue(bad, caps)).toMatchObject({ created: true, refused: false });
    expect((await a.deliveries.delivery('whd_p4_a'))?.record).toMatchObject({ state: 'failed', error: 'a b' });
    expect(await a.deliveries.redeliver('whd_p4_a', 0, roomy)).toBe('unsendable');
    expect(await a.deliveries.redeliver('whd_p3_a', 0, roomy)).toBe('ok');
    expect(await b.deliveries.counts()).toMatchObject({ kept: 4, pending: 3, refused: 1, byState: { failed: 1 } });
  });
});

describe('the delivery scripts of a Redis store: reset and outage', () => {
  it('a reset empties the deliveries and leaves no delivery key of the old epoch', async () => {
    const { deliveries, tokens, prefix } = await openStore();
    for (const [uuid, client, url] of [
      ['k1', 'c1', URL_A],
      ['k2', 'c2', URL_B],
      ['k3', 'c1', URL_B],
    ] as const)
      await deliveries.enqueue(delivery(uuid, client, url, 0).fields, roomy);
    const claim = await deliveries.claimDue(2, 60_000, 10);
    const attempt = { number: 1, at: 10, status: 500, ms: 1 };
    const verdict = { state: 'retry-scheduled', nextAttemptAt: 99 } as const;
    await deliveries.recordAttempt(claim.deliveries[0]!.id, claim.token, attempt, verdict, roomy);
    const { version } = await deliveries.counts();
    expect(await tokens.reset()).toBe(1);
    const counts = await deliveries.counts();
    expect(counts).toMatchObject({ kept: 0, pending: 0, evicted: 0, refused: 0 });
    expect(counts.version).toBeGreaterThan(version);
    expect(await deliveries.page({ limit: 50 }, {})).toEqual({ items: [], order: 'newest-first', next: null });
    expect(await deliveries.delivery('whd_k1_a')).toBeUndefined();
    expect(await deliveries.claimDue(10, 60_000, 10 ** 9)).toMatchObject({ deliveries: [], nextDueAt: undefined });
    const raw = new Redis(server().url);
    try {
      expect((await raw.keys(`${prefix}*`)).sort()).toEqual([`${prefix}epoch`, `${prefix}pay:version`]);
    } finally {
      raw.disconnect();
    }
    expect(await deliveries.enqueue(delivery('k1', 'c1', URL_A).fields, roomy)).toMatchObject({ seq: 1 });
  });

  it('rejects every call with StoreUnavailableError while Redis is down', async () => {
    const own = await startRedisServer();
    try {
      const { deliveries } = await openStore(undefined, own.url);
      await deliveries.enqueue(delivery('d', 'c1', URL_A).fields, roomy);
      await own.stop();
      const calls = [
        deliveries.enqueue(delivery('e', 'c1', URL_A).fields, roomy),
        deliveries.delivery('whd_d_a'),
        deliveries.page({ limit: 5 }, {}),
        deliveries.counts(),
        deliveries.claimDue(5, 1_000, 0),
        deliveries.recordAttempt('whd_d_a', 't', { number: 1, at: 0, ms: 0 }, { state: 'delivered', at: 0 }, roomy),
        deliveries.redeliver('whd_d_a', 0, roomy),
      ];
      for (const call of calls) await expect(call).rejects.toBeInstanceOf(StoreUnavailableError);
    } finally {
      await own.close();
    }
  });
});
