// Replicas on a real Redis share one request journal (decision 0040, step 7): a request answered by A is listed by
// B's very next read, with nothing in the log; both replicas' requests share one sequence; B's wait resolves on a
// request to A; a reset empties it for both.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createRedisStore, type SandboxStore, StoreUnavailableError } from '../../support/mock-internals/store.ts';
import { loggedTypes, redisReplica } from '../../support/redis-replica.ts';
import { redisSuite } from '../../support/redis-suite.ts';

const suite = redisSuite();

async function pairOfReplicas() {
  const prefix = `journal-${randomUUID()}:`;
  const a = await redisReplica(suite, createRedisStore(suite.url, { keyPrefix: prefix }));
  const b = await redisReplica(suite, createRedisStore(suite.url, { keyPrefix: prefix }));
  return { prefix, a, b };
}

describe('replicas on Redis: one request journal', () => {
  it("lists A's requests in B's very next read, in one sequence with B's own, and logs no journal record", async () => {
    const { prefix, a, b } = await pairOfReplicas();
    const token = (await a.client.generate()).body.data.token as string;
    expect(await b.fees(token)).toBe('ok');
    expect(await a.fees(token)).toBe('ok');
    const seen = await b.app.control.requests();
    expect(seen.map((e) => [e.seq, e.path, e.operationName])).toEqual([
      [1, '/api/v2/accounting/token/generate-token', undefined],
      [2, '/graphql', 'Fees'],
      [3, '/graphql', 'Fees'],
    ]);
    expect(await a.app.control.requests()).toEqual(seen);
    expect(await b.app.control.cursor()).toBe(3);
    expect((await a.app.control.history()).requests).toMatchObject({ kept: 3, cursor: 3 });
    const page = await b.app.control.requestPage({ limit: 1, path: '/graphql' });
    expect(page).toMatchObject({ order: 'newest-first', next: 3 });
    expect(page.items.map((e) => e.seq)).toEqual([3]);
    const listed = await b.client.read('requests?limit=2');
    expect(listed.body).toMatchObject({ cursor: 3, next: 2 });
    expect(await loggedTypes(suite, prefix)).not.toContain('jr');
  });

  it("A's durable() waits for the journal entries of the requests A answered, so B's next read lists them", async () => {
    const prefix = `journal-${randomUUID()}:`;
    const base = createRedisStore(suite.url, { keyPrefix: prefix });
    const port = base.journalState!();
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // A's journal appends wait at the gate; everything else of A's store goes on.
    const held: SandboxStore = Object.assign(Object.create(base) as SandboxStore, {
      journalState: () => ({
        ...port,
        append: (...args: Parameters<typeof port.append>) => gate.then(() => port.append(...args)),
      }),
    });
    const a = await redisReplica(suite, held);
    const b = await redisReplica(suite, createRedisStore(suite.url, { keyPrefix: prefix }));
    const token = (await a.client.generate()).body.data.token as string;
    expect(await a.fees(token)).toBe('ok');
    let durable = false;
    const done = a.app.control.durable().then(() => {
      durable = true;
    });
    // B's read is a round trip to Redis: by its end a durable() that ignored the journal would have resolved.
    expect(await b.app.control.requests()).toEqual([]);
    expect(durable).toBe(false);
    release();
    await done;
    expect((await b.app.control.requests()).map((e) => e.path)).toEqual([
      '/api/v2/accounting/token/generate-token',
      '/graphql',
    ]);
  });

  it("a wait on B resolves with A's request, and only a request after its cursor", async () => {
    const { a, b } = await pairOfReplicas();
    const token = (await a.client.generate()).body.data.token as string;
    const since = await b.app.control.cursor();
    const waiting = b.app.control.waitForRequest({ path: '/graphql' }, { since, timeoutMs: 10_000 });
    expect(await a.fees(token)).toBe('ok');
    expect(await waiting).toMatchObject({ seq: 2, path: '/graphql' });
    await expect(
      b.app.control.waitForRequest({ path: '/api/v2/accounting/token/generate-token' }, { since: 1, timeoutMs: 100 }),
    ).rejects.toThrow(/No request matched within 100 ms/);
  });

  it('a reset through A empties the journal B reads, and numbering starts at 1 again', async () => {
    const { a, b } = await pairOfReplicas();
    await a.client.generate();
    expect((await a.client.control('reset')).status).toBe(200);
    expect(await b.app.control.requests()).toEqual([]);
    await b.client.generate();
    expect((await a.app.control.requests()).map((e) => e.seq)).toEqual([1]);
  });

  it("answers a wait whose reads the store failed with the store's 503, and a wait that gives up with 408", async () => {
    const prefix = `journal-${randomUUID()}:`;
    const store = createRedisStore(suite.url, { keyPrefix: prefix });
    const port = store.journalState!();
    // The journal's reads fail as a Redis that went away fails them; its appends still land.
    const failing = {
      ...store,
      journalState: () => ({
        ...port,
        entries: () => Promise.reject(new StoreUnavailableError('connection closed')),
      }),
    };
    const { client } = await redisReplica(suite, failing);
    const wait = await client.control('requests/wait', { path: '/never', timeoutMs: 100 });
    expect(wait.status).toBe(503);
    expect(wait.body).toMatchObject({ status: 'ERROR', message: expect.stringMatching(/connection closed/) });
    const { client: healthy } = await redisReplica(suite, createRedisStore(suite.url, { keyPrefix: prefix }));
    expect((await healthy.control('requests/wait', { path: '/never', timeoutMs: 50 })).status).toBe(408);
  });
});
