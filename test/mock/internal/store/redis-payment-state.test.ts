// The payment scripts on a real Redis (decision 0040, steps 4 and 5): the same history built on the memory state and
// on the port gives the same pages under every cursor and filter, the same evictions and counters; a card account is
// written once when two replicas accept the same uid at once; a claim holds its payments until its deadline, a stale
// claim's settle is refused, the control API settles without one; a reset leaves no payment (nor delivery) key behind.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../../../src/assumptions.ts';
import {
  type CardAccount,
  createMockState,
  type StoredPayment,
  testCards,
} from '../../../support/mock-internals/domain.ts';
import { nodeCrypto } from '../../../support/mock-internals/platform.ts';
import {
  type AcceptedPayment,
  createRedisStore,
  type NewDelivery,
  type PaymentCaps,
} from '../../../support/mock-internals/store.ts';
import { redisPerFile } from '../../../support/redis-per-file.ts';
import { storedPayment } from '../stored-payment.ts';

const { server, opened } = redisPerFile();
const { statusNames } = defaultAssumptions;
const roomy: PaymentCaps = { paymentsPerClient: 10_000, cardAccountsPerClient: 10_000 };

async function openStore(prefix = `ps-${randomUUID()}:`) {
  const store = createRedisStore(server().url, { keyPrefix: prefix });
  opened.push(store);
  await store.open();
  const deliveries = store.deliveryState!();
  return {
    prefix,
    payments: store.paymentState!(),
    deliveries,
    tokens: store.tokenState!(),
    clock: store.clockState!(),
  };
}

const payment = (uuid: string, clientId = 'c1', overrides: Partial<StoredPayment> = {}): StoredPayment =>
  storedPayment(uuid, { clientId, card_account_uid: `uid-${clientId}`, ...overrides }, Date.parse('2030-01-01'));

const account = (clientId: string, uid = `uid-${clientId}`): CardAccount => ({
  card_account_uid: uid,
  clientId,
  card_type: 'visa',
  masked_card_number: '411111******1111',
  expiry_month: '12',
  expiry_year: '39',
  outcome: 'success',
});

/** A payment status webhook's payload for `uuid` (what the store keeps beside the exact body). */
const webhookPayload = (uuid: string) => ({
  amount: 10,
  payment_gateway_fee: 0.45,
  paid_at: '2030-01-01T00:00:00.000Z',
  status: statusNames.success,
  uuid,
});

const settlement = (outcome: 'success' | 'failure', at: number) => ({ outcome, status: statusNames[outcome], at });

/** A history step: a payment of a client accepted, or a payment settled (an unknown or settled one changes nothing). */
type Step = readonly ['pay', string, string] | readonly ['settle', string, 'success' | 'failure'];

/** The same steps on a fresh memory state and a fresh port, at the same virtual times. */
async function replay(steps: readonly Step[], caps: PaymentCaps) {
  let at = 5_000;
  const memory = createMockState({
    assumptions: defaultAssumptions,
    seed: 'seed',
    sha256Hex: nodeCrypto.sha256Hex,
    now: () => at,
    maxPaymentsPerClient: caps.paymentsPerClient,
    maxCardAccountsPerClient: caps.cardAccountsPerClient,
  });
  const { payments } = await openStore();
  for (const step of steps) {
    at += 10;
    if (step[0] === 'pay') {
      const p = payment(step[1], step[2], { metadata: { n: step[1] }, vendor_device_id: undefined });
      memory.addPayment({ ...p });
      await payments.accept({ ...p }, account(step[2]), undefined, caps);
    } else {
      memory.settlePayment(undefined, step[1], step[2]);
      await payments.settle(step[1], settlement(step[2], at), undefined);
    }
  }
  return { memory, payments };
}

/** Every page of `limits` under every cursor up to `highest` + 2 and every filter, on both: the same answers. */
async function expectSamePages(
  { memory, payments }: Awaited<ReturnType<typeof replay>>,
  filters: { clientId: (string | undefined)[]; uuid: (string | undefined)[] },
  highest: number,
  limits: readonly number[],
) {
  const cursors: { before?: number; after?: number }[] = [{}];
  for (let seq = 0; seq <= highest + 2; seq++) cursors.push({ before: seq }, { after: seq });
  const queries = [];
  for (const limit of limits)
    for (const cursor of cursors)
      for (const clientId of filters.clientId)
        for (const status of [undefined, 'processing', 'success', 'failure'])
          for (const uuid of filters.uuid)
            queries.push({ query: { limit, ...cursor }, filter: { clientId, status, uuid } });
  const got = await Promise.all(queries.map(({ query, filter }) => payments.page(query, filter)));
  queries.forEach(({ query, filter }, i) => {
    expect(got[i], JSON.stringify({ query, filter })).toEqual(memory.paymentPage(query, filter));
  });
}

const history: Step[] = [
  ['pay', 'p1', 'c1'],
  ['pay', 'p2', 'c2'],
  ['pay', 'p3', 'c1'],
  ['settle', 'p2', 'success'],
  ['pay', 'p4', 'c3'],
  ['pay', 'p5', 'c1'],
  ['settle', 'p1', 'failure'],
  ['pay', 'p6', 'c2'],
  ['settle', 'p1', 'success'],
  ['settle', 'nope', 'success'],
  ['pay', 'p7', 'c1'],
  ['settle', 'p6', 'success'],
  ['pay', 'p8', 'c3'],
];

describe('the payment scripts of a Redis store: what memory answers', () => {
  it('pages as the memory state does, under every cursor, limit and filter', async () => {
    const both = await replay(history, roomy);
    const filters = { clientId: [undefined, 'c1', 'c2', 'nobody'], uuid: [undefined, 'p1', 'p3', 'none'] };
    await expectSamePages(both, filters, 8, [1, 3, 50]);
  });

  it('evicts per client as memory does: the oldest settled first, else the oldest; counters and version alike', async () => {
    const steps: Step[] = [
      ['pay', 'a1', 'c1'],
      ['pay', 'a2', 'c1'],
      ['pay', 'b1', 'c2'],
      ['settle', 'a2', 'success'],
      ['pay', 'a3', 'c1'],
      ['pay', 'a4', 'c1'],
      ['settle', 'a3', 'failure'],
      ['settle', 'a1', 'success'],
      ['pay', 'a5', 'c1'],
      ['pay', 'a6', 'c1'],
      ['pay', 'a7', 'c1'],
      ['pay', 'b2', 'c2'],
    ];
    const both = await replay(steps, { paymentsPerClient: 3, cardAccountsPerClient: 10 });
    const { capPerClient: _cap, ...counts } = both.memory.paymentCounts();
    expect(counts.evicted).toBe(4);
    expect(await both.payments.counts()).toEqual(counts);
    for (const uuid of ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'b1', 'b2'])
      expect(await both.payments.payment(undefined, uuid), uuid).toEqual(both.memory.payment(undefined, uuid));
    await expectSamePages(both, { clientId: [undefined, 'c1'], uuid: [undefined, 'a4'] }, 12, [1, 2, 50]);
  });

  it('keeps card accounts per client as memory does: the oldest goes first, a known one is not written again', async () => {
    const memory = createMockState({
      assumptions: defaultAssumptions,
      seed: 'seed',
      sha256Hex: nodeCrypto.sha256Hex,
      maxCardAccountsPerClient: 2,
    });
    const { payments } = await openStore();
    const caps = { paymentsPerClient: 10, cardAccountsPerClient: 2 };
    const cards = ['37', '38', '39'].map((year) =>
      memory.upsertCardAccount('c1', {
        card_number: testCards.visaSuccess.number,
        expiry_month: '12',
        expiry_year: year,
      }),
    );
    for (const card of cards) expect(await payments.registerCard(card, caps)).toEqual({ created: true });
    expect(await payments.registerCard(cards[2]!, caps)).toEqual({ created: false });
    for (const card of cards) {
      const uid = card.card_account_uid;
      expect(await payments.cardAccount('c1', uid)).toEqual(memory.cardAccount('c1', uid));
      expect(await payments.cardAccount('c2', uid)).toBeUndefined();
    }
    expect(JSON.stringify(await payments.cardAccount('c1', cards[2]!.card_account_uid))).not.toContain(
      testCards.visaSuccess.number,
    );
  });

  it('reads a payment by uuid for its own client or any, and answers the sequence and whether the account is new', async () => {
    const { payments } = await openStore();
    expect(await payments.accept(payment('x'), account('c1'), undefined, roomy)).toEqual({
      seq: 1,
      accountCreated: true,
      evicted: 0,
    });
    expect(await payments.accept(payment('y'), account('c1'), undefined, roomy)).toMatchObject({
      seq: 2,
      accountCreated: false,
    });
    expect(await payments.accept(payment('x'), account('c1'), undefined, roomy)).toMatchObject({ seq: 1 });
    expect(await payments.payment('c1', 'x')).toEqual(payment('x'));
    expect(await payments.payment(undefined, 'x')).toEqual(payment('x'));
    expect(await payments.payment('c2', 'x')).toBeUndefined();
    expect(await payments.counts()).toEqual({ kept: 2, processing: 2, evicted: 0, version: 2 });
  });

  it('accepts a payment that named its card account only while the account is kept', async () => {
    const { payments } = await openStore();
    const oneCard: PaymentCaps = { paymentsPerClient: 10, cardAccountsPerClient: 1 };
    await payments.registerCard(account('c1', 'named'), oneCard);
    const named = payment('p1', 'c1', { card_account_uid: 'named' });
    expect(await payments.accept(named, account('c1', 'named'), undefined, oneCard, true)).toMatchObject({ seq: 1 });
    // Another replica's card evicts it (the cap is 1): a payment naming it now is refused, and nothing is written.
    await payments.registerCard(account('c1', 'other'), oneCard);
    const late = payment('p2', 'c1', { card_account_uid: 'named' });
    expect(await payments.accept(late, account('c1', 'named'), undefined, oneCard, true)).toBeUndefined();
    expect(await payments.cardAccount('c1', 'named')).toBeUndefined();
    expect(await payments.payment(undefined, 'p2')).toBeUndefined();
    expect(await payments.counts()).toMatchObject({ kept: 1 });
    // By card details (not named), the account is derived again and written, as memory's upsert does.
    expect(await payments.accept(late, account('c1', 'named'), undefined, oneCard)).toMatchObject({
      seq: 2,
      accountCreated: true,
    });
  });
});

describe('the payment scripts of a Redis store: replicas and claims', () => {
  it('writes a card account once when two replicas accept payments with the same uid at the same time', async () => {
    const a = await openStore();
    const b = await openStore(a.prefix);
    for (let i = 0; i < 20; i++) {
      const uid = `shared-${i}`;
      const [x, y] = (await Promise.all([
        a.payments.accept(payment(`a${i}`), { ...account('c1', uid), masked_card_number: 'from a' }, undefined, roomy),
        b.payments.accept(payment(`b${i}`), { ...account('c1', uid), masked_card_number: 'from b' }, undefined, roomy),
      ])) as [AcceptedPayment, AcceptedPayment];
      expect([x.accountCreated, y.accountCreated].filter(Boolean)).toHaveLength(1);
      expect((await b.payments.cardAccount('c1', uid))?.masked_card_number).toBe(
        x.accountCreated ? 'from a' : 'from b',
      );
      expect(Math.abs(x.seq - y.seq)).toBe(1);
    }
    expect((await a.payments.counts()).kept).toBe(40);
  });

  it('a claim holds its payments until its deadline; then the next claim takes them and the stale token is refused', async () => {
    const { payments, clock } = await openStore();
    for (const [uuid, dueAt] of [
      ['d1', 1_000],
      ['d2', 2_000],
      ['d3', 9_000],
    ] as const)
      await payments.accept(payment(uuid), account('c1'), dueAt, roomy);
    const first = await payments.claimDue(10, 60_000, 5_000);
    expect(first).toMatchObject({ uuids: ['d1', 'd2'], nextDueAt: 9_000 });
    expect(await payments.claimDue(10, 60_000, 6_000)).toMatchObject({ uuids: [], nextDueAt: 9_000 });
    expect(await payments.settle('d1', settlement('success', 7_000), first.token)).toMatchObject({
      status: statusNames.success,
      settledOutcome: 'success',
      settledAt: 7_000,
    });
    // At the deadline (5,000 + 60,000 real ms) d2's claim lapses; d3 is due by then too.
    const second = await payments.claimDue(10, 60_000, 65_000);
    expect(second).toMatchObject({ uuids: ['d2', 'd3'], nextDueAt: undefined });
    expect(second.token).not.toBe(first.token);
    expect((await payments.settle('d2', settlement('failure', 66_000), first.token))?.settledOutcome).toBeUndefined();
    expect((await payments.settle('d2', settlement('failure', 67_000), second.token))?.settledAt).toBe(67_000);
    // Settled already: unchanged, with or without a token.
    expect((await payments.settle('d2', settlement('success', 68_000), undefined))?.settledAt).toBe(67_000);
    expect(await payments.settle('unknown', settlement('success', 68_000), undefined)).toBeUndefined();
    expect((await payments.settle('d3', settlement('success', 69_000), second.token))?.settledAt).toBe(69_000);
    // The sandbox clock moves the virtual now the claim reads; max bounds each claim.
    await payments.accept(payment('d4'), account('c1'), 200_000, roomy);
    await payments.accept(payment('d5'), account('c1'), 200_001, roomy);
    expect((await payments.claimDue(10, 1, 150_000)).uuids).toEqual([]);
    await clock.advance(50_001);
    expect(await payments.claimDue(1, 1, 150_000)).toMatchObject({ uuids: ['d4'], nextDueAt: 200_001 });
    expect(await payments.counts()).toMatchObject({ kept: 5, processing: 2 });
  });

  it('a settlement made now enqueues its deliveries in the same step; a refused or repeated one enqueues none', async () => {
    const { payments, deliveries } = await openStore();
    const webhook = (id: string, body: string): NewDelivery => ({
      ...{ id, clientId: 'c1', paymentUuid: 'w1', url: `http://hooks.test/${id}`, eventType: 'payment.status' },
      ...{ payload: webhookPayload('w1'), body, headers: { 'x-delivery-id': id }, enqueuedAt: 7, dueAt: 7 },
    });
    const caps = { maxDeliveries: 100, maxPendingDeliveries: 1 };
    const events = { items: [webhook('whd_1', '{"n":12345678901234567890}'), webhook('whd_2', '{"n":2}')], caps };
    await payments.accept(payment('w1'), account('c1'), 1_000, roomy);
    const stale = await payments.claimDue(10, 10, 2_000);
    const held = await payments.claimDue(10, 60_000, 3_000);
    expect(held.uuids).toEqual(['w1']);
    expect((await payments.settle('w1', settlement('success', 4), stale.token, events))?.settledAt).toBeUndefined();
    expect(await deliveries.counts()).toMatchObject({ kept: 0 });
    expect((await payments.settle('w1', settlement('success', 5), held.token, events))?.settledAt).toBe(5);
    // The second is past the pending cap of 1: kept failed, as an enqueue of its own would keep it.
    expect((await deliveries.delivery('whd_1'))?.record).toMatchObject({
      state: 'queued',
      body: events.items[0]!.body,
    });
    expect((await deliveries.delivery('whd_2'))?.record).toMatchObject({ state: 'failed', reason: 'pending-cap' });
    expect(
      (await payments.settle('w1', settlement('failure', 6), undefined, { items: [webhook('whd_3', '{}')], caps }))
        ?.settledAt,
    ).toBe(5);
    expect(await deliveries.delivery('whd_3')).toBeUndefined();
    const claim = await deliveries.claimDue(10, 1_000, 10);
    expect(claim.deliveries.map((d) => [d.id, d.body])).toEqual([['whd_1', '{"n":12345678901234567890}']]);
  });

  it('a claim of a tiny visibility lapses on real time: the next claim takes it once the deadline passed', async () => {
    const { payments } = await openStore();
    await payments.accept(payment('r1'), account('c1'), 0, roomy);
    const first = await payments.claimDue(10, 1, Date.now());
    expect(first.uuids).toEqual(['r1']);
    // Each try is a round trip, no timer: the loop ends as soon as a millisecond of real time has passed.
    let again = await payments.claimDue(10, 60_000, Date.now());
    while (again.uuids.length === 0) again = await payments.claimDue(10, 60_000, Date.now());
    expect(again.uuids).toEqual(['r1']);
    expect((await payments.settle('r1', settlement('success', 1), first.token))?.settledOutcome).toBeUndefined();
    expect((await payments.settle('r1', settlement('success', 2), again.token))?.settledAt).toBe(2);
  });

  it('the control API settles without a token, due or claimed, and no claim takes the payment after', async () => {
    const { payments } = await openStore();
    await payments.accept(payment('due'), account('c1'), 1_000, roomy);
    await payments.accept(payment('held'), account('c1'), 1_000, roomy);
    const claim = await payments.claimDue(1, 10, 2_000);
    expect(claim.uuids).toEqual(['due']);
    expect((await payments.settle('held', settlement('failure', 3), undefined))?.status).toBe(statusNames.failure);
    expect((await payments.settle('due', settlement('success', 4), undefined))?.status).toBe(statusNames.success);
    expect((await payments.settle('due', settlement('failure', 5), claim.token))?.settledAt).toBe(4);
    expect(await payments.claimDue(10, 10, 1_000_000)).toMatchObject({ uuids: [], nextDueAt: undefined });
    expect(await payments.counts()).toEqual({ kept: 2, processing: 0, evicted: 0, version: 4 });
  });

  it('an evicted payment leaves the due set with it', async () => {
    const { payments } = await openStore();
    const caps = { paymentsPerClient: 1, cardAccountsPerClient: 1 };
    await payments.accept(payment('old'), account('c1'), 1_000, caps);
    expect(await payments.accept(payment('new'), account('c1'), undefined, caps)).toMatchObject({ evicted: 1 });
    expect(await payments.claimDue(10, 10, 1_000_000)).toMatchObject({ uuids: [], nextDueAt: undefined });
  });

  it('a reset empties every part of the payment state and leaves no payment or delivery key of the old epoch', async () => {
    const { payments, deliveries, tokens, prefix } = await openStore();
    const hook = { id: 'whd_k1', clientId: 'c1', paymentUuid: 'k1', url: 'http://127.0.0.1:9/hook', eventType: 'e' };
    const sent = { ...hook, payload: webhookPayload('k1'), body: '{}', headers: {}, enqueuedAt: 0, dueAt: 0 };
    const dlvCaps = { maxDeliveries: 10, maxPendingDeliveries: 10, maxAttemptsPerDelivery: 3 };
    await deliveries.enqueue(sent, dlvCaps);
    await deliveries.enqueue({ ...sent, id: 'whd_k2', dueAt: 5 }, dlvCaps);
    expect((await deliveries.claimDue(1, 60_000, 1)).deliveries).toHaveLength(1);
    await payments.registerCard(account('c2', 'card-only'), roomy);
    for (const [uuid, client] of [
      ['k1', 'c1'],
      ['k2', 'c2'],
      ['k3', 'c1'],
    ] as const)
      await payments.accept(payment(uuid, client), account(client), 1_000, roomy);
    await payments.settle('k1', settlement('success', 10), undefined);
    expect((await payments.claimDue(1, 60_000, 5_000)).uuids).toEqual(['k2']);
    const { version } = await payments.counts();
    expect(await tokens.reset()).toBe(1);
    expect(await payments.counts()).toEqual({ kept: 0, processing: 0, evicted: 0, version: version + 1 });
    expect(await payments.page({ limit: 50 }, {})).toEqual({ items: [], order: 'newest-first', next: null });
    expect(await payments.payment(undefined, 'k3')).toBeUndefined();
    expect(await payments.cardAccount('c2', 'card-only')).toBeUndefined();
    expect(await payments.claimDue(10, 60_000, 1_000_000)).toMatchObject({ uuids: [], nextDueAt: undefined });
    expect(await deliveries.counts()).toMatchObject({ kept: 0, pending: 0 });
    const raw = new Redis(server().url);
    try {
      expect((await raw.keys(`${prefix}*`)).sort()).toEqual([`${prefix}epoch`, `${prefix}pay:version`]);
    } finally {
      raw.disconnect();
    }
    expect(await payments.accept(payment('k1'), account('c1'), undefined, roomy)).toMatchObject({ seq: 1 });
  });
});
