// The msw entry under Node opens the `store` option's `file:` and `redis://` stores (issue 23), as startMockServer
// does: handlers created again on the same file, as a test run's next process would, find the first handlers'
// payment and token, settle the pending payment and deliver its webhook.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMockHandlers, type MockHandlers } from '../../src/msw/index.ts';
import { startRedisServer, type TestRedisServer } from '../support/redis-server.ts';
import { paidUuid, sandboxClient } from '../support/sandbox-client.ts';
import { uuidReceiverInto } from '../support/uuid-receiver.ts';

const server = setupServer();
const base = 'http://store-mock.test';
let dir: string;
let open: MockHandlers[] = [];
const client = sandboxClient((request) => fetch(request), base);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pck-msw-store-'));
  server.listen({ onUnhandledRequest: 'error' });
});
afterEach(async () => {
  server.resetHandlers();
  for (const mock of open) await mock.close();
  open = [];
});
afterAll(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function handlersOn(file: string, hooks: string[]): Promise<MockHandlers> {
  const mock = createMockHandlers({
    baseUrl: base,
    log: false,
    store: `file:${file}`,
    settleDelayMs: 5_000,
    webhookReceivers: [uuidReceiverInto(hooks)],
  });
  open.push(mock);
  await mock.ready();
  server.resetHandlers(...mock.handlers);
  return mock;
}

describe('msw handlers on a file store', () => {
  it('keep the sandbox over a restart: the token, the pending payment, its settlement and webhook', async () => {
    const file = join(dir, 'sandbox.log');
    const firstHooks: string[] = [];
    const first = await handlersOn(file, firstHooks);
    const token = (await client.generate()).body.data.token as string;
    const uuid = paidUuid(await client.pay(token));
    expect(uuid).toEqual(expect.any(String));
    await first.close();
    open = [];
    expect(firstHooks).toEqual([]);

    const hooks: string[] = [];
    const second = await handlersOn(file, hooks);
    expect((await second.control.payments()).map((p) => p.uuid)).toEqual([uuid]);
    // The first handlers' token still opens /graphql: the token state came back from the file.
    expect(paidUuid(await client.pay(token))).toEqual(expect.any(String));
    second.control.advanceClock(5_000);
    await second.control.waitForDelivery((d) => d.paymentUuid === uuid && d.state === 'delivered');
    expect(hooks).toContain(uuid);
  });

  it('refuses a store it cannot open, through ready(), saying why', async () => {
    const mock = createMockHandlers({ log: false, store: `file:${join(dir, 'no-such-dir', 'sandbox.log')}` });
    open.push(mock);
    await expect(mock.ready()).rejects.toThrow(
      /the state store cannot be used \(ENOENT: locking .*no-such-dir.*check the path/,
    );
  });
});

describe('msw handlers on a Redis store', () => {
  let redis: TestRedisServer | undefined;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await redis?.close();
  });

  // The token operations over Redis come from the Node entry, not the core: without them the handlers would refuse
  // the store. A follow interval far beyond the test: the second set sees the revoke-all from Redis, not the log.
  it('hold one token state: a revoke-all through one set holds for the very next request through the other', async () => {
    const sets = ['http://redis-a.test', 'http://redis-b.test'].map((baseUrl) =>
      createMockHandlers({
        baseUrl,
        log: false,
        store: redis!.url,
        assumptions: { store: { followIntervalMs: 600_000 } },
      }),
    );
    open.push(...sets);
    for (const mock of sets) await mock.ready();
    server.resetHandlers(...sets.flatMap((mock) => mock.handlers));
    const [a, b] = sets.map((mock) => sandboxClient((request) => fetch(request), mock.baseUrl));
    const token = (await a!.generate()).body.data.token as string;
    expect(paidUuid(await b!.pay(token))).toEqual(expect.any(String));
    expect((await b!.revoke()).body.data).toEqual({ revoked: 'client', refresh_tokens: 1 });
    expect((await a!.pay(token)).body.errors?.[0]?.extensions?.reason).toBe('TOKEN_REVOKED');
  });
});
