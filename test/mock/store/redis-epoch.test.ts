// Replicas on a real Redis share the sandbox clock and its resets (decision 0040): a clock move or a reset through
// one replica holds for the very next request through another, a fee list included; none of the sandbox's changes is
// a record in the log (the journal's aside), a payment and its settlement included; and a payment made before a
// reset is gone for every replica, its own included.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { defaultCredentials, servicePaths } from '../../../src/spec-names.ts';
import { card, payInput } from '../../mock/helpers.ts';
import { createRedisStore, type SandboxStore } from '../../support/mock-internals/store.ts';
import { redisReplica } from '../../support/redis-replica.ts';
import { redisSuite } from '../../support/redis-suite.ts';
import { paidUuid } from '../../support/sandbox-client.ts';

const suite = redisSuite();

const replica = (store: SandboxStore) => redisReplica(suite, store);

const redisOf = (prefix: string) => createRedisStore(suite.url, { keyPrefix: prefix });

const cardInput = { card_number: card.card_number, expiry_month: card.expiry_month, expiry_year: card.expiry_year };
/** A payment with the card account `uid` instead of the card. */
const payWith = (uid: string) => ({ ...payInput(), credit_card: { card_account_uid: uid } });

/** A card account registered on `r` once it is durable. */
async function registered(r: Awaited<ReturnType<typeof replica>>): Promise<string> {
  const uid = r.app.control.registerCardAccount(defaultCredentials.clientId, cardInput);
  await r.app.control.durable();
  return uid;
}

describe('replicas on Redis: one clock, one reset', () => {
  it("a clock move on A expires B's token at B's very next fee list, and a reset on A makes it good again there", async () => {
    const prefix = `ep-${randomUUID()}:`;
    const [a, b] = [await replica(redisOf(prefix)), await replica(redisOf(prefix))];
    const token = (await a.client.generate()).body.data.token as string;
    // B has checked the token: a fee list of a token it knows reads nothing of the log (and B follows none).
    expect([await b.fees(token), await b.fees(token)]).toEqual(['ok', 'ok']);

    expect((await a.client.control('clock/advance', { ms: 601_000 })).status).toBe(200);
    expect(await b.fees(token)).toBe('TOKEN_EXPIRED');
    expect(b.app.control.now() - Date.now()).toBeGreaterThanOrEqual(600_000);

    // The reset rewinds the clock: the token, issued before it, is within its lifetime again.
    expect((await a.client.control('reset')).status).toBe(200);
    expect(await b.fees(token)).toBe('ok');
    expect(b.app.control.now() - Date.now()).toBeLessThan(600_000);
    // A too: its own reset does not bring the old epoch's clock back at its next reading.
    expect(await a.fees(token)).toBe('ok');
    expect(a.app.control.now() - Date.now()).toBeLessThan(600_000);
    // Redis has the move under the epoch it was made in; the reset moved the epoch on.
    expect(await suite.probe.get(`${prefix}epoch`)).toBe('1');
    expect(await suite.probe.get(`${prefix}1:clock`)).toBeNull();
  });

  it('a replica follows Redis back to its first epoch when Redis lost its data, and its clock with it', async () => {
    const prefix = `ep-${randomUUID()}:`;
    const [a, b] = [await replica(redisOf(prefix)), await replica(redisOf(prefix))];
    expect((await a.client.control('reset')).status).toBe(200);
    const before = (await b.client.generate()).body.data.token as string;
    expect((await a.client.control('clock/advance', { ms: 601_000 })).status).toBe(200);
    expect(await b.fees(before)).toBe('TOKEN_EXPIRED');
    // Redis comes back empty (a restart without its data): the epoch key and the clock are gone.
    const keys = await suite.probe.keys(`${prefix}*`);
    if (keys.length > 0) await suite.probe.del(...keys);
    const token = (await b.client.generate()).body.data.token as string;
    expect(await b.fees(token)).toBe('ok');
    expect(b.app.control.now() - Date.now()).toBeLessThan(600_000);
    // A clock move made now, through A, holds on B again.
    expect((await a.client.control('clock/advance', { ms: 601_000 })).status).toBe(200);
    expect(await b.fees(token)).toBe('TOKEN_EXPIRED');
  });

  it('a clock move, a reset, an armed failure, a card account, a payment or its settlement makes no record in the log', async () => {
    const prefix = `ep-${randomUUID()}:`;
    const a = await replica(redisOf(prefix));
    a.app.control.advanceClock(1_000);
    a.app.control.reset();
    a.app.control.failNextRequest(servicePaths.generateToken, 503);
    a.app.control.registerCardAccount(defaultCredentials.clientId, cardInput);
    await a.app.control.durable();
    const token = (await a.client.call('POST', servicePaths.generateToken, {})).status;
    expect(token).toBe(503);
    const paid = await a.client.pay((await a.client.generate()).body.data.token as string);
    expect(paidUuid(paid)).toBeDefined();
    expect((await a.client.control('clock/advance', { ms: 60_000 })).status).toBe(200);
    await a.app.control.durable();
    const entries = (await suite.probe.xrange(`${prefix}log`, '-', '+')) as [string, string[]][];
    const records = entries.map(([, fields]) => JSON.parse(fields[1] ?? '{}') as { t: string; ep?: number });
    expect(records.filter((r) => r.t !== 'jr')).toEqual([]);
    // The payment is the store's, in the epoch the reset started, and settled there.
    expect((await a.app.control.payments()).map((p) => [p.uuid, p.settledOutcome])).toEqual([
      [paidUuid(paid), 'success'],
    ]);
    expect(await suite.probe.exists(`${prefix}1:pay`)).toBe(1);
  });

  it('a payment made on C before a reset on A is gone for every replica: C cannot settle it, none lists it', async () => {
    const prefix = `ep-${randomUUID()}:`;
    const [a, b, c] = [await replica(redisOf(prefix)), await replica(redisOf(prefix)), await replica(redisOf(prefix))];
    const uuid = paidUuid(await c.client.pay((await c.client.generate()).body.data.token as string))!;
    expect((await a.client.control('reset')).status).toBe(200);
    await expect(c.app.control.settlePayment(uuid)).rejects.toThrow(/No payment with uuid/);
    const d = await replica(redisOf(prefix));
    for (const r of [a, b, c, d]) expect(await r.app.control.payments()).toEqual([]);
    // A payment made after the reset is listed everywhere.
    const token = (await d.client.generate()).body.data.token as string;
    const after = paidUuid(await d.client.pay(token, payWith(await registered(d))))!;
    for (const r of [a, b, c, d]) expect((await r.app.control.payments()).map((p) => p.uuid)).toEqual([after]);
  });
});
