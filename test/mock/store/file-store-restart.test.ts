/**
 * The file store over a restart (issue 23): a second mock on the same file has the first one's tokens, revocations,
 * card accounts, payments and pending settlements, and delivers the webhooks the first did not; ids do not repeat.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildNodeMockApp } from '../../../src/mock/app.ts';
import type { MockApp } from '../../../src/mock/control-types.ts';
import type { MockOptions } from '../../../src/mock/options.ts';
import { paidUuid, sandboxClient } from '../../support/sandbox-client.ts';
import { uuidReceiverInto } from '../../support/uuid-receiver.ts';
import { contact, reference } from '../helpers.ts';

let dir: string;
let apps: MockApp[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pck-file-store-'));
});
afterEach(async () => {
  for (const app of apps) await app.close();
  apps = [];
  rmSync(dir, { recursive: true, force: true });
});

/** A mock on the file store with an in-process webhook receiver that keeps the uuids it is sent. */
async function start(file: string, hooks: string[], options: MockOptions = {}) {
  const app = buildNodeMockApp(
    { log: false, store: `file:${file}`, settleDelayMs: 5_000, ...options },
    {
      webhookReceivers: [uuidReceiverInto(hooks)],
    },
  );
  apps.push(app);
  await app.ready();
  return { app, client: sandboxClient((r) => app.fetch(r)) };
}

describe('file store over a restart', () => {
  it('keeps tokens, revocations, card accounts, payments and pending settlements; delivers what was pending', async () => {
    const file = join(dir, 'sandbox.log');
    const hooksBefore: string[] = [];
    const first = await start(file, hooksBefore);
    const pair = (await first.client.generate()).body.data;
    const revokedPair = (await first.client.refresh(pair.refresh_token)).body.data;
    const kept = (await first.client.refresh(revokedPair.refresh_token)).body.data;
    expect((await first.client.revoke(revokedPair.token)).status).toBe(200);
    const uid = (
      await first.client.control('card-accounts', {
        clientId: 'test-client',
        card: { card_number: '4111111111111111', expiry_month: '12', expiry_year: '39' },
      })
    ).body.card_account_uid as string;
    const settledFirst = paidUuid(await first.client.pay(kept.token));
    await first.client.control('clock/advance', { ms: 5_000 });
    await first.app.control.waitForDelivery((d) => d.paymentUuid === settledFirst && d.state === 'delivered');
    const pending = paidUuid(await first.client.pay(kept.token));
    expect(settledFirst).toBeDefined();
    expect(pending).toBeDefined();
    // Stopped before the pending payment settles: its webhook is the second process's to deliver.
    await first.app.close();
    apps = [];

    const hooks: string[] = [];
    const second = await start(file, hooks);
    const c = second.client;
    expect((await c.pay(revokedPair.token)).body.errors[0].extensions.reason).toBe('TOKEN_REVOKED');
    // The refresh token already used is still used; the kept pair's refresh token still works, once.
    expect((await c.refresh(revokedPair.refresh_token)).status).toBe(401);
    const next = (await c.refresh(kept.refresh_token)).body.data;
    expect(next.refresh_token).not.toBe(kept.refresh_token);
    // The card account still pays, with the fee the card gives.
    const withUid = await c.pay(next.token, {
      amount: 100,
      fees: 1.8,
      credit_card: { card_account_uid: uid },
      contact,
      payment_reference: reference,
    });
    const third = paidUuid(withUid);
    expect(third, JSON.stringify(withUid.body)).toBeDefined();
    expect(new Set([settledFirst, pending, third]).size).toBe(3);
    const payments = await second.app.control.payments();
    expect(payments.map((p) => p.uuid)).toEqual([settledFirst, pending, third]);
    expect(payments[0]?.status).toBe('success');
    // The clock moved by 5 s before the restart and still has; the pending payment settles when due.
    second.app.control.advanceClock(5_000);
    await second.app.control.waitForDelivery((d) => d.paymentUuid === pending && d.state === 'delivered');
    await second.app.control.waitForDelivery((d) => d.paymentUuid === third && d.state === 'delivered');
    // Each webhook once: the first payment's was delivered before the restart and is not sent again.
    expect([...hooksBefore, ...hooks].sort()).toEqual([settledFirst, pending, third].sort());
    expect(readFileSync(file, 'utf8')).not.toContain('4111111111111111');
  });

  it('one process on a fresh file with a seed draws the ids memory draws', async () => {
    const memory = buildNodeMockApp({ log: false, seed: 's1' }, {});
    apps.push(memory);
    const onFile = await start(join(dir, 'fresh.log'), [], { seed: 's1' });
    const m = sandboxClient((r) => memory.fetch(r));
    const mt = (await m.generate()).body.data;
    const ft = (await onFile.client.generate()).body.data;
    expect(ft.refresh_token).toBe(mt.refresh_token);
    expect(paidUuid(await onFile.client.pay(ft.token))).toBe(paidUuid(await m.pay(mt.token)));
  });

  it('drops what a reset made obsolete at the next start, keeping what came after', async () => {
    const file = join(dir, 'reset.log');
    const first = await start(file, []);
    const before = (await first.client.generate()).body.data;
    await first.client.pay(before.token);
    await first.client.control('reset');
    const after = (await first.client.generate()).body.data;
    const kept = paidUuid(await first.client.pay(after.token));
    await first.app.close();
    apps = [];
    const lines = () => readFileSync(file, 'utf8').trim().split('\n').length;
    const grown = lines();
    const second = await start(file, []);
    expect(lines()).toBeLessThan(grown);
    expect((await second.app.control.payments()).map((p) => p.uuid)).toEqual([kept]);
    expect((await second.client.refresh(after.refresh_token)).status).toBe(200);
    expect((await second.client.refresh(before.refresh_token)).status).toBe(401);
  });

  it('a revoke-all after a reset and two restarts still revokes the tokens issued before the reset', async () => {
    const file = join(dir, 'revoke-reset.log');
    const first = await start(file, []);
    await first.client.generate();
    expect((await first.client.revoke()).status).toBe(200);
    const before = (await first.client.generate()).body.data;
    await first.client.control('reset');
    await first.app.close();
    // The first start after the reset replays the whole log, then drops what came before the reset (the revoke-all
    // among it); the second start has only what the log kept.
    await (await start(file, [])).app.close();
    apps = [];
    const second = await start(file, []);
    // The reset forgot the revocation: the token is valid again.
    expect(paidUuid(await second.client.pay(before.token))).toBeDefined();
    expect((await second.client.revoke()).status).toBe(200);
    expect((await second.client.pay(before.token)).body.errors[0].extensions.reason).toBe('TOKEN_REVOKED');
    const after = (await second.client.generate()).body.data;
    expect(paidUuid(await second.client.pay(after.token))).toBeDefined();
  });

  it('a delivery whose attempt was in flight at the stop is sent again by the next process, under its id', async () => {
    const file = join(dir, 'in-flight.log');
    const first = buildNodeMockApp(
      { log: false, store: `file:${file}`, settleDelayMs: 5_000 },
      { webhookReceivers: [() => new Promise<Response>(() => {})] },
    );
    apps.push(first);
    await first.ready();
    const client = sandboxClient((r) => first.fetch(r));
    const uuid = paidUuid(await client.pay((await client.generate()).body.data.token))!;
    await client.control('payments/settle', { uuid, outcome: 'success' });
    const sending = await first.control.waitForDelivery((d) => d.paymentUuid === uuid && d.state === 'sending');
    // An answer with a record of its own comes after every record before it is on disk.
    await client.control('clock/advance', { ms: 0 });
    await first.close();
    apps = [];
    const hooks: string[] = [];
    const second = await start(file, hooks);
    const delivered = await second.app.control.waitForDelivery(
      (d) => d.paymentUuid === uuid && d.state === 'delivered',
    );
    expect(delivered.id).toBe(sending.id);
    expect(hooks).toEqual([uuid]);
  });

  it('a redelivery unfinished at the stop is resumed by the next process, under its id, attempts numbered on', async () => {
    const file = join(dir, 'redelivery.log');
    let answered = 0;
    // Answers the first attempt; the redelivery's attempt hangs until the process stops.
    const first = buildNodeMockApp(
      { log: false, store: `file:${file}`, settleDelayMs: 5_000 },
      { webhookReceivers: [() => (answered++ === 0 ? new Response(null, { status: 204 }) : new Promise(() => {}))] },
    );
    apps.push(first);
    await first.ready();
    const client = sandboxClient((r) => first.fetch(r));
    const uuid = paidUuid(await client.pay((await client.generate()).body.data.token))!;
    await client.control('payments/settle', { uuid, outcome: 'success' });
    const { id } = await first.control.waitForDelivery((d) => d.paymentUuid === uuid && d.state === 'delivered');
    await first.control.redeliver(id);
    await first.control.waitForDelivery((d) => d.id === id && d.redeliveries === 1 && d.state === 'sending');
    // An answer with a record of its own comes after every record before it is on disk.
    await client.control('clock/advance', { ms: 0 });
    await first.close();
    apps = [];
    const hooks: string[] = [];
    const second = await start(file, hooks);
    const resumed = await second.app.control.waitForDelivery(
      (d) => d.id === id && d.redeliveries === 1 && d.state === 'delivered',
    );
    expect(resumed.attempts.map((a) => a.number)).toEqual([1, 2]);
    expect(hooks).toEqual([uuid]);
    expect((await second.app.control.deliveries()).map((d) => d.id)).toEqual([id]);
  });

  it('resumes an unfinished delivery to the URL it was made for when the next process lists other URLs', async () => {
    const file = join(dir, 'urls.log');
    // A port nothing listens on: each attempt to it is refused at once, so its delivery waits for a retry.
    const refused = `http://127.0.0.1:${await closedPort()}/hook`;
    const first = await start(file, [], { webhookUrls: [refused] });
    const uuid = paidUuid(await first.client.pay((await first.client.generate()).body.data.token))!;
    await first.client.control('payments/settle', { uuid, outcome: 'success' });
    const { id } = await first.app.control.waitForDelivery(
      (d) => d.url === refused && d.state === 'retry-scheduled' && d.attempts.length === 1,
    );
    await first.app.close();
    apps = [];
    const hooks: string[] = [];
    const second = await start(file, hooks);
    await second.client.control('clock/advance', { ms: 60_000 });
    const resumed = await second.app.control.waitForDelivery((d) => d.id === id && d.attempts.length === 2);
    expect(resumed.url).toBe(refused);
    expect(resumed.attempts.map((a) => a.number)).toEqual([1, 2]);
    // The receiver both processes list had this payment's webhook from the first; nothing is sent to it again.
    expect(hooks).toEqual([]);
  });

  it('refuses a file another live process holds, and says how to fix it', async () => {
    const file = join(dir, 'held.log');
    await start(file, []);
    const second = buildNodeMockApp({ log: false, store: `file:${file}` }, {});
    apps.push(second);
    await expect(second.ready()).rejects.toThrow(/in use by process .*another file/);
  });
});

/** A loopback port free a moment ago: bound, then closed, so a connection to it is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
