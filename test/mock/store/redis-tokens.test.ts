// Two replicas on one real Redis hold one token state (decision 0040): a generate, refresh, revoke, revoke-all or
// reset through one replica holds for the very next request through the other, fee lists included (a fee list reads
// no other shared state, and used to be answered from the replica's own view once it had seen the token).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { MockOptions } from '../../../src/mock/options.ts';
import { createRedisStore } from '../../support/mock-internals/store.ts';
import { redisReplica } from '../../support/redis-replica.ts';
import { redisSuite } from '../../support/redis-suite.ts';

const suite = redisSuite();

const replica = (prefix: string, options: Partial<MockOptions> = {}) =>
  redisReplica(suite, createRedisStore(suite.url, { keyPrefix: prefix }), options);

async function pair(of: Awaited<ReturnType<typeof replica>>) {
  const answer = await of.client.generate();
  expect(answer.status).toBe(200);
  return answer.body.data as { token: string; refresh_token: string };
}

describe('replicas on Redis: one token state', () => {
  it('a token revoked on A is refused by the next fee list on B, which had accepted it just before', async () => {
    const prefix = `tk-${randomUUID()}:`;
    const [a, b] = [await replica(prefix), await replica(prefix)];
    const { token } = await pair(a);
    expect(await b.fees(token)).toBe('ok');
    expect(await b.fees(token)).toBe('ok');
    expect((await a.client.revoke(token)).body.data).toEqual({ revoked: 'token', refresh_tokens: 0 });
    expect(await b.fees(token)).toBe('TOKEN_REVOKED');
    expect(await a.fees(token)).toBe('TOKEN_REVOKED');
  });

  it('a revoke-all on A reaches every token and refresh token of the client on B at once', async () => {
    const prefix = `tk-${randomUUID()}:`;
    const [a, b] = [await replica(prefix), await replica(prefix)];
    const first = await pair(a);
    const second = await pair(b);
    expect([await b.fees(first.token), await b.fees(second.token)]).toEqual(['ok', 'ok']);
    expect((await a.client.revoke()).body.data).toEqual({ revoked: 'client', refresh_tokens: 2 });
    expect([await b.fees(first.token), await b.fees(second.token)]).toEqual(['TOKEN_REVOKED', 'TOKEN_REVOKED']);
    expect((await b.client.refresh(second.refresh_token)).status).toBe(401);
    // A pair issued after the revoke-all, on either replica, is good on both.
    const after = await pair(b);
    expect([await a.fees(after.token), await b.fees(after.token)]).toEqual(['ok', 'ok']);
  });

  it('a refresh token spent on A is unknown on B, and the new pair works on B', async () => {
    const prefix = `tk-${randomUUID()}:`;
    const [a, b] = [await replica(prefix), await replica(prefix)];
    const first = await pair(a);
    const refreshed = await a.client.refresh(first.refresh_token);
    expect(refreshed.status).toBe(200);
    const again = await b.client.refresh(first.refresh_token);
    expect(again.status).toBe(401);
    expect(again.body.message).toMatch(/unknown or already used/);
    expect(await b.fees(refreshed.body.data.token)).toBe('ok');
    expect((await b.client.refresh(refreshed.body.data.refresh_token)).status).toBe(200);
  });

  it('generate-once holds across replicas when the ledger refuses a repeat', async () => {
    const prefix = `tk-${randomUUID()}:`;
    const once = { assumptions: { repeatGenerateToken: 'reject' } } as Partial<MockOptions>;
    const [a, b] = [await replica(prefix, once), await replica(prefix, once)];
    await pair(a);
    const repeat = await b.client.generate();
    expect(repeat.status).toBe(401);
    expect(repeat.body.message).toMatch(/already called/);
  });

  it('a reset on A: B forgets refresh tokens and revocations at once, and a revoke-all after it still reaches older tokens', async () => {
    const prefix = `tk-${randomUUID()}:`;
    const [a, b] = [await replica(prefix), await replica(prefix)];
    const old = await pair(a);
    await a.client.revoke();
    const kept = await pair(a);
    const revoked = await pair(a);
    await a.client.revoke(revoked.token);
    // B has checked each of them once: a fee list of a token it knows reads nothing more of the log.
    expect([await b.fees(old.token), await b.fees(kept.token), await b.fees(revoked.token)]).toEqual([
      'TOKEN_REVOKED',
      'ok',
      'TOKEN_REVOKED',
    ]);

    expect((await a.client.control('reset')).status).toBe(200);
    // The ledger's "Reset and tokens": revocations go, tokens issued before stay valid, refresh tokens are forgotten.
    expect([await b.fees(old.token), await b.fees(kept.token), await b.fees(revoked.token)]).toEqual([
      'ok',
      'ok',
      'ok',
    ]);
    expect((await b.client.refresh(kept.refresh_token)).status).toBe(401);
    // The highest generation survives the reset: a revoke-all after it reaches the tokens of before.
    await b.client.revoke();
    expect([await a.fees(old.token), await a.fees(kept.token)]).toEqual(['TOKEN_REVOKED', 'TOKEN_REVOKED']);
  });

  it('after a reset, revoking a newer token of the same jti on A keeps the older one revoked on B', async () => {
    const prefix = `tk-${randomUUID()}:`;
    const [a, b] = [await replica(prefix), await replica(prefix)];
    const older = await pair(a);
    expect((await a.client.control('reset')).status).toBe(200);
    // A later exp: the newer token differs from the older in its exp alone (A's id source restarted with the reset).
    expect((await a.client.control('clock/advance', { ms: 5_000 })).status).toBe(200);
    const newer = await pair(a);
    const jti = (t: string) => JSON.parse(Buffer.from(t.split('.')[1] as string, 'base64url').toString()).jti;
    expect(jti(newer.token)).toBe(jti(older.token));
    await a.client.revoke(older.token);
    await a.client.revoke(newer.token);
    expect([await b.fees(older.token), await b.fees(newer.token)]).toEqual(['TOKEN_REVOKED', 'TOKEN_REVOKED']);
  });

  it('control.issueToken() on A is good on B once control.durable() resolves, even signed before a revoke-all A had not read', async () => {
    const prefix = `tk-${randomUUID()}:`;
    const [a, b] = [await replica(prefix), await replica(prefix)];
    await pair(b);
    await b.client.revoke();
    const issued = a.app.control.issueToken('test-client');
    await a.app.control.durable();
    expect(await b.fees(issued.token)).toBe('ok');
    expect((await b.client.refresh(issued.refresh_token)).status).toBe(200);
  });

  it('a token is checked against Redis on every request: no token record goes to the log', async () => {
    const prefix = `tk-${randomUUID()}:`;
    const a = await replica(prefix);
    const { token, refresh_token } = await pair(a);
    await a.client.refresh(refresh_token);
    await a.client.revoke(token);
    await a.client.revoke();
    await a.app.control.durable();
    const entries = (await suite.probe.xrange(`${prefix}log`, '-', '+')) as [string, string[]][];
    const types = entries.map(([, fields]) => (JSON.parse(fields[1] ?? '{}') as { t: string }).t);
    expect(types.filter((t) => t.startsWith('tk.'))).toEqual([]);
  });

  it("a token check or change that cannot reach Redis answers 503 in the path's shape, not a 500", async () => {
    const prefix = `tk-${randomUUID()}:`;
    const a = await replica(prefix);
    const { token, refresh_token } = await pair(a);
    expect(await a.fees(token)).toBe('ok');
    await a.store.close();
    expect(await a.fees(token)).toBe('STORE_UNAVAILABLE');
    for (const answer of [await a.client.generate(), await a.client.refresh(refresh_token), await a.client.revoke()]) {
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({ status: 'ERROR', message: expect.stringMatching(/state store/) });
    }
  });

  it('a client keeps at most 1,000 unused refresh tokens in Redis, the oldest going first, whichever replica issued them', async () => {
    const prefix = `tk-${randomUUID()}:`;
    const [a, b] = [await replica(prefix), await replica(prefix)];
    // The first is in Redis before any other, so it is the oldest; the other 1,000 come from both replicas at once.
    const issued = [a.app.control.issueToken('test-client')];
    await a.app.control.durable();
    for (let i = 1; i <= 1_000; i++) issued.push((i % 2 === 0 ? a : b).app.control.issueToken('test-client'));
    await Promise.all([a.app.control.durable(), b.app.control.durable()]);
    expect((await a.client.refresh(issued[0]!.refresh_token)).status).toBe(401);
    expect((await b.client.refresh(issued[1]!.refresh_token)).status).toBe(200);
    expect((await a.client.revoke()).body.data).toEqual({ revoked: 'client', refresh_tokens: 1_000 });
  });
});
