// The msw entry under Node opens the `store` option's `file:` and `redis://` stores (issue 23), as startMockServer
// does: handlers created again on the same file, as a test run's next process would, find the first handlers'
// payment and token, settle the pending payment and deliver its webhook.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMockHandlers, type MockHandlers } from '../../src/msw/index.ts';
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
    expect(second.control.payments().map((p) => p.uuid)).toEqual([uuid]);
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
