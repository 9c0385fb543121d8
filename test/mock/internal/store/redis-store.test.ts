import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createRedisStore,
  type RedisStoreOptions,
  type SharedStateStore,
  StoreUnavailableError,
} from '../../../support/mock-internals/store.ts';
import { redisPerFile } from '../../../support/redis-per-file.ts';
import { startRedisServer } from '../../../support/redis-server.ts';

const { server, opened } = redisPerFile();

/** An open store on the file's Redis; every test gets its own prefix unless it passes one. */
async function openStore(options: RedisStoreOptions = {}, url = server().url): Promise<SharedStateStore> {
  const store = createRedisStore(url, { keyPrefix: `t-${randomUUID()}:`, ...options });
  opened.push(store);
  await store.open();
  return store;
}

describe('createRedisStore: the sandbox under a prefix', () => {
  it('is a redis store holding every part of the sandbox', async () => {
    const store = await openStore();
    expect(store.kind).toBe('redis');
    expect(await store.clockState().read()).toEqual({ epoch: 0, clockMs: 0 });
  });

  it('keeps sandboxes under different key prefixes apart', async () => {
    const [a, b] = await Promise.all([openStore({ keyPrefix: 'left:' }), openStore({ keyPrefix: 'right:' })]);
    await a.clockState().advance(1_000);
    expect((await b.clockState().read()).clockMs).toBe(0);
    expect(await a.increment('boot')).toBe(1);
    expect(await b.increment('boot')).toBe(1);
    expect(await a.increment('boot')).toBe(2);
  });

  it('takes the key prefix from the URL when the option does not set one', async () => {
    const fromUrl = createRedisStore(`${server().url}?prefix=from-url:`);
    opened.push(fromUrl);
    await fromUrl.open();
    const sameSandbox = await openStore({ keyPrefix: 'from-url:' });
    await fromUrl.clockState().advance(5);
    expect((await sameSandbox.clockState().read()).clockMs).toBe(5);
    const otherSandbox = await openStore({ keyPrefix: 'elsewhere:' });
    expect((await otherSandbox.clockState().read()).clockMs).toBe(0);
  });

  it('counts up once per increment across processes', async () => {
    const prefix = `t-${randomUUID()}:`;
    const [a, b] = await Promise.all([openStore({ keyPrefix: prefix }), openStore({ keyPrefix: prefix })]);
    const values = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).increment('boot')));
    expect([...values].sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(await a.increment('other')).toBe(1);
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
    await expect(store.clockState().advance(1)).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(store.increment('boot')).rejects.toThrow(/^the Redis store at redis:\/\/127\.0\.0\.1:\d+ is closed$/);
  });
});

describe('createRedisStore: a hung Redis', () => {
  it('fails a call after the command timeout while Redis hangs, and works again when it answers', async () => {
    const hung = await startRedisServer();
    try {
      const store = await openStore({ commandTimeoutMs: 200 }, hung.url);
      expect(await store.increment('n')).toBe(1);
      hung.pause();
      const error = await store.increment('n').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect((error as StoreUnavailableError).reason).toMatch(/did not answer \(.*timed out/i);
      hung.resume();
      // Redis applies the timed-out command once it thaws; the store answers again after it.
      expect(await store.increment('n')).toBe(3);
    } finally {
      await Promise.all(opened.splice(0).map((store) => store.close()));
      await hung.close();
    }
  });
});

describe('createRedisStore: a Redis restart', () => {
  it('loses no acknowledged change, refuses during the outage, and recovers without being reopened', async () => {
    const durable = await startRedisServer({ appendfsync: 'always' });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const store = await openStore({ keyPrefix: 'restart:' }, durable.url);
      const clock = store.clockState();
      let acknowledged = 0;
      const refusals: unknown[] = [];
      // Four writers in flight, like requests; each clock move's outcome is counted.
      async function move(): Promise<void> {
        try {
          await clock.advance(1);
          acknowledged += 1;
        } catch (error) {
          refusals.push(error);
        }
      }
      const writers = (count: number) =>
        Promise.all(
          Array.from({ length: 4 }, async () => {
            for (let i = 0; i < count; i += 1) await move();
          }),
        );

      await writers(50);
      // Kill the server while moves are in flight.
      const burst = writers(50);
      await durable.stop('SIGKILL');
      await burst;
      const inFlight = refusals.length;
      await writers(5);
      // Moves made once the connection was known lost were never sent: the store says nothing was kept.
      expect(refusals.length).toBeGreaterThan(inFlight);
      for (const refusal of refusals.slice(inFlight)) {
        expect((refusal as StoreUnavailableError).mayHaveApplied).toBe(false);
      }
      await durable.start();
      // The client reconnects on its own; wait for the first acknowledged move (bounded by the moves made).
      let recovered = false;
      for (let i = 0; i < 400 && !recovered; i += 1) {
        const before = acknowledged;
        await move();
        recovered = acknowledged > before;
        if (!recovered) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(recovered).toBe(true);
      await writers(25);

      // Every acknowledged move is in the clock (a move in flight at the kill may be there too).
      expect((await clock.read()).clockMs).toBeGreaterThanOrEqual(acknowledged);
      for (const refusal of refusals) {
        expect(refusal).toBeInstanceOf(StoreUnavailableError);
        expect((refusal as StoreUnavailableError).reason).toMatch(
          /^the Redis store at redis:\/\/127\.0\.0\.1:\d+ did not answer \(.+\); check that Redis is running and reachable$/,
        );
      }
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
