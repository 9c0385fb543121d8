/**
 * The figures of issue 23 on Redis, measured on the real thing: Debian's redis-server, mock processes started from
 * the built CLI (`node dist/cli/index.js mock --store redis://…`, so `npm run build` comes first), payments over
 * real HTTP, and a webhook receiver on port 0 that counts deliveries by payment uuid. Each test prints its figure.
 *
 * 1. Two replicas, 300 payments across both with 16 in flight: 300 distinct ids, 300 final webhooks, each once.
 * 2. One replica SIGKILLed in a burst of 200: no accepted payment without its final webhook; the survivor delivers
 *    the dead replica's pending work within 10 s.
 * 3. Redis SIGKILLed and started again (appendfsync always) during 1,000 payments against one replica: nothing
 *    acknowledged is lost, the mock stays up, every refusal is a 503 in the spec's 7.2 shape.
 *
 * Settlement waits on the mock clock (`--settle-delay` 60 s, moved by `POST /__pck/clock/advance`) where timing
 * matters; everything else waits on a condition with bounded polling.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { defaultAssumptions } from '../../../src/assumptions.ts';
import { type MockProcess, startMockProcess } from '../../fuzz/support/mock-process.ts';
import { startRedisServer, type TestRedisServer } from '../../support/redis-server.ts';
import { type Answer, paidUuid, sandboxClient } from '../../support/sandbox-client.ts';
import { pool } from '../payments-over-http.ts';

const { statusNames, reasonCodes } = defaultAssumptions;
const finalStatuses = new Set([statusNames.success, statusNames.failure]);
// Far beyond any burst below, so nothing settles before the test moves the clock (tests 1 and 3).
const settleLaterMs = 60_000;

let redis: TestRedisServer | undefined;
let mocks: MockProcess[] = [];
let receiver: Receiver | undefined;
afterEach(async () => {
  for (const mock of mocks) mock.child.kill('SIGKILL');
  await Promise.all(mocks.map((m) => m.stop()));
  mocks = [];
  await receiver?.close();
  receiver = undefined;
  await redis?.close();
  redis = undefined;
});

/** A webhook receiver on port 0: every final webhook by payment uuid, answered after `delayMs`. */
interface Receiver {
  readonly url: string;
  /** Deliveries of a final status, per payment uuid. */
  readonly finals: Map<string, number>;
  /** Every webhook received (final or not). */
  received: number;
  close(): Promise<void>;
}

async function startReceiver(delayMs = 0): Promise<Receiver> {
  const finals = new Map<string, number>();
  const state = { received: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      state.received += 1;
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { uuid: string; status: string };
      const answer = () => {
        // Counted when the answer goes out: what the sender can know was delivered.
        if (finalStatuses.has(body.status)) finals.set(body.uuid, (finals.get(body.uuid) ?? 0) + 1);
        res.writeHead(204).end();
      };
      if (delayMs > 0) setTimeout(answer, delayMs);
      else answer();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    finals,
    get received() {
      return state.received;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A mock process on `store`, quiet, its webhooks to the receiver. */
async function startReplica(store: string, hookUrl: string, settleDelayMs: number): Promise<MockProcess> {
  const mock = await startMockProcess([
    '--quiet',
    '--store',
    store,
    '--settle-delay',
    String(settleDelayMs),
    '--webhook-url',
    hookUrl,
  ]);
  mocks.push(mock);
  return mock;
}

const client = (mock: MockProcess) => sandboxClient((r) => fetch(r), mock.url);

/** Polls `condition` every 20 ms; false once `timeoutMs` passed. */
async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return true;
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** True once a replica sees every payment settled and no webhook left to send (false while it refuses). */
async function idle(mock: MockProcess): Promise<boolean> {
  const answer = await client(mock).read('health');
  const history = answer.body?.history;
  return answer.status === 200 && history.payments.processing === 0 && history.deliveries.pending === 0;
}

/** Where the uuids are missing from the receiver's final webhooks. */
const withoutFinal = (uuids: Iterable<string>, r: Receiver) => [...uuids].filter((u) => !r.finals.has(u));

it('two replicas on Redis: 300 payments with 16 in flight, 300 distinct ids, each final webhook once', async () => {
  redis = await startRedisServer();
  receiver = await startReceiver();
  const a = await startReplica(redis.url, receiver.url, settleLaterMs);
  const b = await startReplica(redis.url, receiver.url, settleLaterMs);
  const replicas = [client(a), client(b)];
  const token = (await replicas[0]!.generate()).body.data.token as string;

  const started = Date.now();
  const answers = await pool(300, 16, (i) => replicas[i % 2]!.pay(token));
  const paid = answers.map(paidUuid);
  const uuids = new Set(paid.filter((u): u is string => u !== undefined));
  const payMs = Date.now() - started;
  expect(answers.filter((x) => x.status !== 200)).toEqual([]);
  expect(pool.mostInFlight).toBe(16);

  // One clock for the sandbox: moving it on one replica makes every payment due on both.
  expect((await replicas[1]!.control('clock/advance', { ms: settleLaterMs })).status).toBe(200);
  expect(await waitFor(() => receiver!.finals.size === 300, 30_000)).toBe(true);
  // Nothing left to send on either replica: a late duplicate would have to come from pending work.
  expect(await waitFor(async () => (await idle(a)) && (await idle(b)), 10_000)).toBe(true);
  const deliveries = [...receiver.finals.values()].reduce((n, x) => n + x, 0);
  const twice = [...receiver.finals].filter(([, n]) => n > 1).length;
  console.log(
    `Redis, 2 replicas: 300 payments (16 in flight) in ${payMs} ms, ${uuids.size} distinct ids, ${receiver.finals.size} payments with a final webhook, ${deliveries} final webhooks, ${twice} delivered more than once`,
  );
  expect(uuids.size).toBe(300);
  expect(withoutFinal(uuids, receiver)).toEqual([]);
  expect(deliveries).toBe(300);
  expect(receiver.received).toBe(300);
}, 60_000);
