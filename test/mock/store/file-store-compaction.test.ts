// The file store compacts by size too (issue 23, decision 0029): past `store.compactAfterRecords` the log is
// rewritten to a snapshot and what follows, so it stays bounded without a reset, and a restart keeps everything.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { buildNodeMockApp } from '../../../src/mock/app.ts';
import type { MockApp } from '../../../src/mock/control-types.ts';
import { paidUuid, sandboxClient } from '../../support/sandbox-client.ts';

let dir: string;
let apps: MockApp[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pck-file-compaction-'));
});
afterEach(async () => {
  for (const app of apps) await app.close();
  apps = [];
  rmSync(dir, { recursive: true, force: true });
});

// Settlement is due 5 minutes of virtual time after a payment: only the test's clock moves make one due, however
// long a loaded machine takes over the 600 payments in real time.
async function start(file: string) {
  const app = buildNodeMockApp(
    {
      log: false,
      store: `file:${file}`,
      settleDelayMs: 300_000,
      assumptions: { store: { compactAfterRecords: 150, compactAfterBytes: 0 } },
    },
    {},
  );
  apps.push(app);
  await app.ready();
  return { app, client: sandboxClient((r) => app.fetch(r)) };
}

/** The log's records beyond its snapshot: all of them when it was never compacted (no head line). */
function backlog(file: string): number {
  const rows = readFileSync(file, 'utf8').trimEnd().split('\n');
  const parsed = rows.map((row) => JSON.parse(row.slice(0, row.lastIndexOf('\t'))) as { $?: string; n?: number });
  const records = parsed.filter((r) => r.$ === undefined).length;
  const head = parsed[0]?.$ === 'head' ? (parsed[0].n ?? 0) : 0;
  return records - head;
}

it('keeps the log bounded over many requests, and a restart keeps tokens, payments and their settlement', async () => {
  const file = join(dir, 'sandbox.log');
  const first = await start(file);
  const pair = (await first.client.generate()).body.data;
  let longest = 0;
  const uuids: string[] = [];
  for (let i = 0; i < 600; i++) {
    const uuid = paidUuid(await first.client.pay(pair.token));
    if (uuid) uuids.push(uuid);
    if (i === 299) await first.client.control('clock/advance', { ms: 300_000 });
    longest = Math.max(longest, backlog(file));
  }
  // Every payment is a `pay` and a `jr` record: without compaction the backlog would pass 1,200 records.
  console.log(`file compaction: 600 payments, largest backlog ${longest} records (threshold 150)`);
  expect(uuids).toHaveLength(600);
  // Compaction starts after the append that passes the threshold; appends meanwhile add to the next backlog.
  expect(longest).toBeLessThan(3 * 150);
  expect(readFileSync(file, 'utf8').startsWith('{"$":"head"')).toBe(true);
  await first.app.close();
  apps = [];

  const second = await start(file);
  const payments = await second.app.control.payments();
  expect(payments.map((p) => p.uuid)).toEqual(uuids);
  expect(payments.slice(0, 300).every((p) => p.status === 'success')).toBe(true);
  expect(payments.slice(300).every((p) => p.status === 'processing')).toBe(true);
  // The refresh token was unused before the restart: it works once after it.
  expect((await second.client.refresh(pair.refresh_token)).status).toBe(200);
  expect((await second.client.refresh(pair.refresh_token)).status).toBe(401);
  await second.client.control('clock/advance', { ms: 300_000 });
  expect((await second.app.control.payments()).every((p) => p.status === 'success')).toBe(true);
});
