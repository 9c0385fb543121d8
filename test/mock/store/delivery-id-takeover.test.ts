// One delivery id per webhook, whatever dies: a replica that sent a payment's first attempt and died before its
// delivery records reached the store leaves the survivor nothing to adopt, and the survivor sends the webhook again.
// It must send it under the id the receiver already saw, or a receiver that skips ids it has handled handles the
// payment twice. The leases are judged on the sandbox's own clock here, which the test moves, so the takeover waits
// on no real lease.
import { afterEach, expect, it } from 'vitest';
import { buildNodeMockApp } from '../../../src/mock/app.ts';
import type { MockApp } from '../../../src/mock/control-types.ts';
import type { SandboxStore } from '../../support/mock-internals/store.ts';
import { paidUuid, sandboxClient } from '../../support/sandbox-client.ts';
import { createSharedMemorySandbox } from '../../support/shared-memory-store.ts';

let apps: MockApp[] = [];
afterEach(async () => {
  for (const app of apps) await app.close();
  apps = [];
});

/** `store` less its delivery records: what a replica killed before they were appended left in the sandbox. */
function withoutDeliveryRecords(store: SandboxStore): SandboxStore {
  const kept = (records: Parameters<SandboxStore['append']>[0]) => records.filter((r) => r.t !== 'dv');
  return {
    ...store,
    append: (records) => store.append(kept(records)),
    ...(store.appendFenced
      ? { appendFenced: (records, fences, owner) => store.appendFenced!(kept(records), fences, owner) }
      : {}),
  };
}

it('a survivor re-sends a dead replica’s webhook under the delivery id the receiver saw', async () => {
  let leaseNow = Date.now();
  const sandbox = createSharedMemorySandbox(() => leaseNow);
  const seen: { replica: string; id: string | null; uuid: string }[] = [];
  const arrivals: (() => void)[] = [];
  const receiver = (replica: string, status: number) => async (request: Request) => {
    const { uuid } = (await request.json()) as { uuid: string };
    seen.push({ replica, id: request.headers.get('x-webhook-delivery-id'), uuid });
    for (const arrived of arrivals.splice(0)) arrived();
    return new Response(null, { status });
  };
  const arrival = () => new Promise<void>((resolve) => arrivals.push(resolve));
  const replica = (store: SandboxStore, answer: (request: Request) => Promise<Response>) => {
    const app = buildNodeMockApp(
      { log: false, store, settleDelayMs: 1_000, assumptions: { store: { leaseMs: 1_000, followIntervalMs: 20 } } },
      { webhookReceivers: [answer] },
    );
    apps.push(app);
    return app;
  };
  const aStore = sandbox.replica();
  const a = replica(withoutDeliveryRecords(aStore), receiver('A', 503));
  const b = replica(sandbox.replica(), receiver('B', 204));
  await Promise.all([a.ready(), b.ready()]);
  const client = sandboxClient((r) => a.fetch(r));
  const token = (await client.generate()).body.data.token as string;
  const uuid = paidUuid(await client.pay(token));
  const first = arrival();
  a.control.advanceClock(1_000);
  await first;
  expect(seen).toEqual([{ replica: 'A', id: expect.stringMatching(/^whd_/), uuid }]);
  // A dies: cut off from the sandbox, its claims lapse on the sandbox's clock. B's view has the settlement, not the
  // delivery, and no end of the payment's webhooks: B takes the payment's work over and sends the webhook itself.
  (aStore as unknown as { sever(): void }).sever();
  leaseNow += 3_600_000;
  const second = arrival();
  b.control.advanceClock(1_000);
  await second;
  expect(seen.map((s) => [s.replica, s.uuid])).toEqual([
    ['A', uuid],
    ['B', uuid],
  ]);
  expect(seen[1]!.id).toBe(seen[0]!.id);
});
