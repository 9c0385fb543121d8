// The armed failures' scripts on a real Redis (decision 0040, step 3): a take counts one use down and answers the
// failure, the last use deletes it, an arm replaces the path's failure, messages come back as they were armed, a new
// epoch holds none, and the token check takes a use only when it is given the path.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createRedisStore } from '../../../support/mock-internals/store.ts';
import { redisPerFile } from '../../../support/redis-per-file.ts';

const { server, opened } = redisPerFile();

async function openStore() {
  const store = createRedisStore(server().url, { keyPrefix: `fs-${randomUUID()}:` });
  opened.push(store);
  await store.open();
  return { failures: store.failureState!(), tokens: store.tokenState!() };
}

const unavailable = { status: 503, message: undefined };

describe('the failure scripts of a Redis store', () => {
  it('a take answers the failure and counts one use down; the last use disarms it; none armed answers none', async () => {
    const { failures } = await openStore();
    expect(await failures.take('/graphql')).toBeUndefined();
    await failures.arm('/graphql', unavailable, 3);
    const taken = [];
    for (let i = 0; i < 4; i++) taken.push(await failures.take('/graphql'));
    expect(taken).toEqual([unavailable, unavailable, unavailable, undefined]);
  });

  it('an arm replaces the uses left of its path and leaves other paths alone', async () => {
    const { failures } = await openStore();
    await failures.arm('/a', unavailable, 5);
    await failures.arm('/b', { status: 429, message: 'b' }, 1);
    await failures.take('/a');
    await failures.arm('/a', { status: 500, message: 'again' }, 1);
    expect(await failures.take('/a')).toEqual({ status: 500, message: 'again' });
    expect(await failures.take('/a')).toBeUndefined();
    expect(await failures.take('/b')).toEqual({ status: 429, message: 'b' });
  });

  it('a message comes back as armed: spaces, digits, lines, an empty one; none stays none', async () => {
    const { failures } = await openStore();
    for (const message of ['two words', '7 12 not a count', 'line one\nline two', '', undefined]) {
      await failures.arm('/p', { status: 400, message }, 2);
      expect(await failures.take('/p')).toEqual({ status: 400, message });
      expect(await failures.take('/p')).toEqual({ status: 400, message });
    }
  });

  it('a new epoch holds none of the failures armed before it', async () => {
    const { failures, tokens } = await openStore();
    await failures.arm('/graphql', unavailable, 2);
    expect(await tokens.reset()).toBe(1);
    expect(await failures.take('/graphql')).toBeUndefined();
    await failures.arm('/graphql', unavailable, 1);
    expect(await failures.take('/graphql')).toEqual(unavailable);
  });

  it('the token check takes a use in its round trip only when given the path', async () => {
    const { failures, tokens } = await openStore();
    await failures.arm('/graphql', unavailable, 2);
    expect((await tokens.check('c', 'c/j@1')).failure).toBeUndefined();
    expect((await tokens.check('c', 'c/j@1', '/graphql')).failure).toEqual(unavailable);
    expect((await tokens.check('c', 'c/j@1', '/other')).failure).toBeUndefined();
    expect(await failures.take('/graphql')).toEqual(unavailable);
    expect((await tokens.check('c', 'c/j@1', '/graphql')).failure).toBeUndefined();
  });
});
