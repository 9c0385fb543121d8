// Replicas on a real Redis share the card accounts (decision 0040, step 4): an account made through one replica (a
// payment by card, the control API) pays through another's very next request, read from Redis with nothing in the
// log; an account another client made, or one from before a reset, is unknown there as on one mock.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createRedisStore } from '../../support/mock-internals/store.ts';
import { loggedTypes, redisReplica } from '../../support/redis-replica.ts';
import { redisSuite } from '../../support/redis-suite.ts';
import { type Answer, paidUuid } from '../../support/sandbox-client.ts';
import { payInput } from '../helpers.ts';

const suite = redisSuite();

async function pairOfReplicas() {
  const prefix = `cards-${randomUUID()}:`;
  const a = await redisReplica(suite, createRedisStore(suite.url, { keyPrefix: prefix }));
  const b = await redisReplica(suite, createRedisStore(suite.url, { keyPrefix: prefix }));
  const token = (await a.client.generate()).body.data.token as string;
  return { prefix, a, b, token };
}

const byAccount = (uid: string) => {
  const { credit_card: _, ...rest } = payInput();
  return { ...rest, credit_card: { card_account_uid: uid } };
};

const reasonOf = (answer: Answer) => answer.body?.errors?.[0]?.extensions;

describe('replicas on Redis: one set of card accounts', () => {
  it("a payment by card on A makes an account B's very next payment uses, with no card record", async () => {
    const { prefix, a, b, token } = await pairOfReplicas();
    const first = await a.client.pay(token);
    expect(paidUuid(first), JSON.stringify(first.body)).toBeDefined();
    const [payment] = await a.app.control.payments();
    const uid = payment!.card_account_uid;
    expect(JSON.parse((await suite.probe.hget(`${prefix}0:card:test-client`, uid)) ?? '{}')).toMatchObject({
      card_account_uid: uid,
      masked_card_number: payment!.masked_card_number,
    });
    // Never the card number, in the store or anywhere else a replica writes.
    expect(JSON.stringify(await suite.probe.hgetall(`${prefix}0:card:test-client`))).not.toContain('4111111111111111');
    const second = await b.client.pay(token, byAccount(uid));
    expect(paidUuid(second), JSON.stringify(second.body)).toBeDefined();
    expect(await loggedTypes(suite, prefix)).not.toContain('card');
  });

  it('control.registerCardAccount() on A is synchronous; once durable, B pays with the uid', async () => {
    const { a, b, token } = await pairOfReplicas();
    const uid = a.app.control.registerCardAccount('test-client', {
      card_number: '5555555555554444',
      expiry_month: '12',
      expiry_year: '39',
    });
    await a.app.control.durable();
    expect(paidUuid(await b.client.pay(token, byAccount(uid)))).toBeDefined();
  });

  it('an unknown uid, and one from before a reset, are refused on B as one mock refuses them', async () => {
    const { a, b, token } = await pairOfReplicas();
    await a.client.pay(token);
    const uid = (await a.app.control.payments())[0]!.card_account_uid;
    const unknown = await b.client.pay(token, byAccount(randomUUID()));
    expect(reasonOf(unknown)).toMatchObject({ category: 'validation' });
    expect(Object.keys(reasonOf(unknown)?.validation ?? {})).toEqual(['input.credit_card.card_account_uid']);
    expect((await a.client.control('reset')).status).toBe(200);
    const fresh = (await b.client.generate()).body.data.token as string;
    const afterReset = await b.client.pay(fresh, byAccount(uid));
    expect(Object.keys(reasonOf(afterReset)?.validation ?? {})).toEqual(['input.credit_card.card_account_uid']);
  });
});
