import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createRedisStore,
  type RedisStoreOptions,
  type SandboxStore,
  type StoreRecord,
  StoreUnavailableError,
} from '../../../support/mock-internals/store.ts';
import { redisPerFile } from '../../../support/redis-per-file.ts';
import { startRedisServer } from '../../../support/redis-server.ts';

const { server, opened } = redisPerFile();

/** An open store on the file's Redis; every test gets its own prefix unless it passes one. */
async function openStore(options: RedisStoreOptions = {}, url = server().url): Promise<SandboxStore> {
  const store = createRedisStore(url, { keyPrefix: `t-${randomUUID()}:`, ...options });
  opened.push(store);
  await store.open();
  return store;
}

function record(o: string, n: number, extra: Record<string, unknown> = {}): StoreRecord {
  return { t: 'test.n', o, n, ...extra };
}

async function readAll(store: SandboxStore, from?: string, page = 1000) {
  const all: { position: string; record: StoreRecord }[] = [];
  let position = from;
  for (;;) {
    const batch = await store.readAfter(position, page);
    all.push(...batch);
    if (batch.length < page) return all;
    position = batch.at(-1)?.position;
  }
}

function deferred() {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('createRedisStore: records', () => {
  it('is a shared redis store', async () => {
    const store = await openStore();
    expect(store.kind).toBe('redis');
    expect(store.shared).toBe(true);
  });

  it('reads appended records back in order, after an exclusive position, a page at a time', async () => {
    const store = await openStore();
    expect(await store.readAfter(undefined, 10)).toEqual([]);
    await store.append([record('a', 1), record('a', 2), record('a', 3)]);
    await store.append([]);
    await store.append([record('a', 4, { nested: { card: '424242******4242', list: [1, 2] } })]);

    const first = await store.readAfter(undefined, 2);
    expect(first.map((entry) => entry.record.n)).toEqual([1, 2]);
    const rest = await store.readAfter(first[1]?.position, 10);
    expect(rest.map((entry) => entry.record)).toEqual([
      record('a', 3),
      record('a', 4, { nested: { card: '424242******4242', list: [1, 2] } }),
    ]);
    expect(await store.readAfter(rest[1]?.position, 10)).toEqual([]);
    const positions = [...first, ...rest].map((entry) => entry.position);
    expect(new Set(positions).size).toBe(4);
  });

  it('keeps each append together and in order when two processes append at once', async () => {
    const prefix = `t-${randomUUID()}:`;
    const [a, b] = await Promise.all([openStore({ keyPrefix: prefix }), openStore({ keyPrefix: prefix })]);
    const batches = 40;
    await Promise.all([
      ...Array.from({ length: batches }, (_, i) => a.append([record('a', 2 * i), record('a', 2 * i + 1)])),
      ...Array.from({ length: batches }, (_, i) => b.append([record('b', 2 * i), record('b', 2 * i + 1)])),
    ]);
    const all = await readAll(a, undefined, 7);
    expect(all).toHaveLength(4 * batches);
    expect(await readAll(b)).toEqual(all);
    for (const origin of ['a', 'b']) {
      const mine = all.filter((entry) => entry.record.o === origin).map((entry) => entry.record.n);
      expect(mine).toEqual(Array.from({ length: 2 * batches }, (_, i) => i));
    }
    // One append is one MULTI: its two records are never split by the other process's.
    for (let i = 0; i < all.length; i += 2) {
      expect(all[i]?.record.o).toBe(all[i + 1]?.record.o);
      expect(all[i + 1]?.record.n).toBe((all[i]?.record.n as number) + 1);
    }
  });

  it('keeps sandboxes under different key prefixes apart', async () => {
    const [a, b] = await Promise.all([openStore({ keyPrefix: 'left:' }), openStore({ keyPrefix: 'right:' })]);
    await a.append([record('a', 1)]);
    await b.append([record('b', 1), record('b', 2)]);
    expect((await readAll(a)).map((entry) => entry.record.o)).toEqual(['a']);
    expect((await readAll(b)).map((entry) => entry.record.o)).toEqual(['b', 'b']);
    expect(await a.claim('settle:p1', 'a', 10_000)).toBe(true);
    expect(await b.claim('settle:p1', 'b', 10_000)).toBe(true);
    expect(await a.increment('boot')).toBe(1);
    expect(await b.increment('boot')).toBe(1);
    expect(await a.increment('boot')).toBe(2);
  });

  it('takes the key prefix from the URL when the option does not set one', async () => {
    const fromUrl = createRedisStore(`${server().url}?prefix=from-url:`);
    opened.push(fromUrl);
    await fromUrl.open();
    const sameSandbox = await openStore({ keyPrefix: 'from-url:' });
    await fromUrl.append([record('u', 1)]);
    expect((await readAll(sameSandbox)).map((entry) => entry.record.o)).toEqual(['u']);
    const otherSandbox = await openStore({ keyPrefix: 'elsewhere:' });
    expect(await readAll(otherSandbox)).toEqual([]);
  });

  it('rejects a position it never gave with a message saying what to pass', async () => {
    const store = await openStore();
    const error = await store.readAfter('yesterday', 10).catch((caught: unknown) => caught);
    // Misuse, not an outage: a TypeError, so the mock does not wait for the store to come back.
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/not a position of the Redis store/);
    const cyclic: Record<string, unknown> = { t: 'test.cyclic', o: 'a' };
    cyclic.self = cyclic;
    await expect(store.append([cyclic as StoreRecord])).rejects.toThrow(/record of type "test.cyclic" is not JSON/);
  });
});

describe('createRedisStore: claims and counters', () => {
  it('grants a claim to one owner at a time, renews it for that owner only, releases it for that owner only', async () => {
    const prefix = `t-${randomUUID()}:`;
    const [a, b] = await Promise.all([openStore({ keyPrefix: prefix }), openStore({ keyPrefix: prefix })]);
    expect(await a.claim('settle:p1', 'process-a', 10_000)).toBe(true);
    expect(await b.claim('settle:p1', 'process-b', 10_000)).toBe(false);
    expect(await a.claim('settle:p1', 'process-a', 10_000)).toBe(true);
    await b.release('settle:p1', 'process-b');
    expect(await b.claim('settle:p1', 'process-b', 10_000)).toBe(false);
    await a.release('settle:p1', 'process-a');
    expect(await b.claim('settle:p1', 'process-b', 10_000)).toBe(true);
    expect(await a.claim('settle:p1', 'process-a', 10_000)).toBe(false);
    // Other keys are independent.
    expect(await a.claim('settle:p2', 'process-a', 10_000)).toBe(true);
  });

  it('lets another owner take a claim whose lease lapsed, and a renewal pushes the lapse back', async () => {
    const prefix = `t-${randomUUID()}:`;
    const [a, b] = await Promise.all([openStore({ keyPrefix: prefix }), openStore({ keyPrefix: prefix })]);
    expect(await a.claim('deliver:d1:1', 'process-a', 40)).toBe(true);
    // The renewal replaces the 40 ms lease with a long one: the lapse below would otherwise free it.
    expect(await a.claim('deliver:d1:1', 'process-a', 60_000)).toBe(true);
    expect(await a.claim('deliver:d1:2', 'process-a', 40)).toBe(true);
    // Redis expires keys on its own wall clock; a real pause is the only way to let a lease lapse.
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await b.claim('deliver:d1:1', 'process-b', 10_000)).toBe(false);
    expect(await b.claim('deliver:d1:2', 'process-b', 10_000)).toBe(true);
    // The old owner's release after the lapse does not free the new owner's claim.
    await a.release('deliver:d1:2', 'process-a');
    expect(await a.claim('deliver:d1:2', 'process-a', 10_000)).toBe(false);
  });

  it('renews a claim only for the owner still holding it, and never takes a free key back', async () => {
    const prefix = `t-${randomUUID()}:`;
    const [a, b] = await Promise.all([openStore({ keyPrefix: prefix }), openStore({ keyPrefix: prefix })]);
    expect(await a.renew?.('settle:p1', 'process-a', 10_000)).toBe(false);
    expect(await a.claim('settle:p1', 'process-a', 10_000)).toBe(true);
    expect(await a.renew?.('settle:p1', 'process-a', 10_000)).toBe(true);
    expect(await b.renew?.('settle:p1', 'process-b', 10_000)).toBe(false);
    await a.release('settle:p1', 'process-a');
    // A stalled holder waking up after its claim is gone: the renewal says so instead of taking it again.
    expect(await a.renew?.('settle:p1', 'process-a', 10_000)).toBe(false);
    expect(await b.claim('settle:p1', 'process-b', 10_000)).toBe(true);
  });

  it('appends a fenced batch in order, refusing only the records whose claim the owner lost', async () => {
    const prefix = `t-${randomUUID()}:`;
    const [a, b] = await Promise.all([openStore({ keyPrefix: prefix }), openStore({ keyPrefix: prefix })]);
    expect(await a.claim('settle:held', 'process-a', 10_000)).toBe(true);
    expect(await b.claim('settle:taken', 'process-b', 10_000)).toBe(true);
    const batch = [record('a', 1), record('a', 2), record('a', 3), record('a', 4), record('a', 5)];
    const fences = [undefined, 'settle:held', 'settle:taken', 'settle:free', 'settle:held'];
    const answer = await a.appendFenced!(batch, fences, 'process-a');
    expect(answer.lost).toEqual([2, 3]);
    const kept = await readAll(b);
    expect(kept.map((entry) => entry.record.n)).toEqual([1, 2, 5]);
    expect(answer.position).toBe(kept.at(-1)?.position);
    // Nothing fenced held: nothing appended, no position.
    expect(await a.appendFenced!([record('a', 6)], ['settle:taken'], 'process-a')).toEqual({
      position: undefined,
      lost: [0],
    });
  });

  it('counts up once per increment across processes', async () => {
    const prefix = `t-${randomUUID()}:`;
    const [a, b] = await Promise.all([openStore({ keyPrefix: prefix }), openStore({ keyPrefix: prefix })]);
    const values = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).increment('boot')));
    expect([...values].sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(await a.increment('other')).toBe(1);
  });
});

describe('createRedisStore: watch', () => {
  it('wakes a watcher when another process appends, not for its own appends, and stops on unsubscribe', async () => {
    const prefix = `t-${randomUUID()}:`;
    const [a, b] = await Promise.all([openStore({ keyPrefix: prefix }), openStore({ keyPrefix: prefix })]);
    let calls = 0;
    let woken = deferred();
    const unsubscribe = b.watch?.(() => {
      calls += 1;
      woken.resolve();
    });
    expect(unsubscribe).toBeTypeOf('function');
    // The follow loop reads from the stream's end as of its first XREAD: wait until its connection blocks.
    await waitForBlockedClient();
    await b.append([record('b', 1)]);
    await a.append([record('a', 1)]);
    await woken.promise;
    expect(calls).toBe(1);
    woken = deferred();
    await a.append([record('a', 2)]);
    await woken.promise;
    expect(calls).toBe(2);
    unsubscribe?.();
    await waitForBlockedClient(false);
  });
});

describe('createRedisStore: watch before open', () => {
  it('starts a watcher added before open once the store opens, and never throws', async () => {
    const prefix = `t-${randomUUID()}:`;
    const early = createRedisStore(server().url, { keyPrefix: prefix });
    opened.push(early);
    let woken = deferred();
    const unsubscribe = early.watch?.(() => woken.resolve());
    await early.open();
    await waitForBlockedClient();
    const writer = await openStore({ keyPrefix: prefix });
    await writer.append([record('w', 1)]);
    await woken.promise;
    unsubscribe?.();
    await waitForBlockedClient(false);
    await early.close();
    woken = deferred();
    expect(early.watch?.(() => woken.resolve())).toBeTypeOf('function');
  });
});

/**
 * Waits until some client of the server is blocked in XREAD (the follow loop's connection is up and reading), or
 * with `blocked` false until none is (the loop's connection is closed).
 */
async function waitForBlockedClient(blocked = true): Promise<void> {
  const { Redis } = await import('ioredis');
  const probe = new Redis(server().url, { lazyConnect: true, protocol: 2 });
  await probe.connect();
  try {
    // Polls Redis's own view of its clients; the deadline only turns a hang into a clear failure.
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const clients = (await probe.call('CLIENT', 'LIST')) as string;
      if (/cmd=xread/.test(clients) === blocked) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(blocked ? 'the follow loop never blocked on XREAD' : 'the follow loop kept reading');
  } finally {
    probe.disconnect();
  }
}

describe('createRedisStore: compaction', () => {
  it('replaces the records up to a position with a snapshot; later positions stay valid, earlier ones read again from the start', async () => {
    const prefix = `t-${randomUUID()}:`;
    const [store, other] = await Promise.all([openStore({ keyPrefix: prefix }), openStore({ keyPrefix: prefix })]);
    await store.append([1, 2, 3, 4, 5].map((n) => record('a', n)));
    const before = await readAll(store);
    const upTo = before[2]?.position as string;
    await store.compact([record('a', 103, { snapshot: true }), record('a', 104, { snapshot: true })], upTo);

    const after = await readAll(other);
    expect(after.map((entry) => entry.record.n)).toEqual([103, 104, 4, 5]);
    // Records after the compaction point keep their positions: a reader there goes on as if nothing happened.
    expect(after.slice(2).map((entry) => entry.position)).toEqual(before.slice(3).map((entry) => entry.position));
    expect((await store.readAfter(before[3]?.position, 10)).map((entry) => entry.record.n)).toEqual([5]);
    expect(await store.readAfter(upTo, 10)).toEqual(after.slice(2));
    // A reader behind the compaction point gets the snapshot first (a position of 0-1: rebuild the view).
    const behind = await store.readAfter(before[0]?.position, 10);
    expect(behind.map((entry) => entry.record.n)).toEqual([103, 104, 4, 5]);
    expect(behind[0]?.position.startsWith('0-1')).toBe(true);
    // Paging through the snapshot itself works.
    expect((await store.readAfter(after[0]?.position, 1)).map((entry) => entry.record.n)).toEqual([104]);

    // New appends land after everything, and a second compaction invalidates the old snapshot's positions.
    await other.append([record('b', 6)]);
    const tail = await readAll(store, before[4]?.position);
    expect(tail.map((entry) => entry.record.n)).toEqual([6]);
    await store.compact([record('a', 200)], tail[0]?.position as string);
    expect((await readAll(store)).map((entry) => entry.record.n)).toEqual([200]);
    expect((await store.readAfter(after[0]?.position, 10)).map((entry) => entry.record.n)).toEqual([200]);
    expect(await store.readAfter(tail[0]?.position, 10)).toEqual([]);
    await store.append([record('a', 7)]);
    expect((await store.readAfter(tail[0]?.position, 10)).map((entry) => entry.record.n)).toEqual([7]);
  });

  it('compacts everything to an empty snapshot and keeps ids increasing afterwards', async () => {
    const store = await openStore();
    await store.append([record('a', 1), record('a', 2)]);
    const [, last] = await readAll(store);
    await store.compact([], last?.position as string);
    expect(await readAll(store)).toEqual([]);
    await store.append([record('a', 3)]);
    const [next] = await store.readAfter(last?.position, 10);
    expect(next?.record.n).toBe(3);
  });
});

describe('createRedisStore: covered records', () => {
  it("marks the compactor's own records up to covers as covered for a reader from the snapshot, whatever its page size", async () => {
    const prefix = `t-${randomUUID()}:`;
    const [compactor, writer] = await Promise.all([openStore({ keyPrefix: prefix }), openStore({ keyPrefix: prefix })]);
    await writer.append([record('w', 1)]);
    const point = (await readAll(compactor)).at(-1)?.position as string;
    // After the point, the compactor's own records (already in its snapshot) interleave with another's: a page of a
    // new reader can end on another's record, so its next position is a stream id of no covered record.
    for (const n of [1, 2, 3]) {
      await compactor.append([record('c', n, { clk: true })]);
      await writer.append([record('w', n + 1)]);
    }
    const all = await readAll(writer);
    const covers = all.filter((entry) => entry.record.o === 'c').at(-1)?.position as string;
    await compactor.append([record('c', 4)]);
    const snapshot = [record('c', 100, { snapshot: true }), record('c', 101, { snapshot: true })];
    expect(await compactor.compact(snapshot, point, { covers: { origin: 'c', upTo: covers } })).toBe(true);
    const want = ['c100', 'c101', 'covered', 'w2', 'covered', 'w3', 'covered', 'w4', 'c4'];
    for (const page of [1, 2, 3, 4, 1000]) {
      const read = (await readAll(compactor, undefined, page)).map((entry) =>
        entry.record.t === 'snap.covered' ? 'covered' : `${entry.record.o}${entry.record.n}`,
      );
      expect(read, `page size ${page}`).toEqual(want);
    }
    // Why: every position up to covers, another's records' included, carries the generation the reader came through.
    const positions = (await readAll(compactor, undefined, 1)).map((entry) => entry.position);
    expect(positions.slice(0, 7).every((position) => /:1$/.test(position))).toBe(true);
    expect(positions.slice(7).every((position) => /^\d+-\d+$/.test(position))).toBe(true);
    // A reader that never read the snapshot (it was at the point) applies those records as the changes they are.
    const onward = (await readAll(writer, point, 1)).map((entry) => `${entry.record.o}${entry.record.n}`);
    expect(onward).toEqual(['c1', 'w2', 'c2', 'w3', 'c3', 'w4', 'c4']);
  });
});

describe('createRedisStore: compaction under load', () => {
  it('compacts an empty store to a snapshot', async () => {
    const store = await openStore();
    await store.compact([record('a', 1), record('a', 2)], '0-0');
    expect((await readAll(store)).map((entry) => entry.record.n)).toEqual([1, 2]);
    await store.append([record('a', 3)]);
    expect((await readAll(store)).map((entry) => entry.record.n)).toEqual([1, 2, 3]);
  });

  it('loses no append made by another process while it compacts', async () => {
    const prefix = `t-${randomUUID()}:`;
    const [compactor, writer] = await Promise.all([openStore({ keyPrefix: prefix }), openStore({ keyPrefix: prefix })]);
    await writer.append(Array.from({ length: 20 }, (_, i) => record('w', i)));
    const upTo = (await readAll(compactor)).at(-1)?.position as string;
    const appends = Array.from({ length: 60 }, (_, i) => writer.append([record('w', 20 + i)]));
    await compactor.compact([record('c', 0, { snapshotOf: 20 })], upTo);
    await Promise.all(appends);
    const after = (await readAll(writer)).map((entry) => `${entry.record.o}${entry.record.n}`);
    expect(after).toEqual(['c0', ...Array.from({ length: 60 }, (_, i) => `w${20 + i}`)]);
  });
});

describe('createRedisStore: failures', () => {
  it('refuses a URL that is not redis:// or rediss://', () => {
    expect(() => createRedisStore('http://127.0.0.1:6379')).toThrow(/starts with redis:\/\/ or rediss:\/\//);
  });

  it('rejects open with StoreUnavailableError when nothing listens, without the password in the message', async () => {
    const stopped = await startRedisServer();
    const url = `redis://user:s3cret@127.0.0.1:${stopped.port}`;
    await stopped.close();
    const store = createRedisStore(url);
    const error = await store.open().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as StoreUnavailableError).reason).toMatch(
      /^the Redis store at redis:\/\/user:\*\*\*@127\.0\.0\.1:\d+ did not answer \(.+\); check that Redis is running and reachable$/,
    );
    expect((error as Error).message).not.toContain('s3cret');
    await store.close();
  });

  it('rejects every call after close', async () => {
    const store = await openStore();
    await store.close();
    await expect(store.append([record('a', 1)])).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(store.increment('boot')).rejects.toThrow(/^the Redis store at redis:\/\/127\.0\.0\.1:\d+ is closed$/);
  });
});

describe('createRedisStore: a hung Redis', () => {
  it('fails a call after the command timeout while Redis hangs, and works again when it answers', async () => {
    const hung = await startRedisServer();
    try {
      const store = await openStore({ commandTimeoutMs: 200 }, hung.url);
      await store.append([record('a', 1)]);
      hung.pause();
      const error = await store.append([record('a', 2)]).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect((error as StoreUnavailableError).reason).toMatch(/did not answer \(.*timed out/i);
      // The write went out before Redis stopped answering: the store cannot say it was not kept.
      expect((error as StoreUnavailableError).mayHaveApplied).toBe(true);
      hung.resume();
      // And it was: Redis applies the timed-out command once it thaws; the store answers again after it.
      await store.append([record('a', 3)]);
      const numbers = (await readAll(store)).map((entry) => entry.record.n);
      expect(numbers).toEqual([1, 2, 3]);
    } finally {
      await Promise.all(opened.splice(0).map((store) => store.close()));
      await hung.close();
    }
  });
});

describe('createRedisStore: a Redis restart', () => {
  it('loses no acknowledged append, refuses during the outage, and recovers without being reopened', async () => {
    const durable = await startRedisServer({ appendfsync: 'always' });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const store = await openStore({ keyPrefix: 'restart:' }, durable.url);
      const unsubscribe = store.watch?.(() => {});
      const acknowledged: number[] = [];
      const refusals: unknown[] = [];
      let n = 0;
      // Four writers in flight, like requests; each append's outcome is recorded.
      async function append(): Promise<void> {
        n += 1;
        const mine = n;
        try {
          await store.append([record('a', mine)]);
          acknowledged.push(mine);
        } catch (error) {
          refusals.push(error);
        }
      }
      const writers = (count: number) =>
        Promise.all(
          Array.from({ length: 4 }, async () => {
            for (let i = 0; i < count; i += 1) await append();
          }),
        );

      await writers(50);
      // Kill the server while appends are in flight.
      const burst = writers(50);
      await durable.stop('SIGKILL');
      await burst;
      const inFlight = refusals.length;
      await writers(5);
      expect(refusals.length).toBeGreaterThan(0);
      // Appends made once the connection was known lost were never sent: the store says nothing was kept.
      expect(refusals.length).toBeGreaterThan(inFlight);
      for (const refusal of refusals.slice(inFlight)) {
        expect((refusal as StoreUnavailableError).mayHaveApplied).toBe(false);
      }
      await durable.start();
      // The client reconnects on its own; wait for the first acknowledged append (bounded by the appends made).
      let recovered = false;
      for (let i = 0; i < 400 && !recovered; i += 1) {
        const before = acknowledged.length;
        await append();
        recovered = acknowledged.length > before;
        if (!recovered) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(recovered).toBe(true);
      await writers(25);

      const stored = new Set((await readAll(store)).map((entry) => entry.record.n as number));
      const lost = acknowledged.filter((value) => !stored.has(value));
      console.log(
        `redis restart: ${acknowledged.length} appends acknowledged, ${lost.length} lost, ${refusals.length} refused while down`,
      );
      expect(lost).toEqual([]);
      for (const refusal of refusals) {
        expect(refusal).toBeInstanceOf(StoreUnavailableError);
        expect((refusal as StoreUnavailableError).reason).toMatch(
          /^the Redis store at redis:\/\/127\.0\.0\.1:\d+ did not answer \(.+\); check that Redis is running and reachable$/,
        );
      }
      unsubscribe?.();
      // Give pending rejections one turn of the event loop to surface.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await Promise.all(opened.splice(0).map((store) => store.close()));
      await durable.close();
    }
  });
});
