// The shared payments on a real Redis (decision 0040, step 5): payments accepted through one replica are settled
// once, by whichever replica's poller claims them when due on the sandbox clock; a clock move is answered after the
// poll that settles what it made due; the control API settles at once and tells a repeat from an unknown payment; a
// replica that stops polling leaves its claim to lapse, and another settles the payment. Real time is passed in.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../../src/assumptions.ts';
import {
  type CardAccount,
  createEventBus,
  createSharedPayments,
  type SharedPayments,
} from '../../support/mock-internals/domain.ts';
import { createClock } from '../../support/mock-internals/foundations.ts';
import { createRedisStore } from '../../support/mock-internals/store.ts';
import { redisPerFile } from '../../support/redis-per-file.ts';
import { storedPayment } from '../internal/stored-payment.ts';

const { server, opened } = redisPerFile();
const T0 = 1_900_000_000_000;
const caps = { paymentsPerClient: 10_000, cardAccountsPerClient: 10_000 };
const account: CardAccount = {
  card_account_uid: 'u',
  clientId: 'c',
  card_type: 'visa',
  masked_card_number: '411111******1111',
  expiry_month: '12',
  expiry_year: '39',
  outcome: 'success',
};
const made: SharedPayments[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((p) => p.close()));
});

/** One replica's shared payments over `prefix`, on a real time the test moves. */
async function replica(prefix: string, real: { now: number }, leaseMs = 3_000) {
  const store = createRedisStore(server().url, { keyPrefix: prefix });
  opened.push(store);
  await store.open();
  const clock = createClock({ realNow: () => real.now });
  const writes = new Set<Promise<unknown>>();
  const events = createEventBus();
  const settled: string[] = [];
  events.on((e) => {
    if (e.kind === 'payment.settled') settled.push(e.uuid);
  });
  const assumptions = {
    ...defaultAssumptions,
    store: { ...defaultAssumptions.store, leaseMs, followIntervalMs: 60_000 },
  };
  const payments = createSharedPayments({
    port: store.paymentState!(),
    ...{ assumptions, caps, clock, events, realNow: () => real.now },
    background: (w) => writes.add(w),
    idle: () => (writes.size === 0 ? undefined : Promise.all(writes).then(() => undefined)),
    onError: (line) => {
      throw new Error(line);
    },
  });
  made.push(payments);
  return { payments, clock, settled, writes, store };
}

const accepted = (uuid: string, outcome: 'success' | 'failure' | 'processing' = 'success') =>
  storedPayment(uuid, { outcome }, T0);

describe('shared payments on Redis', () => {
  it('settles each payment once across two replicas, when due and not before', async () => {
    const prefix = `st-${randomUUID()}:`;
    const real = { now: T0 };
    const [a, b] = [await replica(prefix, real), await replica(prefix, real)];
    const uuids = Array.from({ length: 20 }, (_, i) => `p${i}`);
    for (const [i, u] of uuids.entries()) {
      expect(
        await (i % 2 === 0 ? a : b).payments.accept(accepted(u, i === 3 ? 'failure' : 'success'), account, false),
      ).toBe(true);
    }
    await Promise.all([a.payments.poll(), b.payments.poll()]);
    expect([...a.settled, ...b.settled]).toEqual([]);
    real.now = T0 + defaultAssumptions.settleDelayMs;
    await Promise.all([a.payments.poll(), b.payments.poll(), a.payments.poll()]);
    expect([...a.settled, ...b.settled].sort()).toEqual([...uuids].sort());
    const all = await b.payments.payments();
    expect(all.map((p) => p.uuid)).toEqual(uuids);
    expect(all.find((p) => p.uuid === 'p3')?.status).toBe(defaultAssumptions.statusNames.failure);
    expect(all.filter((p) => p.status === defaultAssumptions.statusNames.success)).toHaveLength(19);
    expect(await a.payments.counts()).toMatchObject({ kept: 20, processing: 0, capPerClient: caps.paymentsPerClient });
  });

  it('answers a clock move once what it made due is settled, and never settles a processing card', async () => {
    const real = { now: T0 };
    const prefix = `st-${randomUUID()}:`;
    const a = await replica(prefix, real);
    const clockPort = a.store.clockState!();
    await a.payments.accept(accepted('due'), account, false);
    await a.payments.accept(accepted('stays', 'processing'), account, false);
    a.writes.add(clockPort.advance(defaultAssumptions.settleDelayMs));
    a.payments.clockMoved();
    await Promise.all(a.writes);
    await Promise.all(a.writes);
    expect(a.settled).toEqual(['due']);
    const page = await a.payments.page({ limit: 10 }, { status: defaultAssumptions.statusNames.processing });
    expect(page.items.map((p) => p.uuid)).toEqual(['stays']);
  });

  it('settles through the control API at once, and tells a repeat and an unknown uuid apart', async () => {
    const real = { now: T0 };
    const a = await replica(`st-${randomUUID()}:`, real);
    await a.payments.accept(accepted('x', 'processing'), account, false);
    const r = await a.payments.settleNow('x', 'failure');
    expect(r).toMatchObject({ ok: true, payment: { uuid: 'x', settledOutcome: 'failure', settledAt: T0 } });
    expect(await a.payments.settleNow('x')).toMatchObject({ ok: false, problem: 'already-settled' });
    expect(await a.payments.settleNow('nope')).toEqual({ ok: false, problem: 'unknown' });
    expect(a.settled).toEqual(['x']);
  });

  it('lets a claim lapse when its replica stops, and another replica settles the payment', async () => {
    const real = { now: T0 };
    const prefix = `st-${randomUUID()}:`;
    const [a, b] = [await replica(prefix, real, 1_000), await replica(prefix, real, 1_000)];
    await a.payments.accept(accepted('p'), account, false);
    real.now += defaultAssumptions.settleDelayMs;
    // A claims it and dies before settling: its claim is taken straight from the port, as a dead poller left it.
    const port = a.store.paymentState!();
    const claim = await port.claimDue(10, 1_000, real.now);
    expect(claim.uuids).toEqual(['p']);
    await a.payments.close();
    await b.payments.poll();
    expect(b.settled).toEqual([]);
    real.now += 1_001;
    await b.payments.poll();
    expect(b.settled).toEqual(['p']);
  });
});
