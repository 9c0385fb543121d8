/**
 * Webhook deliveries over a SIGKILL on the file store (issue 23): a mock process whose receiver answers 503 has its
 * deliveries waiting for a retry when it is killed; the process started next on the same file takes them over. Each
 * keeps its delivery id (the receiver sees the same id header on both attempts) and its attempt log, and the new
 * process's attempt is number 2.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { defaultAssumptions } from '../../../src/assumptions.ts';
import { buildNodeMockApp } from '../../../src/mock/app.ts';
import type { MockApp, MockDelivery } from '../../../src/mock/control-types.ts';
import { paidUuid, sandboxClient } from '../../support/sandbox-client.ts';
import { startChildMock } from './fixtures/child-mock.ts';

const idHeader = defaultAssumptions.webhook.deliveryIdHeader.toLowerCase();
let child: ChildProcess | undefined;
let app: MockApp | undefined;
let receiver: Server | undefined;
let dir: string | undefined;
afterEach(async () => {
  child?.kill('SIGKILL');
  await app?.close();
  await new Promise((resolve) => (receiver ? receiver.close(resolve) : resolve(undefined)));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function startChild(file: string, hook: string): Promise<string> {
  const started = startChildMock(file, hook);
  child = started.child;
  return started.url;
}

it('a delivery taken over after a SIGKILL keeps its id and its attempt numbering', async () => {
  dir = mkdtempSync(join(tmpdir(), 'pck-takeover-'));
  const file = join(dir, 'sandbox.log');
  let up = false;
  const seen: { id: string; status: number }[] = [];
  receiver = createServer((req, res) => {
    req.resume();
    const status = up ? 204 : 503;
    seen.push({ id: String(req.headers[idHeader]), status });
    res.writeHead(status).end();
  });
  await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  const url = await startChild(file, hook);
  const remote = sandboxClient((r) => fetch(r), url);
  const token = (await remote.generate()).body.data.token as string;
  const paid: string[] = [];
  for (let i = 0; i < 5; i++) paid.push(paidUuid(await remote.pay(token))!);
  expect((await remote.control('clock/advance', { ms: 60_000 })).status).toBe(200);
  const listed = async () =>
    ((await remote.read('deliveries?limit=50')).body.deliveries as MockDelivery[]).filter(
      (d) => d.state === 'retry-scheduled',
    );
  // The child answers each wait once that payment's delivery has had its 503 and waits for its retry.
  for (const paymentUuid of paid) {
    const waited = await remote.control('deliveries/wait', {
      paymentUuid,
      state: 'retry-scheduled',
      timeoutMs: 10_000,
    });
    expect(waited.status, `the delivery of ${paymentUuid} waiting for a retry`).toBe(200);
  }
  // An answer with a record of its own comes after every record before it is on disk: the deliveries' too.
  expect((await remote.control('clock/advance', { ms: 0 })).status).toBe(200);
  const before = await listed();
  const exited = new Promise((resolve) => child!.on('exit', resolve));
  child!.kill('SIGKILL');
  await exited;

  up = true;
  app = buildNodeMockApp({ log: false, store: `file:${file}`, settleDelayMs: 60_000, webhookUrls: [hook] }, {});
  await app.ready();
  for (const uuid of paid)
    await app.control.waitForDelivery((d) => d.paymentUuid === uuid && d.state === 'delivered', { timeoutMs: 10_000 });
  const after = new Map((await app.control.deliveries()).map((d) => [d.id, d]));
  console.log(
    `file store SIGKILL with deliveries retrying: ${before.length} taken over, ${after.size} deliveries after the restart, attempts ${[...after.values()].map((d) => d.attempts.map((a) => a.number).join('+')).join(', ')}`,
  );
  expect(after.size).toBe(5);
  for (const d of before) {
    const taken = after.get(d.id);
    expect(taken?.state, d.id).toBe('delivered');
    expect(taken!.paymentUuid).toBe(d.paymentUuid);
    expect(taken!.attempts.map((a) => [a.number, a.status])).toEqual([
      [1, 503],
      [2, 204],
    ]);
    // The receiver saw one id per delivery, on both attempts.
    expect(seen.filter((s) => s.id === d.id).map((s) => s.status)).toEqual([503, 204]);
  }
  expect(new Set(before.map((d) => d.paymentUuid))).toEqual(new Set(paid));
});
