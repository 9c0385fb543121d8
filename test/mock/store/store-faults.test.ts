/**
 * Faults of the state store (issue 23): while the file cannot be written (disk full, read-only), requests answer 503
 * in the spec's shape for their path, nothing of them is kept, and the mock recovers by itself once writes work
 * again, with every acknowledged change still there. The faults come from a file-system `open` that fails writes,
 * and from a Redis killed under the mock.
 */

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type * as fsp from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildNodeMockApp } from '../../../src/mock/app.ts';
import type { MockApp } from '../../../src/mock/control-types.ts';
import { createFileStore, lineChecksum, StoreUnavailableError } from '../../support/mock-internals/store.ts';
import { startRedisServer } from '../../support/redis-server.ts';
import { paidUuid, sandboxClient } from '../../support/sandbox-client.ts';
import { waitUntil } from '../../support/wait-until.ts';

let dir: string;
let app: MockApp | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pck-store-faults-'));
});
afterEach(async () => {
  await app?.close();
  app = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** `open` whose handles fail every write with `code` while `fault.code` is set. */
function faultyIo(fault: { code: string | undefined }) {
  const failing = (async (...args: Parameters<typeof open>) => {
    const handle = await open(...args);
    const write = handle.write.bind(handle);
    return Object.assign(handle, {
      write: (...w: Parameters<typeof handle.write>) => {
        if (fault.code !== undefined)
          return Promise.reject(Object.assign(new Error(`${fault.code}: simulated`), { code: fault.code }));
        return (write as (...a: unknown[]) => ReturnType<typeof handle.write>)(...w);
      },
    });
  }) as typeof fsp.open;
  return { open: failing };
}

describe('store faults', () => {
  it.each(['ENOSPC', 'EROFS'])('answers 503 in each path shape while writes fail (%s), then recovers', async (code) => {
    const fault: { code: string | undefined } = { code: undefined };
    const lines: string[] = [];
    const store = createFileStore(join(dir, 'sandbox.log'), { io: faultyIo(fault) });
    app = buildNodeMockApp(
      {
        log: (chunk) => lines.push(chunk),
        store,
        assumptions: { store: { leaseMs: 3_000, followIntervalMs: 20 } },
      },
      {},
    );
    await app.ready();
    const c = sandboxClient((r) => app!.fetch(r));
    const pair = (await c.generate()).body.data;
    const kept = paidUuid(await c.pay(pair.token));
    expect(kept).toBeDefined();

    fault.code = code;
    const token = await c.generate();
    expect(token.status).toBe(503);
    expect(token.body).toEqual({ status: 'ERROR', message: expect.stringContaining(code) });
    const paid = await c.pay(pair.token);
    expect(paid.status).toBe(503);
    expect(paid.body.errors[0].extensions.reason).toBe('STORE_UNAVAILABLE');
    expect(paid.body.errors[0].message).toMatch(/^\[payment-contract-kit\] .*Retry shortly/);
    const control = await c.control('fail-next', { path: '/graphql', status: 500 });
    expect(control.status).toBe(503);
    expect(control.body.status).toBe('ERROR');
    expect(lines.join('')).toContain('the state store failed');

    fault.code = undefined;
    // Recovered by itself: the payment acknowledged before the fault is there, the refused ones are not.
    const after = paidUuid(await c.pay(pair.token));
    expect(after).toBeDefined();
    expect((await app.control.payments()).map((p) => p.uuid)).toEqual([kept, after]);
    expect((await c.refresh(pair.refresh_token)).status).toBe(200);
    expect(lines.join('')).toContain('answers again');
  });

  it('while the store is down, a caller without the control token gets 401, not the 503, and page shells still load', async () => {
    const fault: { code: string | undefined } = { code: undefined };
    const store = createFileStore(join(dir, 'sandbox.log'), { io: faultyIo(fault) });
    const controlToken = 'store-faults-token';
    app = buildNodeMockApp(
      { log: () => {}, store, controlToken, assumptions: { store: { leaseMs: 3_000, followIntervalMs: 60_000 } } },
      {},
    );
    await app.ready();
    const c = sandboxClient((r) => app!.fetch(r));
    fault.code = 'ENOSPC';
    // A refused write leaves the process waiting for the store: every later request meets the outage first.
    expect((await c.generate()).status).toBe(503);
    const send = (path: string, headers: Record<string, string>) =>
      app!.fetch(new Request(new URL(path, 'http://127.0.0.1'), { headers }));
    const stranger = await send('/__pck/health', { accept: 'application/json' });
    expect(stranger.status).toBe(401);
    expect(await stranger.text()).not.toMatch(/store|ENOSPC/i);
    const owner = await send('/__pck/health', { accept: 'application/json', authorization: `Bearer ${controlToken}` });
    expect(owner.status).toBe(503);
    expect(await owner.text()).toContain('ENOSPC');
    const shell = await send('/__pck/ui', { accept: 'text/html' });
    expect(shell.status).toBe(200);
    expect(shell.headers.get('content-type')).toContain('text/html');
    // The service paths still answer the store's 503 in their own shape (no token involved there).
    expect((await c.generate()).status).toBe(503);
  });

  it('rejects a write with StoreUnavailableError naming the fix, and never leaves a partial line', async () => {
    const fault: { code: string | undefined } = { code: undefined };
    const file = join(dir, 'unit.log');
    const store = createFileStore(file, { io: faultyIo(fault) });
    await store.open();
    await store.append([{ t: 'x', o: 'p1', n: 1 }]);
    fault.code = 'ENOSPC';
    const refused = await store.append([{ t: 'x', o: 'p1', n: 2 }]).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StoreUnavailableError);
    expect((refused as StoreUnavailableError).reason).toMatch(/ENOSPC.*free space/);
    fault.code = undefined;
    await store.append([{ t: 'x', o: 'p1', n: 3 }]);
    const read = await store.readAfter(undefined, 10);
    expect(read.map((r) => r.record.n)).toEqual([1, 3]);
    expect(read.map((r) => r.position)).toEqual(['1', '2']);
    await store.close();
  });
});

describe('a Redis outage', () => {
  // The Redis store's reason inside each message, ioredis's own words aside: one prefix, and the mock's next step
  // said by the message that quotes it.
  const redisReason = String.raw`the Redis store at redis://127\.0\.0\.1:\d+ did not answer \(.+\); check that Redis is running and reachable`;

  it('answers 503 quoting the Redis reason once, logs the outage with one prefix, and its end once', async () => {
    const redis = await startRedisServer();
    try {
      const lines: string[] = [];
      app = buildNodeMockApp(
        {
          log: (chunk) => lines.push(chunk),
          store: redis.url,
          assumptions: { store: { leaseMs: 3_000, followIntervalMs: 60_000 } },
        },
        {},
      );
      await app.ready();
      const c = sandboxClient((r) => app!.fetch(r));
      const pair = (await c.generate()).body.data;
      await redis.stop('SIGKILL');
      const answered = new RegExp(
        String.raw`^\[payment-contract-kit\] The sandbox's state store is unavailable \(${redisReason}\), so nothing of this request was kept\. Retry shortly: the mock recovers by itself when the store is back\.$`,
      );
      const token = await c.generate();
      expect(token.status).toBe(503);
      expect(token.body).toEqual({ status: 'ERROR', message: expect.stringMatching(answered) });
      const paid = await c.pay(pair.token);
      expect(paid.body.errors).toEqual([
        { message: expect.stringMatching(answered), extensions: { reason: 'STORE_UNAVAILABLE' } },
      ]);
      // A change to record: its append fails, and the outage is logged.
      const control = await c.control('fail-next', { path: '/graphql', status: 500 });
      expect(control.status).toBe(503);
      expect(control.body.message).toMatch(answered);
      // Back: the client reconnects by itself, and the first request that reads the store says so in the log.
      await redis.start();
      await waitUntil(async () => (await c.generate()).status === 200, 'a token once Redis is back');
      await app.close();
      app = undefined;
      const logged = lines.join('').split('\n');
      expect(logged.filter((line) => line.includes('the state store failed'))).toEqual([
        expect.stringMatching(
          new RegExp(
            String.raw`^\[payment-contract-kit\] the state store failed \(${redisReason}\): requests answer 503 until it is back, and the mock goes on by itself then\. Nothing it acknowledged is lost\.$`,
          ),
        ),
      ]);
      expect(logged.filter((line) => line.includes('the state store answers again'))).toHaveLength(1);
      expect(logged.filter((line) => line.split('[payment-contract-kit]').length > 2)).toEqual([]);
    } finally {
      await app?.close();
      app = undefined;
      await redis.close();
    }
  });
});

describe('file store log', () => {
  it('drops a torn last line (a SIGKILL mid-write) and appends after it', async () => {
    const file = join(dir, 'torn.log');
    const store = createFileStore(file);
    await store.open();
    await store.append([
      { t: 'a', o: 'p' },
      { t: 'b', o: 'p' },
    ]);
    await store.close();
    const { appendFile } = await import('node:fs/promises');
    await appendFile(file, '{"t":"c","o":"p","half');
    const again = createFileStore(file);
    await again.open();
    expect((await again.readAfter(undefined, 10)).map((r) => r.record.t)).toEqual(['a', 'b']);
    await again.append([{ t: 'd', o: 'p' }]);
    expect((await again.readAfter('1', 10)).map((r) => r.record.t)).toEqual(['b', 'd']);
    await again.close();
    expect(readFileSync(file, 'utf8')).not.toContain('half');
  });

  it('refuses a damaged line in the middle instead of guessing', async () => {
    const file = join(dir, 'damaged.log');
    const good = (json: string) => `${json}\t${lineChecksum(json)}\n`;
    const { writeFile } = await import('node:fs/promises');
    await writeFile(file, `${good('{"t":"a","o":"p"}')}{"t":"b","o":"p"}\t00000000\n${good('{"t":"c","o":"p"}')}`);
    const store = createFileStore(file);
    await expect(store.open()).rejects.toThrow(/line 2 .*fails its checksum/);
  });

  it('compacts to a snapshot by an atomic rename; positions keep growing and counters survive', async () => {
    const file = join(dir, 'compact.log');
    const store = createFileStore(file);
    await store.open();
    expect(await store.increment('boot')).toBe(1);
    await store.append([1, 2, 3, 4].map((n) => ({ t: 'x', o: 'p', n })));
    await store.compact([{ t: 'snap', o: 'p' }], '3');
    await store.append([{ t: 'x', o: 'p', n: 5 }]);
    const all = await store.readAfter(undefined, 10);
    expect(all.map((r) => [r.position, r.record.t, r.record.n])).toEqual([
      ['3', 'snap', undefined],
      ['4', 'x', 4],
      ['5', 'x', 5],
    ]);
    await store.close();
    const reopened = createFileStore(file);
    await reopened.open();
    expect(await reopened.increment('boot')).toBe(2);
    await reopened.close();
  });
});
