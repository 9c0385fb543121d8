/**
 * Once-only work through the store's claims (issue 23): the holder keeps its claim while its outcome is on the way
 * to the store and for one whole lease after it is durable, so a second process that looks in the meantime neither
 * wins the claim nor, once it does, misses the outcome. Leases run on a test clock; the holder renews on its own
 * real-time interval (a third of the lease), which the test waits for.
 */
import { afterEach, expect, it } from 'vitest';
import { createStateSync, type SandboxStore, type StateSync } from '../../../support/mock-internals/store.ts';
import { createSharedMemorySandbox } from '../../../support/shared-memory-store.ts';

const leaseMs = 150;
const syncs: StateSync[] = [];
afterEach(async () => {
  await Promise.all(syncs.splice(0).map((s) => s.close().catch(() => undefined)));
});

/** A process on `store` whose view knows which keys some process has finished (records `done`). */
async function process(id: string, store: SandboxStore) {
  const finished = new Set<string>();
  const sync = createStateSync({
    store,
    processId: id,
    appliers: [{ apply: (r) => void (r.t === 'done' && finished.add(String(r.k))) }],
    resetView: () => finished.clear(),
    onBoot: () => {},
    leaseMs,
    followMs: 60_000,
    log: () => {},
  });
  syncs.push(sync);
  await sync.ready();
  let ran = 0;
  // What each look at the job answered (whether the work was still needed), in order.
  const looks: boolean[] = [];
  const run = (key: string) =>
    sync.once.run(key, {
      needed: () => {
        looks.push(!finished.has(key));
        return looks.at(-1)!;
      },
      work: () => {
        ran += 1;
        finished.add(key);
        sync.record({ t: 'done', k: key });
      },
    });
  return { run, ran: () => ran, looks: () => looks };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400 && !(await check()); i++) await sleep(5);
  expect(await check()).toBe(true);
}

it('keeps the claim while the outcome is being written, and a second process never repeats the work', async () => {
  let now = 0;
  const sandbox = createSharedMemorySandbox(() => now);
  // The first process's appends wait at a gate: its outcome is slow to become durable.
  let open: () => void = () => {};
  const gate = new Promise<void>((r) => {
    open = r;
  });
  const slow = sandbox.replica();
  const append = slow.append.bind(slow);
  let appending = false;
  slow.append = async (records) => {
    if (records.some((r) => r.t === 'done')) {
      appending = true;
      await gate;
    }
    return append(records);
  };
  let renewals = 0;
  const claim = slow.claim.bind(slow);
  slow.claim = (...args) => {
    renewals += 1;
    return claim(...args);
  };
  const other = sandbox.replica();
  const otherClaim = other.claim.bind(other);
  const answers: boolean[] = [];
  other.claim = async (...args) => {
    const won = await otherClaim(...args);
    answers.push(won);
    return won;
  };
  const a = await process('A', slow);
  const b = await process('B', other);

  a.run('settle:p1');
  await until(() => appending);
  expect(a.ran()).toBe(1);
  // Four leases pass on the store's clock while the write hangs, each step only after A renewed: a holder that
  // stopped renewing once its work was done (before it was durable) would lose the claim here.
  for (let step = 0; step < 4; step++) {
    const seen = renewals;
    await until(() => renewals > seen);
    now += leaseMs - 10;
  }
  b.run('settle:p1');
  await until(() => answers.length > 0);
  expect(answers[0]).toBe(false);
  expect(b.ran()).toBe(0);

  // The outcome lands; B looks again one lease later (real time) and finds it, whatever the store's clock says.
  open();
  await until(() => sandbox.records().some((r) => r.t === 'done'));
  now += 10 * leaseMs;
  // B's retry asks whether the work is still needed before it claims: it must find the outcome and stop there.
  const looked = b.looks().length;
  await until(() => b.looks().length > looked);
  expect(b.looks().slice(looked)).toEqual([false]);
  expect(answers).toHaveLength(1);
  expect(b.ran()).toBe(0);
  expect(sandbox.records().filter((r) => r.t === 'done')).toHaveLength(1);
});
