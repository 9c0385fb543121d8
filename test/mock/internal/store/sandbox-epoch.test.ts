// The epoch a Redis replica follows (decision 0040, step 2): readings move its clock up and another epoch empties its
// view (a newer one, or an older one when the store lost its data); a reset here is the next epoch at once, and a
// later one the store answers (another replica reset at the same time) empties the view once more.
import { describe, expect, it } from 'vitest';
import { createClock } from '../../../support/mock-internals/foundations.ts';
import { createSandboxEpoch } from '../../../support/mock-internals/store.ts';

function epochOver(store: { epoch: number; clockMs: number }) {
  const clock = createClock({ realNow: () => 0 });
  let resets = 0;
  const writes: Promise<unknown>[] = [];
  const epoch = createSandboxEpoch({
    clock: {
      read: async () => ({ ...store }),
      advance: async (ms) => {
        store.clockMs += ms;
        return { ...store };
      },
    },
    tokens: {
      reset: async () => {
        store.epoch += 1;
        store.clockMs = 0;
        return store.epoch;
      },
    } as Parameters<typeof createSandboxEpoch>[0]['tokens'],
    background: (write) => writes.push(write),
    idle: () => (writes.length === 0 ? undefined : Promise.all(writes.splice(0)).then(() => undefined)),
  });
  epoch.bind({
    clock,
    resetView: () => {
      resets += 1;
      clock.reset();
    },
  });
  return { epoch, clock, resets: () => resets, idle: () => Promise.all(writes.splice(0)) };
}

describe('sandbox epoch', () => {
  it('moves the clock up to each reading, never back within an epoch, and empties the view on a newer one', async () => {
    const store = { epoch: 0, clockMs: 5_000 };
    const { epoch, clock, resets } = epochOver(store);
    await epoch.read();
    expect([epoch.current(), clock.now(), resets()]).toEqual([0, 5_000, 0]);
    epoch.seen({ epoch: 0, clockMs: 1_000 });
    expect(clock.now()).toBe(5_000);
    epoch.seen({ epoch: 2, clockMs: 700 });
    expect([epoch.current(), clock.now(), resets()]).toEqual([2, 700, 1]);
  });

  it('skips an older epoch read while its own reset is on its way to the store', async () => {
    const store = { epoch: 4, clockMs: 0 };
    const { epoch, clock, resets, idle } = epochOver(store);
    await epoch.read();
    clock.reset();
    epoch.reset();
    // A token check answered before the reset reached the store.
    epoch.seen({ epoch: 4, clockMs: 90_000 });
    expect([epoch.current(), clock.now(), resets()]).toEqual([5, 0, 0]);
    await idle();
    expect([store.epoch, epoch.current(), resets()]).toEqual([5, 5, 0]);
  });

  it('follows the store back to an older epoch when it lost its data (Redis restarted empty)', async () => {
    const store = { epoch: 3, clockMs: 60_000 };
    const { epoch, clock, resets } = epochOver(store);
    await epoch.read();
    expect([epoch.current(), clock.now()]).toEqual([3, 60_000]);
    // Redis comes back without its data: no epoch key (0) and no clock moves.
    store.epoch = 0;
    store.clockMs = 0;
    await epoch.read();
    expect([epoch.current(), clock.now(), resets()]).toEqual([0, 0, 1]);
    // A move made now is seen by this replica's clock again.
    store.clockMs = 2_000;
    await epoch.read();
    expect(clock.now()).toBe(2_000);
  });

  it('a reset here is the next epoch at once; a later one from the store empties the view once more', async () => {
    const store = { epoch: 0, clockMs: 0 };
    const { epoch, clock, resets, idle } = epochOver(store);
    await epoch.read();
    clock.advance(1_000);
    epoch.advanced(1_000);
    await idle();
    // The control reset rewinds the clock here (a part of the view) before it starts the epoch.
    clock.reset();
    epoch.reset();
    expect(epoch.current()).toBe(1);
    await idle();
    expect([store.epoch, epoch.current(), resets()]).toEqual([1, 1, 0]);
    // The old epoch's clock is not brought back by a reading of the new one.
    await epoch.read();
    expect(clock.now()).toBe(0);
    // Another replica resets first: this one's reset is answered epoch 3, not the 2 it took.
    store.epoch += 1;
    epoch.reset();
    expect(epoch.current()).toBe(2);
    await idle();
    expect([epoch.current(), resets()]).toEqual([3, 1]);
  });
});
