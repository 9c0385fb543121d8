// What a redis:// store says when it cannot be used, through a stand-in for ioredis (no Redis is needed): the
// store's reason is a clause without the kit's prefix, and the mock's start quotes it once, in one message with one
// prefix, saying what to do; at start the mock does not retry (it refuses to start), so nothing says it does.
import { describe, expect, it } from 'vitest';
import { buildNodeMockApp } from '../../../../src/mock/app.ts';
import {
  createRedisStore,
  type RedisStoreOptions,
  StoreUnavailableError,
} from '../../../support/mock-internals/store.ts';

const url = 'redis://user:s3cret@127.0.0.1:6379';
const where = 'redis://user:***@127.0.0.1:6379';
const refused = new Error('connect ECONNREFUSED 127.0.0.1:6379');

/** A client module whose connections fail with `refused`, or connect to a server that says it runs `version`. */
function standIn(version?: string): NonNullable<RedisStoreOptions['loadClient']> {
  class Client {
    on() {
      return this;
    }
    connect() {
      return version === undefined ? Promise.reject(refused) : Promise.resolve();
    }
    info() {
      return Promise.resolve(`# Server\r\nredis_version:${version}\r\n`);
    }
    disconnect() {}
  }
  return () => Promise.resolve({ default: Client } as unknown as Awaited<ReturnType<ReturnType<typeof standIn>>>);
}

async function openWith(loadClient: RedisStoreOptions['loadClient']): Promise<StoreUnavailableError> {
  const store = createRedisStore(url, { loadClient });
  try {
    return await store.open().then(
      () => {
        throw new Error('the store opened');
      },
      (caught: StoreUnavailableError) => caught,
    );
  } finally {
    await store.close();
  }
}

async function startRefusal(loadClient: RedisStoreOptions['loadClient']): Promise<string | undefined> {
  const app = buildNodeMockApp({ log: false, store: url }, { openStore: (u) => createRedisStore(u, { loadClient }) });
  try {
    return await app.ready().then(
      () => undefined,
      (caught: Error) => caught.message,
    );
  } finally {
    await app.close();
  }
}

describe('a redis:// store that cannot be used', () => {
  it('says which Redis did not answer and what to check, as a clause without the prefix', async () => {
    const error = await openWith(standIn());
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(error.reason).toBe(
      `the Redis store at ${where} did not answer (Error: connect ECONNREFUSED 127.0.0.1:6379); check that Redis is running and reachable`,
    );
    expect(error.cause).toBe(refused);
  });

  it('is refused at start in one message with one prefix, which does not say the mock retries', async () => {
    expect(await startRefusal(standIn())).toBe(
      `[payment-contract-kit] the state store cannot be used (the Redis store at ${where} did not answer (Error: connect ECONNREFUSED 127.0.0.1:6379); check that Redis is running and reachable). Fix it, or start with --store memory:.`,
    );
  });

  it('names the Redis version it needs, at open and at start', async () => {
    const reason = 'the Redis store needs Redis 6.2 or newer, and the server runs 6.0: upgrade Redis';
    expect((await openWith(standIn('6.0.9'))).reason).toBe(reason);
    expect(await startRefusal(standIn('6.0.9'))).toBe(
      `[payment-contract-kit] the state store cannot be used (${reason}). Fix it, or start with --store memory:.`,
    );
  });

  it('says a closed store is closed', async () => {
    const store = createRedisStore(url, { loadClient: standIn() });
    await store.close();
    await expect(store.increment('boot')).rejects.toThrow(
      new StoreUnavailableError(`the Redis store at ${where} is closed`),
    );
  });
});
