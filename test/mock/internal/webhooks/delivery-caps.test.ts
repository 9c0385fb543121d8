// The bounded delivery history: finished deliveries past the cap are evicted (oldest finished first) and counted,
// pending work is never evicted but refused at its own cap (recorded, counted, logged once per episode), attempts
// are capped per delivery, and the paged view and the waits stay exact. A fake transport stands for a receiver
// that is down or up; every wait is on the virtual clock.
import { afterEach, describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../../../src/assumptions.ts';
import { type Clock, createClock, createSeededRandom } from '../../../support/mock-internals/foundations.ts';
import { nodeCrypto } from '../../../support/mock-internals/platform.ts';
import {
  createWebhookDispatcher,
  type DeliveryCaps,
  PostError,
  paymentStatusPayload,
  type WebhookTransport,
} from '../../../support/mock-internals/webhooks.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A receiver that refuses connections while `down`, else answers 200; it counts what it got. */
function fakeReceiver() {
  const r: { down: boolean; received: number; transport: WebhookTransport } = {
    down: true,
    received: 0,
    transport: {
      send: () => {
        r.received += 1;
        return r.down
          ? Promise.reject(new PostError('ECONNREFUSED', 'refused'))
          : Promise.resolve({ status: 200, retryAfter: undefined, date: undefined, bodySnippet: 'ok' });
      },
      release: () => {},
    } satisfies WebhookTransport,
  };
  return r;
}

function setup(caps: Partial<DeliveryCaps>, receiver = fakeReceiver()) {
  const clock: Clock = createClock();
  const random = createSeededRandom('caps', nodeCrypto.sha512Hex);
  const lines: string[] = [];
  const dispatcher = createWebhookDispatcher({
    clock,
    urls: ['http://127.0.0.1:9/hooks'],
    signingKey: 'k',
    headers: { signingKey: 'x-webhook-signing-key', clientId: 'x-client-id' },
    retry: defaultAssumptions.webhook.retry,
    random: () => random.next(),
    transport: receiver.transport,
    history: { ...defaultAssumptions.history, ...caps },
    onProblem: (line) => lines.push(line),
  });
  cleanups.push(async () => {
    await dispatcher.close();
    clock.dispose();
  });
  return { dispatcher, clock, receiver, lines };
}

const event = (uuid: string) => ({
  clientId: 'test-client',
  paymentUuid: uuid,
  payload: paymentStatusPayload({ amount: 1, payment_gateway_fee: 0.3, paid_at: 'x', uuid, status: 'success' }),
});

/** Lets the fake transport's promises settle, then runs every retry the clock has (a day at most). */
async function drain(clock: Clock): Promise<void> {
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setImmediate(r));
    clock.advance(60 * 60 * 1000);
  }
  await new Promise((r) => setImmediate(r));
}

describe('delivery history caps', () => {
  it('evicts the finished delivery that finished longest ago past maxDeliveries, and counts it', async () => {
    const { dispatcher, clock, receiver } = setup({ maxDeliveries: 3 });
    receiver.down = false;
    for (let i = 1; i <= 5; i++) dispatcher.enqueue(event(`p${i}`));
    await drain(clock);
    const counts = dispatcher.store.counts();
    expect(counts).toMatchObject({ kept: 3, evicted: 2, pending: 0, refused: 0 });
    expect(counts.byState.delivered).toBe(3);
    expect(dispatcher.deliveries().map((d) => d.paymentUuid)).toEqual(['p3', 'p4', 'p5']);
    const gone = dispatcher.redeliver('whd_unknown');
    expect(gone).toMatchObject({ ok: false, problem: 'unknown', message: expect.stringContaining('evicted') });
  });

  it('never evicts pending work: at maxPendingDeliveries new deliveries are refused, recorded, counted, logged once', async () => {
    const { dispatcher, clock, receiver, lines } = setup({ maxPendingDeliveries: 4, maxDeliveries: 100 });
    for (let i = 1; i <= 10; i++) dispatcher.enqueue(event(`p${i}`));
    await new Promise((r) => setImmediate(r));
    const counts = dispatcher.store.counts();
    expect(counts).toMatchObject({ pending: 4, refused: 6, kept: 10 });
    const refused = dispatcher.deliveries().filter((d) => d.reason === 'pending-cap');
    expect(refused.map((d) => d.paymentUuid)).toEqual(['p5', 'p6', 'p7', 'p8', 'p9', 'p10']);
    for (const d of refused) expect(d).toMatchObject({ state: 'failed', attempts: [] });
    expect(lines.filter((l) => l.includes('new ones are refused'))).toHaveLength(1);
    expect(lines[0]).toMatch(/4 are pending \(the cap, history\.maxPendingDeliveries \/ --max-pending-deliveries\)/);
    // A redelivery while pending work is at its cap is refused with a reason naming the fix.
    expect(dispatcher.redeliver(refused[0]!.id)).toMatchObject({ ok: false, problem: 'at-cap' });

    // The receiver comes back: the pending four are delivered, the log says the cap cleared, the refused are redelivered.
    receiver.down = false;
    await drain(clock);
    expect(lines.some((l) => /are pending, below the cap of 4 again; 6 were refused meanwhile/.test(l))).toBe(true);
    // The cap holds for redeliveries too: four go at once, the other two once those finished.
    expect(refused.map((d) => dispatcher.redeliver(d.id).ok)).toEqual([true, true, true, true, false, false]);
    await drain(clock);
    for (const d of refused.slice(4)) expect(dispatcher.redeliver(d.id)).toEqual({ ok: true });
    await drain(clock);
    expect(dispatcher.store.counts().byState).toMatchObject({ delivered: 10, failed: 0 });
  });

  it('keeps the latest maxAttemptsPerDelivery attempts, numbering on and counting the dropped ones', async () => {
    const { dispatcher, clock } = setup({ maxAttemptsPerDelivery: 3 });
    dispatcher.enqueue(event('p1'));
    await drain(clock);
    const [d] = dispatcher.deliveries();
    expect(d).toMatchObject({ state: 'failed', reason: 'retries-exhausted', attemptsDropped: 5 });
    expect(d!.attempts.map((a) => a.number)).toEqual([6, 7, 8]);
    // The retry budget counts attempts made, not attempts kept: a redelivery gets the full schedule again.
    expect(dispatcher.redeliver(d!.id)).toEqual({ ok: true });
    await drain(clock);
    expect(dispatcher.deliveries()[0]!.attempts.map((a) => a.number)).toEqual([14, 15, 16]);
  });

  it('pages newest first by state, payment and URL, with cursors that survive evictions', async () => {
    const { dispatcher, clock, receiver } = setup({ maxDeliveries: 50 });
    receiver.down = false;
    for (let i = 1; i <= 30; i++) dispatcher.enqueue(event(`p${i}`));
    await drain(clock);
    receiver.down = true;
    for (let i = 31; i <= 35; i++) dispatcher.enqueue(event(`p${i}`));
    await new Promise((r) => setImmediate(r));
    const { store } = dispatcher;
    const sources = store.sources({ state: 'pending' });
    expect(sources).toHaveLength(1);
    const pending = [...sources[0]!.newest()].filter(([, d]) => d.state === 'retry-scheduled');
    expect(pending.map(([, d]) => d.paymentUuid)).toEqual(['p35', 'p34', 'p33', 'p32', 'p31']);
    expect(
      store
        .sources({ paymentUuid: 'p7' })
        .flatMap((s) => [...s.newest()])
        .map(([, d]) => d.paymentUuid),
    ).toEqual(['p7']);
    expect(store.sources({ paymentUuid: 'nope' })).toEqual([]);
  });

  it('waitFor still finds a kept delivery and a future one exactly', async () => {
    const { dispatcher, clock, receiver } = setup({ maxDeliveries: 2 });
    receiver.down = false;
    for (let i = 1; i <= 4; i++) dispatcher.enqueue(event(`p${i}`));
    await drain(clock);
    await expect(dispatcher.waitFor((d) => d.paymentUuid === 'p4')).resolves.toMatchObject({ state: 'delivered' });
    const later = dispatcher.waitFor((d) => d.paymentUuid === 'p9' && d.state === 'delivered', { timeoutMs: 2000 });
    dispatcher.enqueue(event('p9'));
    await expect(later).resolves.toMatchObject({ paymentUuid: 'p9' });
    await expect(dispatcher.waitFor((d) => d.paymentUuid === 'p1', { timeoutMs: 10 })).rejects.toThrow(
      /no webhook delivery matched within 10 ms\. Deliveries: /,
    );
  });
});
