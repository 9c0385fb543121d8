/**
 * The file store over a SIGKILL in the middle of a burst (issue 23): the mock process is killed while 16 payments
 * are in flight; a new process on the same file knows every payment that was acknowledged, settles each and
 * delivers each webhook once. Nothing acknowledged is lost; what was in flight was never acknowledged.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { buildNodeMockApp } from '../../../src/mock/app.ts';
import type { MockApp } from '../../../src/mock/control-types.ts';
import { paidUuid, sandboxClient } from '../../support/sandbox-client.ts';
import { pool } from '../payments-over-http.ts';
import { startChildMock } from './fixtures/child-mock.ts';

let child: ChildProcess | undefined;
let app: MockApp | undefined;
let dir: string | undefined;
afterEach(async () => {
  child?.kill('SIGKILL');
  await app?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function startChild(file: string): Promise<string> {
  const started = startChildMock(file);
  child = started.child;
  return started.url;
}

it('loses no acknowledged payment when the process is SIGKILLed mid-burst', async () => {
  dir = mkdtempSync(join(tmpdir(), 'pck-sigkill-'));
  const file = join(dir, 'sandbox.log');
  const url = await startChild(file);
  const remote = sandboxClient((r) => fetch(r), url);
  const token = (await remote.generate()).body.data.token as string;
  const acknowledged: string[] = [];
  let refused = 0;
  const exited = new Promise((resolve) => child!.on('exit', resolve));
  await pool(200, 16, async () => {
    try {
      const uuid = paidUuid(await remote.pay(token));
      if (uuid) acknowledged.push(uuid);
      // Killed with 16 payments in flight, after 80 were acknowledged.
      if (acknowledged.length === 80) child!.kill('SIGKILL');
    } catch {
      refused += 1;
    }
  });
  await exited;

  const hooks: string[] = [];
  app = buildNodeMockApp(
    { log: false, store: `file:${file}`, settleDelayMs: 60_000 },
    {
      webhookReceivers: [
        async (request) => {
          hooks.push(((await request.json()) as { uuid: string }).uuid);
          return new Response(null, { status: 204 });
        },
      ],
    },
  );
  await app.ready();
  const known = new Set((await app.control.payments()).map((p) => p.uuid));
  const lost = acknowledged.filter((u) => !known.has(u));
  app.control.advanceClock(60_000);
  for (const uuid of acknowledged)
    await app.control.waitForDelivery((d) => d.paymentUuid === uuid && d.state === 'delivered');
  const delivered = new Set(hooks);
  console.log(
    `file store SIGKILL mid-burst: ${acknowledged.length} acknowledged, ${refused} cut off in flight, ${known.size} kept after restart, ${lost.length} lost, ${delivered.size} webhooks (${hooks.length} sent)`,
  );
  expect(acknowledged.length).toBeGreaterThanOrEqual(80);
  expect(lost).toEqual([]);
  expect(acknowledged.every((u) => delivered.has(u))).toBe(true);
  // Each payment's webhook once: nothing settled before the kill, so every one is the new process's.
  expect(hooks.length).toBe(delivered.size);
});
