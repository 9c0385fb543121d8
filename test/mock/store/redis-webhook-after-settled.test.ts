// A settlement is kept before its webhook goes out: a receiver that asks another replica about the payment as soon
// as the webhook arrives sees it settled. On Redis the settle script writes the settlement and its deliveries in one
// step, and a delivery is claimed for sending only after that step.
import { expect, it } from 'vitest';
import { buildNodeMockApp } from '../../../src/mock/app.ts';
import { createChanges } from '../../support/changes.ts';
import { createRedisStore } from '../../support/mock-internals/store.ts';
import { redisSuite } from '../../support/redis-suite.ts';
import { paidUuid, sandboxClient } from '../../support/sandbox-client.ts';
import { pool } from '../payments-over-http.ts';

const suite = redisSuite();

function replica(prefix: string, receiver: (request: Request) => Promise<Response>) {
  const app = buildNodeMockApp(
    {
      log: false,
      store: createRedisStore(suite.url, { keyPrefix: prefix }),
      settleDelayMs: 60_000,
      assumptions: { store: { leaseMs: 1_000, followIntervalMs: 20 } },
    },
    { webhookReceivers: [receiver] },
  );
  return suite.track(app);
}

it('a webhook arrives only once its settlement is kept: the other replica, asked on receipt, shows it settled', async () => {
  const prefix = `wd-${crypto.randomUUID()}:`;
  const seen: { uuid: string; status: string | undefined }[] = [];
  const changes = createChanges();
  const clients: ReturnType<typeof sandboxClient>[] = [];
  // Each replica's receiver asks the other replica, as a service that got a webhook asks the sandbox behind a load
  // balancer.
  const asking = (other: number) => async (request: Request) => {
    const { uuid } = (await request.json()) as { uuid: string };
    const answer = await clients[other]!.read(`payments?uuid=${uuid}`);
    seen.push({ uuid, status: answer.body.payments[0]?.status });
    changes.notify();
    return new Response(null, { status: 204 });
  };
  const a = replica(prefix, asking(1));
  const b = replica(prefix, asking(0));
  clients.push(
    sandboxClient((r) => a.fetch(r)),
    sandboxClient((r) => b.fetch(r)),
  );
  await Promise.all([a.ready(), b.ready()]);
  const token = (await clients[0]!.generate()).body.data.token as string;
  const uuids = await pool(12, 4, async (i) => paidUuid(await clients[i % 2]!.pay(token)));
  expect(uuids.every((u) => u !== undefined)).toBe(true);
  await clients[0]!.control('clock/advance', { ms: 60_000 });
  await changes.until(() => new Set(seen.map((s) => s.uuid)).size === uuids.length);
  expect(seen.filter((s) => s.status !== 'success')).toEqual([]);
  // Each webhook once, delivered at its first attempt, as either replica lists it.
  expect(seen).toHaveLength(uuids.length);
  // Each outcome is recorded once its receiver answered: wait for that, on the replica that did not send them all.
  for (const uuid of uuids)
    await a.control.waitForDelivery((d) => d.paymentUuid === uuid && d.state === 'delivered', { timeoutMs: 10_000 });
  const deliveries = await a.control.deliveries();
  expect(deliveries.map((d) => [d.state, d.attempts.length])).toEqual(uuids.map(() => ['delivered', 1]));
});
