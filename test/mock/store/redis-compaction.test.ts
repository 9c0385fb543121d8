// Compaction of a Redis-shared sandbox by size (issue 23, decision 0029): the stream stays bounded under a long run,
// a replica that joins after the trims sees the whole sandbox from the snapshot, and a replica the trim passed while
// it read nothing rebuilds its view from the snapshot without losing or repeating anything.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildNodeMockApp } from '../../../src/mock/app.ts';
import { createRedisStore, type SandboxStore } from '../../support/mock-internals/store.ts';
import { redisSuite } from '../../support/redis-suite.ts';
import { paidUuid, sandboxClient } from '../../support/sandbox-client.ts';
import { uuidReceiverInto } from '../../support/uuid-receiver.ts';
import { waitUntil } from '../../support/wait-until.ts';
import { pool } from '../payments-over-http.ts';

const threshold = 400;
const suite = redisSuite();

// Longer than any test may run (vitest's 30 s timeout): a claim of these replicas cannot lapse within a test. A loaded
// host starves a replica's renewals for seconds at times (its renewal timer 3 s late, measured, against a 1 s lease);
// a holder whose claim lapsed has its work done again, by design, and the webhook it already sent while it held the
// claim goes out a second time, from another replica or from itself once it has rebuilt its view from the store. A
// test that counts deliveries and is not about a takeover (redis-fencing.test.ts is) would then fail by the host's
// load; with this lease only a fault of the kit sends a webhook twice.
const noLapseMs = 120_000;

/**
 * A replica on `prefix`; `follow: false` hides the store's watch and slows its poll, so it reads only on requests.
 * `leaseMs`: its claims' lease (1 s unless given).
 */
async function replica(prefix: string, options: { follow?: boolean; leaseMs?: number } = {}) {
  const hooks: string[] = [];
  const lines: string[] = [];
  const base = createRedisStore(suite.url, { keyPrefix: prefix });
  const store: SandboxStore = options.follow === false ? { ...withoutWatch(base) } : base;
  const app = buildNodeMockApp(
    {
      log: (chunk) => lines.push(chunk),
      requestLog: false,
      store,
      settleDelayMs: 60_000,
      assumptions: {
        store: {
          leaseMs: options.leaseMs ?? 1_000,
          followIntervalMs: options.follow === false ? 600_000 : 20,
          compactAfterRecords: threshold,
          compactAfterBytes: 0,
        },
      },
    },
    {
      webhookReceivers: [uuidReceiverInto(hooks)],
    },
  );
  suite.track(app);
  await app.ready();
  const logged = (text: string) => {
    app.flushLog();
    return lines.join('').split(text).length - 1;
  };
  return { app, hooks, logged, client: sandboxClient((r) => app.fetch(r)) };
}

function withoutWatch(store: SandboxStore): SandboxStore {
  return {
    kind: store.kind,
    shared: store.shared,
    open: () => store.open(),
    append: (records) => store.append(records),
    readAfter: (position, limit) => store.readAfter(position, limit),
    compact: (snapshot, upTo, options) => store.compact(snapshot, upTo, options),
    backlog: () => store.backlog?.() ?? { records: 0, bytes: 0 },
    claim: (key, owner, leaseMs) => store.claim(key, owner, leaseMs),
    release: (key, owner) => store.release(key, owner),
    increment: (name) => store.increment(name),
    close: () => store.close(),
    // The state Redis holds itself: replicas of one sandbox share it (a replica without it would keep its own).
    ...(store.tokenState ? { tokenState: () => store.tokenState!() } : {}),
    ...(store.clockState ? { clockState: () => store.clockState!() } : {}),
    ...(store.failureState ? { failureState: () => store.failureState!() } : {}),
  };
}

/** How many payments the store (snapshot and stream) holds a settlement record of. */
async function settledInStore(prefix: string): Promise<number> {
  const entries = [
    ...(await suite.probe.lrange(`${prefix}snapshot`, 0, -1)),
    ...(await suite.probe.xrange(`${prefix}log`, '-', '+')).map(([, fields]) => fields[1] ?? 'null'),
  ];
  const uuids = new Set<string>();
  for (const json of entries) {
    const r = JSON.parse(json) as { t?: string; u?: string };
    if (r.t === 'set' && r.u) uuids.add(r.u);
  }
  return uuids.size;
}

const generation = async (prefix: string) => Number((await suite.probe.hget(`${prefix}compaction`, 'generation')) ?? 0);

describe('Redis store compaction', () => {
  it('keeps the stream under its bound over thousands of requests; a replica joining after the trims sees the whole sandbox', async () => {
    const prefix = `c-${randomUUID()}:`;
    const a = await replica(prefix);
    const b = await replica(prefix);
    // State made before any trim, which the snapshot must carry: a card account, a refresh token, a revocation.
    const uid = (
      await a.client.control('card-accounts', {
        clientId: 'test-client',
        card: { card_number: '4111111111111111', expiry_month: '12', expiry_year: '39' },
      })
    ).body.card_account_uid as string;
    const first = (await a.client.generate()).body.data;
    const kept = (await b.client.refresh(first.refresh_token)).body.data;
    const revoked = (await a.client.refresh(kept.refresh_token)).body.data;
    expect((await a.client.revoke(revoked.token)).status).toBe(200);
    const token = (await b.client.refresh(revoked.refresh_token)).body.data.token as string;
    const spare = (await a.client.refresh((await a.client.generate()).body.data.refresh_token)).body.data;

    let longest = 0;
    const uuids: string[] = [];
    for (let round = 0; round < 6; round++) {
      const paid = await pool(250, 8, async (i) => paidUuid(await (i % 2 ? b : a).client.pay(token)));
      for (const u of paid) if (u) uuids.push(u);
      await a.client.control('clock/advance', { ms: 60_000 });
      await b.client.read('health');
      longest = Math.max(longest, await suite.probe.xlen(`${prefix}log`));
    }
    await waitUntil(() => new Set([...a.hooks, ...b.hooks]).size === uuids.length, 'every webhook delivered');
    const trims = await generation(prefix);
    console.log(
      `redis compaction: ${uuids.length} payments over 2 replicas, ${trims} compactions, longest stream ${longest} entries (threshold ${threshold}), snapshot ${await suite.probe.llen(`${prefix}snapshot`)} records`,
    );
    expect(uuids).toHaveLength(1_500);
    expect(trims).toBeGreaterThanOrEqual(3);
    // Compaction runs after the backlog passes the threshold; a burst in flight meanwhile adds a little.
    expect(longest).toBeLessThan(threshold * 3);

    // Pending settlements across the join: accepted now, due after the survivors are gone.
    const pending = await pool(10, 5, async () => paidUuid(await a.client.pay(token)));
    // Settlement records trail the webhooks: C can only know the settlements the store holds.
    await waitUntil(async () => (await settledInStore(prefix)) === 1_500, 'every settlement durable');
    // C alone delivers the pending webhooks, each once: its claims must not lapse meanwhile (see noLapseMs).
    const c = await replica(prefix, { leaseMs: noLapseMs });
    const aNow = a.app.control.now();
    expect(c.app.control.now()).toBeGreaterThanOrEqual(aNow - 1_000);
    // C's view at its start is the whole sandbox.
    expect(await c.app.control.payments()).toHaveLength(1_510);
    expect((await c.app.control.payments()).filter((p) => p.status === 'success')).toHaveLength(1_500);
    // Deliveries change after their settlement (attempts, their end): A's answer waits for what A recorded, C's
    // request reads it.
    await a.client.read('health');
    await c.client.read('health');
    expect((await c.app.control.deliveries()).length).toBe((await a.app.control.deliveries()).length);
    // Tokens: the unused refresh token works on C once, the used one does not, the revoked access token stays so.
    expect((await c.client.refresh(first.refresh_token)).status).toBe(401);
    expect((await c.client.pay(revoked.token)).body.errors[0].extensions.reason).toBe('TOKEN_REVOKED');
    expect((await c.client.refresh(spare.refresh_token)).status).toBe(200);
    expect((await a.client.refresh(spare.refresh_token)).status).toBe(401);
    // The card account made before every trim pays on C.
    const byAccount = await c.client.pay(token, {
      amount: 100,
      fees: 1.8,
      credit_card: { card_account_uid: uid },
      contact: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
      payment_reference: { description: 'Order 1', reference_no: 'R-1' },
    });
    expect(paidUuid(byAccount), JSON.stringify(byAccount.body)).toBeDefined();

    // A and B go: C settles and delivers what they left pending.
    await a.app.close();
    await b.app.close();
    suite.untrack(a.app, b.app);
    await c.client.control('clock/advance', { ms: 60_000 });
    await waitUntil(
      () => pending.every((u) => c.hooks.includes(u as string)),
      'C delivered the pending webhooks',
      15_000,
    );
    expect(c.hooks.filter((u) => pending.includes(u))).toHaveLength(10);
  });

  it('a replica the trims passed while it read nothing rebuilds from the snapshot: nothing lost, nothing twice', async () => {
    const prefix = `c-${randomUUID()}:`;
    // Each webhook once (B's own payment's is counted below): no claim may lapse under a loaded host (see noLapseMs).
    const a = await replica(prefix, { leaseMs: noLapseMs });
    const b = await replica(prefix, { follow: false, leaseMs: noLapseMs });
    const token = (await b.client.generate()).body.data.token as string;
    const own = paidUuid(await b.client.pay(token));
    expect(own).toBeDefined();
    const before = await generation(prefix);
    // B reads nothing from here: A alone makes enough records for several compactions.
    const paid = await pool(600, 8, async () => paidUuid(await a.client.pay(token)));
    await a.client.control('clock/advance', { ms: 60_000 });
    await waitUntil(async () => (await generation(prefix)) >= before + 2, 'two compactions');
    // A delivers B's payment too: B reads nothing, so A settles it when A's clock makes it due.
    await waitUntil(() => new Set(a.hooks).size === paid.length + 1, 'A delivered every webhook');
    // A's settlement records trail its webhooks (each is appended after its delivery started): wait until the store
    // holds all 601, which is all a replica rebuilt from it can know.
    await waitUntil(async () => (await settledInStore(prefix)) === 601, 'every settlement durable');
    // B's next request catches up: its position was compacted away, so it rebuilds from the snapshot.
    // The answer to that very request already shows every payment with its final status: a settlement that A
    // appended while taking a snapshot, before its own view had it, is not skipped as covered by that snapshot.
    const first = await b.client.read('payments?limit=1');
    expect(first.status).toBe(200);
    expect(first.body.counts).toMatchObject({ kept: 601, processing: 0 });
    expect(b.logged('was compacted past this process')).toBe(1);
    const listed = (await b.app.control.payments()).map((p) => p.uuid);
    expect(listed).toHaveLength(601);
    expect(new Set(listed)).toEqual(new Set([own, ...paid]));
    expect((await b.app.control.payments()).every((p) => p.status === 'success')).toBe(true);
    expect(b.app.control.now()).toBeGreaterThanOrEqual(a.app.control.now() - 1_000);
    // B's own token and payment survived the rebuild; its payment was settled and delivered once in the sandbox.
    expect(paidUuid(await b.client.pay(token))).toBeDefined();
    const hooks = [...a.hooks, ...b.hooks];
    expect(hooks.filter((u) => u === own)).toHaveLength(1);
  });

  it('a replica that rebuilds keeps each change of its own once, those not yet appended included', async () => {
    const prefix = `c-${randomUUID()}:`;
    const a = await replica(prefix);
    const b = await replica(prefix, { follow: false });
    // B moves the clock by an hour (a direct control call: no read). B has read nothing since the store was empty,
    // so its position is still none; A reads the move from Redis on its follow interval.
    const hour = 3_600_000;
    b.app.control.advanceClock(hour);
    await waitUntil(() => a.app.control.now() - Date.now() > hour / 2, 'A read the move');
    const token = (await a.client.generate()).body.data.token as string;
    const before = await generation(prefix);
    await pool(600, 8, async () => paidUuid(await a.client.pay(token)));
    // Their settlements and webhooks add the records of a second compaction (the journal is in Redis, not the log).
    await a.client.control('clock/advance', { ms: 60_000 });
    await waitUntil(async () => (await generation(prefix)) >= before + 2, 'two compactions');
    // In one tick, a second move (its write to Redis still under way), then a request: B's view already holds both
    // moves, and its rebuild reads the clock only after its own write. B's rebuilt clock and A's agree.
    b.app.control.advanceClock(60_000);
    const first = await b.client.read('payments?limit=1');
    expect(first.status).toBe(200);
    expect(first.body.counts).toMatchObject({ kept: 600 });
    await a.client.read('health');
    const [aNow, bNow] = [a.app.control.now(), b.app.control.now()];
    expect(Math.abs(aNow - bNow)).toBeLessThan(30_000);
    expect(bNow - Date.now()).toBeGreaterThan(hour);
    expect(bNow - Date.now()).toBeLessThan(2 * hour);
    expect(b.logged('was compacted past this process')).toBe(1);
  });
});
