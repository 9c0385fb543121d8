// Two replicas on a real Redis (issue 23): the pending-deliveries cap counts each replica's own deliveries only, a
// direct `app.control.*` change is durable (every replica's next request sees it) once `control.durable()` resolves,
// and `control.compactNow()` compacts whatever the thresholds say.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildNodeMockApp } from '../../../src/mock/app.ts';
import type { MockOptions } from '../../../src/mock/options.ts';
import { servicePaths } from '../../../src/spec-names.ts';
import { createRedisStore, type SandboxStore } from '../../support/mock-internals/store.ts';
import { redisSuite } from '../../support/redis-suite.ts';
import { paidUuid, sandboxClient } from '../../support/sandbox-client.ts';
import { waitUntil } from '../../support/wait-until.ts';

const suite = redisSuite();

async function replica(
  store: SandboxStore | string,
  receiver: (request: Request) => Promise<Response> = async () => new Response(null, { status: 204 }),
  options: Partial<MockOptions> = {},
) {
  const app = buildNodeMockApp(
    {
      log: false,
      store,
      settleDelayMs: 1_000,
      ...options,
      assumptions: { store: { leaseMs: 3_000, followIntervalMs: 20 }, ...options.assumptions },
    },
    { webhookReceivers: [receiver] },
  );
  suite.track(app);
  await app.ready();
  return { app, client: sandboxClient((r) => app.fetch(r)) };
}

const redisOf = (prefix: string) => createRedisStore(suite.url, { keyPrefix: prefix });

describe('replicas on Redis: control and caps', () => {
  it("counts every replica's unfinished deliveries against the sandbox's maxPendingDeliveries", async () => {
    const prefix = `rc-${randomUUID()}:`;
    // Every attempt fails (500): a delivery stays pending, waiting for a retry on the virtual clock.
    const failing = async () => new Response(null, { status: 500 });
    const capped = { assumptions: { history: { maxPendingDeliveries: 2 } } } as Partial<MockOptions>;
    const a = await replica(redisOf(prefix), failing, capped);
    const token = (await a.client.generate()).body.data.token as string;
    const own = [paidUuid(await a.client.pay(token)), paidUuid(await a.client.pay(token))];
    a.app.control.advanceClock(1_000);
    await waitUntil(async () => (await a.app.control.history()).deliveries.pending === 2, 'A has 2 pending deliveries');
    expect((await a.app.control.deliveries()).map((d) => d.paymentUuid)).toEqual(expect.arrayContaining(own));

    // B joins: it lists A's two pending deliveries, and they fill the sandbox's cap, so B's next one is refused.
    const b = await replica(redisOf(prefix), failing, capped);
    expect((await b.client.read('health')).body.history.deliveries.pending).toBe(2);
    const mine = paidUuid(await b.client.pay(token)) as string;
    await b.app.control.settlePayment(mine);
    expect((await a.app.control.deliveries()).find((d) => d.paymentUuid === mine)).toMatchObject({
      state: 'failed',
      reason: 'pending-cap',
    });
    expect((await a.app.control.history()).deliveries.refused).toBe(1);
  });

  it('a direct control call is seen by the other replica once control.durable() resolves', async () => {
    const prefix = `rc-${randomUUID()}:`;
    const stall = suite.stall(redisOf(prefix));
    const a = await replica(stall.store);
    const b = await replica(redisOf(prefix));
    const token = (await b.client.generate()).body.data.token as string;
    expect(paidUuid(await b.client.pay(token))).toBeDefined();

    // durable() waits for the store: held while A's store calls are, resolved once they go through. The clock
    // move (a script on the sandbox's clock in Redis) waits at the gate; a durable() that did not wait for it would
    // resolve before Redis had it.
    const clockKey = `${prefix}0:clock`;
    stall.stallNow();
    const at = a.app.control.advanceClock(3_600_000);
    let storedWhenDurable: string | null | undefined;
    const waiting = a.app.control.durable().then(async () => {
      storedWhenDurable = await suite.probe.get(clockKey);
    });
    expect(await suite.probe.get(clockKey)).toBeNull();
    expect(storedWhenDurable).toBeUndefined();
    stall.resume();
    await waiting;
    expect(storedWhenDurable).toBe('3600000');
    expect((await b.client.read('health')).body.now).toBeGreaterThanOrEqual(at);

    a.app.control.failNextRequest(servicePaths.generateToken, 503);
    await a.app.control.durable();
    expect((await b.client.generate()).status).toBe(503);

    a.app.control.reset();
    await a.app.control.durable();
    expect((await b.client.read('payments')).body.payments).toEqual([]);
  });

  it('control.durable() resolves at once with memory, and rejects when the store did not take the change', async () => {
    const memory = await replica('memory:');
    memory.app.control.advanceClock(1_000);
    await expect(memory.app.control.durable()).resolves.toBeUndefined();

    const prefix = `rc-${randomUUID()}:`;
    const store = redisOf(prefix);
    const a = await replica(store);
    await store.close();
    a.app.control.advanceClock(1_000);
    await expect(a.app.control.durable()).rejects.toThrow(/did not take the latest changes.*make the change again/);
  });
});
