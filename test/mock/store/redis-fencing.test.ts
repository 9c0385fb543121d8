// Fencing of settlement and delivery on a real Redis (issue 23, decision 0033): a replica that holds a payment's claim
// and stalls past its lease (a GC pause, SIGSTOP) must not settle or record a delivery after another replica took
// the work over. The stall is a store wrapper that holds every call of one replica at a gate, as a stopped process's
// commands would never reach Redis; its timers still run, their store calls wait at the gate too.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildNodeMockApp } from '../../../src/mock/app.ts';
import { createRedisStore, type SandboxStore, type StoreRecord } from '../../support/mock-internals/store.ts';
import { redisSuite } from '../../support/redis-suite.ts';
import { paidUuid, sandboxClient } from '../../support/sandbox-client.ts';
import { waitUntil } from '../../support/wait-until.ts';

const leaseMs = 300;
const suite = redisSuite();

/** A receiver that counts each payment's webhooks; while `hold` is set, it keeps the answer until released. */
function receiver() {
  const posts: string[] = [];
  let hold: Promise<void> | undefined;
  let release = () => {};
  return {
    posts,
    holdAnswers() {
      hold = new Promise((r) => {
        release = r;
      });
    },
    release: () => release(),
    handle: async (request: Request) => {
      posts.push(((await request.json()) as { uuid: string }).uuid);
      if (hold) await hold;
      return new Response(null, { status: 204 });
    },
  };
}

async function replica(store: SandboxStore) {
  const lines: string[] = [];
  const hooks = receiver();
  const app = buildNodeMockApp(
    {
      log: (chunk) => lines.push(chunk),
      store,
      settleDelayMs: 1_000,
      assumptions: { store: { leaseMs, followIntervalMs: 20 } },
    },
    { webhookReceivers: [hooks.handle] },
  );
  suite.track(app);
  await app.ready();
  return { app, hooks, lines, client: sandboxClient((r) => app.fetch(r)) };
}

/** The records of the stream of `prefix` of type `t` about payment `uuid`. */
async function recordsOf(prefix: string, t: string, uuid: string): Promise<StoreRecord[]> {
  const entries = await suite.probe.xrange(`${prefix}log`, '-', '+');
  return entries
    .map(([, fields]) => JSON.parse(fields[1] ?? 'null') as StoreRecord)
    .filter((r) => r.t === t && (r.u === uuid || (r.d as { u?: string } | undefined)?.u === uuid));
}

const fenceLines = (lines: readonly string[]) => lines.filter((l) => l.includes('lost its claim on settle:'));

describe('fencing on Redis', () => {
  it('a settler stalled past its lease is refused after another replica settled: one settlement, one webhook', async () => {
    const prefix = `f-${randomUUID()}:`;
    const stall = suite.stall(createRedisStore(suite.url, { keyPrefix: prefix }));
    const a = await replica(stall.store);
    const token = (await a.client.generate()).body.data.token as string;
    const uuid = paidUuid(await a.client.pay(token)) as string;
    expect(uuid).toBeDefined();
    // A claims the settlement and stalls just before its `set` goes to Redis.
    stall.stallWhen((_, fences) => fences.includes(`settle:${uuid}`));
    a.app.control.advanceClock(1_000);
    await waitUntil(() => stall.stalled(), 'A stalled with the settlement in hand');

    // B joins, finds the payment due and the claim held; once A's lease has run out, B settles and delivers.
    const b = await replica(createRedisStore(suite.url, { keyPrefix: prefix }));
    await waitUntil(() => b.hooks.posts.includes(uuid), 'B delivered the webhook');
    expect((await b.app.control.payments()).find((p) => p.uuid === uuid)?.status).toBe('success');

    // A wakes up: its `set` is refused, its view unchanged until it reads B's, and it sends nothing.
    stall.resume();
    await waitUntil(() => a.app.control.store().fencedOut === 1, 'A told its settlement was refused');
    await waitUntil(
      async () => (await a.app.control.payments()).find((p) => p.uuid === uuid)?.status === 'success',
      "A read B's settlement",
    );
    await a.client.read('health');
    expect(await recordsOf(prefix, 'set', uuid)).toHaveLength(1);
    expect(await recordsOf(prefix, 'hk', uuid)).toHaveLength(1);
    expect(a.hooks.posts).toEqual([]);
    expect(b.hooks.posts).toEqual([uuid]);
    expect(fenceLines(a.lines)).toHaveLength(1);
    expect(fenceLines(a.lines)[0]).toContain('another replica took the work over');
    expect(fenceLines(b.lines)).toEqual([]);
    const health = (await a.client.read('health')).body;
    expect(health.store).toMatchObject({ kind: 'redis', fencedOut: 1, lostJournalEntries: 0 });
  });

  it('a deliverer stalled past its lease is refused after another replica delivered: one final status record', async () => {
    const prefix = `f-${randomUUID()}:`;
    const stall = suite.stall(createRedisStore(suite.url, { keyPrefix: prefix }));
    const a = await replica(stall.store);
    const token = (await a.client.generate()).body.data.token as string;
    const uuid = paidUuid(await a.client.pay(token)) as string;
    // A settles (its `set` is taken) and sends the webhook; the receiver keeps the answer, and A stalls meanwhile.
    a.hooks.holdAnswers();
    a.app.control.advanceClock(1_000);
    await waitUntil(() => a.hooks.posts.includes(uuid), 'A sent its attempt');
    await a.app.control.durable();
    stall.stallNow();

    // B takes the delivery over once A's lease has run out: the same delivery, attempted again and delivered.
    const b = await replica(createRedisStore(suite.url, { keyPrefix: prefix }));
    await waitUntil(() => b.hooks.posts.includes(uuid), 'B delivered the webhook');
    await waitUntil(async () => (await recordsOf(prefix, 'hk', uuid)).length === 1, "B's final record");

    // A's receiver answers, A records the delivery as delivered: refused, and A takes the store's view instead.
    a.hooks.release();
    // Let go only once A took its receiver's answer in: its outcome was made while it was stalled (its reads of the
    // store are held, so nothing of B's can have changed A's view meanwhile).
    await waitUntil(
      async () =>
        (await a.app.control.deliveries()).some(
          (d) => d.paymentUuid === uuid && d.attempts.some((x) => x.status === 204),
        ),
      "A took its receiver's answer",
    );
    stall.resume();
    await waitUntil(() => a.app.control.store().fencedOut === 1, 'A told its outcome was refused');
    await waitUntil(
      async () => (await a.app.control.deliveries()).some((d) => d.paymentUuid === uuid && d.state === 'delivered'),
      "A's view rebuilt from the store",
    );
    const hk = await recordsOf(prefix, 'hk', uuid);
    expect(hk).toHaveLength(1);
    expect(hk[0]?.o).not.toBe('');
    const delivered = (await recordsOf(prefix, 'dv', uuid)).filter((r) => (r.d as { s: string }).s === 'delivered');
    expect(new Set(delivered.map((r) => r.o)).size).toBe(1);
    expect(hk[0]?.o).toBe(delivered[0]?.o);
    // At least once: the receiver got the event from both, under one delivery id (it de-duplicates by uuid + status).
    expect([...a.hooks.posts, ...b.hooks.posts]).toEqual([uuid, uuid]);
    const ids = [...(await a.app.control.deliveries()), ...(await b.app.control.deliveries())]
      .filter((d) => d.paymentUuid === uuid)
      .map((d) => d.id);
    expect(new Set(ids).size).toBe(1);
    expect((await a.app.control.deliveries()).filter((d) => d.paymentUuid === uuid)).toHaveLength(1);
    // The log writes its lines in batches: the refusal's line may still be queued when the view is rebuilt.
    a.app.flushLog();
    expect(fenceLines(a.lines)).toHaveLength(1);
    expect(fenceLines(a.lines)[0]).toContain('rebuilding its state from the store');
    expect(a.app.control.store().fencedOut).toBe(1);
  });
});
