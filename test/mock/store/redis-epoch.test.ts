// Replicas on a real Redis share the sandbox clock and its resets (decision 0040, step 2): a clock move or a reset
// through one replica holds for the very next request through another, a fee list included, with nothing read from
// the log; and a change a replica made before a reset it had not seen yet stays out of every replica's view, however
// late its record reaches the log (a card account here: armed failures live in Redis too, step 3).
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

/** The store without its watch: the replica reads the log only when a request asks it to. */
function unwatched(store: SandboxStore): SandboxStore {
  const { watch: _, ...rest } = store;
  return rest;
}

describe('replicas on Redis: one clock, one reset', () => {
  it("a clock move on A expires B's token at B's very next fee list, and a reset on A makes it good again there", async () => {
    const prefix = `ep-${randomUUID()}:`;
    const [a, b] = [await replica(redisOf(prefix)), await replica(unwatched(redisOf(prefix)))];
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

  it('a clock move, a reset or an armed failure makes no record in the log; a card account does, in its epoch', async () => {
    const prefix = `ep-${randomUUID()}:`;
    const a = await replica(redisOf(prefix));
    a.app.control.advanceClock(1_000);
    a.app.control.reset();
    a.app.control.failNextRequest(servicePaths.generateToken, 503);
    a.app.control.registerCardAccount(defaultCredentials.clientId, cardInput);
    await a.app.control.durable();
    const entries = (await suite.probe.xrange(`${prefix}log`, '-', '+')) as [string, string[]][];
    const records = entries.map(([, fields]) => JSON.parse(fields[1] ?? '{}') as { t: string; ep?: number });
    expect(records.map((r) => [r.t, r.ep])).toEqual([['card', 1]]);
  });

  it('a change made on C before a reset it had not seen stays out of every view, though its record lands after it', async () => {
    const prefix = `ep-${randomUUID()}:`;
    const stall = suite.stall(redisOf(prefix));
    const [a, b, c] = [await replica(redisOf(prefix)), await replica(redisOf(prefix)), await replica(stall.store)];
    // C registers a card account; its record waits at C's gate (C stalled) while A resets the sandbox and B reads
    // the reset.
    stall.stallNow();
    const registered = stall.arrived((records) => records.some((r) => r.t === 'card'));
    const uid = c.app.control.registerCardAccount(defaultCredentials.clientId, cardInput);
    await registered;
    expect((await a.client.control('reset')).status).toBe(200);
    expect((await b.client.read('health')).status).toBe(200);
    stall.resume();
    await c.app.control.durable();
    const entries = (await suite.probe.xrange(`${prefix}log`, '-', '+')) as [string, string[]][];
    expect(entries.map(([, fields]) => JSON.parse(fields[1] ?? '{}').ep)).toEqual([0]);

    // The reset empties the card accounts: none of the replicas knows C's, nor does one that starts now; one
    // registered after the reset pays.
    const d = await replica(redisOf(prefix));
    const token = (await d.client.generate()).body.data.token as string;
    for (const r of [b, c, d, a]) expect(paidUuid(await r.client.pay(token, payWith(uid)))).toBeUndefined();
    const after = d.app.control.registerCardAccount(defaultCredentials.clientId, cardInput);
    await d.app.control.durable();
    for (const r of [b, c, d, a]) expect(paidUuid(await r.client.pay(token, payWith(after)))).toBeDefined();
  });
});
