// A settlement is durable before its webhook goes out (issue 23): a receiver that asks another replica about the
// payment as soon as the webhook arrives sees it settled. The settlers' store is slow to take appends here, as a
// busy Redis is; before the fix the webhooks of a burst reached their receiver before the settlements reached the
// store, and a replica asked then (or rebuilt from a snapshot then) still showed them `processing`. Since decision
// 0033 a settlement's record is appended (fenced by its claim) before the replica changes its view or sends.
import { afterEach, expect, it } from 'vitest';
import { buildNodeMockApp } from '../../../src/mock/app.ts';
import type { MockApp } from '../../../src/mock/control-types.ts';
import type { SandboxStore } from '../../support/mock-internals/store.ts';
import { paidUuid, sandboxClient } from '../../support/sandbox-client.ts';
import { createSharedMemorySandbox } from '../../support/shared-memory-store.ts';
import { pool } from '../payments-over-http.ts';

let apps: MockApp[] = [];
afterEach(async () => {
  for (const app of apps) await app.close();
  apps = [];
});

/** `store` whose appends land `ms` later than they would (a slow store: what is sent is not yet durable). */
function slowAppends(store: SandboxStore, ms: number): SandboxStore {
  return {
    ...store,
    append: (records) => new Promise((r) => setTimeout(r, ms)).then(() => store.append(records)),
    watch: store.watch?.bind(store),
  };
}

function replica(store: SandboxStore, receiver?: (request: Request) => Promise<Response>) {
  const app = buildNodeMockApp(
    {
      log: false,
      store,
      settleDelayMs: 60_000,
      assumptions: { store: { leaseMs: 1_000, followIntervalMs: 20 } },
    },
    receiver ? { webhookReceivers: [receiver] } : {},
  );
  apps.push(app);
  return app;
}

it('a webhook arrives only once its settlement is durable: the other replica, asked on receipt, shows it settled', async () => {
  const sandbox = createSharedMemorySandbox();
  const seen: { uuid: string; status: string | undefined }[] = [];
  const clients: ReturnType<typeof sandboxClient>[] = [];
  // Each replica's receiver asks the other replica, as a service that got a webhook asks the sandbox behind a load
  // balancer; that replica reads the store before it answers.
  const asking = (other: number) => async (request: Request) => {
    const { uuid } = (await request.json()) as { uuid: string };
    const answer = await clients[other]!.read(`payments?uuid=${uuid}`);
    seen.push({ uuid, status: answer.body.payments[0]?.status });
    return new Response(null, { status: 204 });
  };
  const a = replica(slowAppends(sandbox.replica(), 30), asking(1));
  const b = replica(slowAppends(sandbox.replica(), 30), asking(0));
  clients.push(
    sandboxClient((r) => a.fetch(r)),
    sandboxClient((r) => b.fetch(r)),
  );
  await Promise.all([a.ready(), b.ready()]);
  const token = (await clients[0]!.generate()).body.data.token as string;
  const uuids = await pool(12, 4, async (i) => paidUuid(await clients[i % 2]!.pay(token)));
  expect(uuids.every((u) => u !== undefined)).toBe(true);
  await clients[0]!.control('clock/advance', { ms: 60_000 });
  const end = Date.now() + 10_000;
  while (new Set(seen.map((s) => s.uuid)).size < uuids.length && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 10));
  }
  expect(new Set(seen.map((s) => s.uuid))).toEqual(new Set(uuids));
  expect(seen.filter((s) => s.status !== 'success')).toEqual([]);
  // Each webhook once: the settler renews its claim while the work runs, so the other replica does not take the
  // delivery over and send it again. A duplicate would come a lease after the first delivery: wait that long (real
  // time: the leases are real).
  await new Promise((r) => setTimeout(r, 1_500));
  expect(seen).toHaveLength(uuids.length);
});
