// Replicas on a real Redis share the armed failures (decision 0040, step 3): a failure armed through one replica
// answers the very next request through another, a fee list of a token it knows included, with nothing read from
// the log; each use is taken once in Redis, whichever replica answers and however long one stalls; a reset drops
// what was armed before it.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { servicePaths } from '../../../src/spec-names.ts';
import { createRedisStore, type SandboxStore } from '../../support/mock-internals/store.ts';
import { loggedTypes, redisReplica } from '../../support/redis-replica.ts';
import { redisSuite } from '../../support/redis-suite.ts';

const suite = redisSuite();

const replica = (store: SandboxStore) => redisReplica(suite, store);

const redisOf = (prefix: string) => createRedisStore(suite.url, { keyPrefix: prefix });

/** Two replicas on one sandbox (B follows no log) and a token both have checked once. */
async function pairOfReplicas() {
  const prefix = `fl-${randomUUID()}:`;
  const [a, b] = [await replica(redisOf(prefix)), await replica(redisOf(prefix))];
  const token = (await a.client.generate()).body.data.token as string;
  expect([await a.fees(token), await b.fees(token)]).toEqual(['ok', 'ok']);
  return { prefix, a, b, token };
}

const arm = (on: { client: { control(path: string, body?: unknown): Promise<{ status: number }> } }, body: object) =>
  on.client.control('fail-next', body).then((answer) => expect(answer.status).toBe(200));

describe('replicas on Redis: one set of armed failures', () => {
  it("a failure armed on A answers B's very next fee list and REST call, with no record and no claim", async () => {
    const { prefix, a, b, token } = await pairOfReplicas();
    await arm(a, { path: servicePaths.graphql, status: 503 });
    expect(await suite.probe.hget(`${prefix}0:fail`, servicePaths.graphql)).toBe('503 1');
    expect(await b.fees(token)).toBe('INTERNAL_SERVER_ERROR');
    expect(await a.fees(token)).toBe('ok');
    expect(await suite.probe.hlen(`${prefix}0:fail`)).toBe(0);

    await arm(a, { path: servicePaths.generateToken, status: 429, message: 'slow down' });
    const refused = await b.client.generate();
    expect([refused.status, refused.body.message]).toEqual([429, 'slow down']);
    expect((await b.client.generate()).status).toBe(200);
    expect(await loggedTypes(suite, prefix)).not.toContain('fail');
    expect(await loggedTypes(suite, prefix)).not.toContain('take');
    expect(await suite.probe.keys(`${prefix}claim:fail:*`)).toEqual([]);
  });

  it('times: 2 armed on A gives exactly two failed answers across A and B', async () => {
    const { a, b, token } = await pairOfReplicas();
    await arm(a, { path: servicePaths.graphql, status: 500, times: 2 });
    const answers = [await b.fees(token), await a.fees(token), await b.fees(token), await a.fees(token)];
    expect(answers).toEqual(['INTERNAL_SERVER_ERROR', 'INTERNAL_SERVER_ERROR', 'ok', 'ok']);

    // At the same instant too: eight calls over both replicas, two of them failed.
    await arm(a, { path: servicePaths.generateToken, status: 500, times: 2 });
    const burst = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? b : a).client.generate()));
    expect(burst.map((x) => x.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 500, 500]);
  });

  it('control.failNextRequest() is synchronous: the next answer here and control.durable() wait for its write', async () => {
    const { prefix, a, b, token } = await pairOfReplicas();
    a.app.control.failNextRequest(servicePaths.graphql, 502);
    expect(await a.fees(token)).toBe('INTERNAL_SERVER_ERROR');
    a.app.control.failNextRequest(servicePaths.graphql, 400, { message: 'bad day' });
    await a.app.control.durable();
    expect(await suite.probe.hget(`${prefix}0:fail`, servicePaths.graphql)).toBe('400 1 bad day');
    expect(await b.fees(token)).toBe('BAD_REQUEST');
  });

  it('a reset on A drops a failure armed before it, on every replica', async () => {
    const { prefix, a, b, token } = await pairOfReplicas();
    await arm(a, { path: servicePaths.graphql, status: 503, times: 5 });
    await arm(b, { path: servicePaths.generateToken, status: 503, times: 5 });
    expect(await suite.probe.hlen(`${prefix}0:fail`)).toBe(2);
    // Synchronous calls: the reset's write goes after the arm's, both in the background.
    a.app.control.failNextRequest(servicePaths.refreshToken, 503);
    a.app.control.reset();
    await a.app.control.durable();
    expect(await suite.probe.exists(`${prefix}0:fail`)).toBe(0);
    expect(await suite.probe.exists(`${prefix}1:fail`)).toBe(0);
    for (const r of [b, a]) expect((await r.client.generate()).status).toBe(200);
    expect([await b.fees(token), await a.fees(token)]).toEqual(['ok', 'ok']);
  });

  it('a stalled replica does not use a failure another replica used meanwhile', async () => {
    const prefix = `fl-${randomUUID()}:`;
    const stall = suite.stall(redisOf(prefix));
    const [a, b, c] = [await replica(redisOf(prefix)), await replica(redisOf(prefix)), await replica(stall.store)];
    const token = (await a.client.generate()).body.data.token as string;
    expect([await b.fees(token), await c.fees(token)]).toEqual(['ok', 'ok']);
    await arm(a, { path: servicePaths.graphql, status: 503 });
    // C's fee list waits at its gate (C stopped) while B answers one: the use is B's.
    stall.stallNow();
    const late = c.fees(token);
    expect(await b.fees(token)).toBe('INTERNAL_SERVER_ERROR');
    stall.resume();
    expect(await late).toBe('ok');
    expect([await a.fees(token), await b.fees(token), await c.fees(token)]).toEqual(['ok', 'ok', 'ok']);
  });
});
