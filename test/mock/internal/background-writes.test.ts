import { describe, expect, it } from 'vitest';
import { afterIdle, backgroundWrites } from '../../support/mock-internals/foundations.ts';

/** A promise and the functions that settle it. */
function deferred() {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

describe('background writes', () => {
  it('are idle (undefined) with nothing in flight, and run work at once then', async () => {
    const writes = backgroundWrites();
    expect(writes.idle()).toBeUndefined();
    expect(writes.settled()).toBeUndefined();
    const order: string[] = [];
    const done = afterIdle(writes.idle, async () => {
      order.push('work');
      return 1;
    });
    order.push('after the call');
    expect(await done).toBe(1);
    expect(order).toEqual(['work', 'after the call']);
  });

  it('run work only once every write in flight has settled', async () => {
    const writes = backgroundWrites();
    const first = deferred();
    const second = deferred();
    writes.background(first.promise);
    writes.background(second.promise);
    const order: string[] = [];
    const done = afterIdle(writes.idle, async () => void order.push('work'));
    first.resolve();
    await first.promise;
    order.push('first settled');
    second.reject(new Error('lost'));
    await done;
    expect(order).toEqual(['first settled', 'work']);
    expect(writes.idle()).toBeUndefined();
  });

  it('report a failed write once, at the next settled()', async () => {
    const writes = backgroundWrites();
    writes.background(Promise.reject(new Error('store down')));
    await expect(writes.settled()).rejects.toThrow('store down');
    expect(writes.settled()).toBeUndefined();
  });
});
