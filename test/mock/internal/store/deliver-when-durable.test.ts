// deliverWhenDurable (issue 23): with a store, a settled payment's webhooks start once the records made so far are
// durable, never on a failed append, and not for a payment the view no longer holds as the same object.
import { describe, expect, it } from 'vitest';
import type { StoredPayment } from '../../../../src/mock/internal/payments/state.ts';
import { deliverWhenDurable } from '../../../../src/mock/internal/store/deliver-when-durable.ts';

const payment = (uuid: string) => ({ uuid }) as StoredPayment;

function harness(after: () => Promise<void> | undefined, view = new Map<string, StoredPayment>()) {
  const delivered: string[] = [];
  const settled = deliverWhenDurable({
    sync: () => ({ after }),
    current: (u) => view.get(u),
    deliver: (p) => delivered.push(p.uuid),
  });
  return { settled, delivered, view };
}

describe('deliverWhenDurable', () => {
  it('delivers only once the pending append resolves', async () => {
    let land!: () => void;
    const append = new Promise<void>((r) => {
      land = r;
    });
    const { settled, delivered, view } = harness(() => append);
    const p = payment('u1');
    view.set('u1', p);
    settled(p);
    await Promise.resolve();
    expect(delivered).toEqual([]);
    land();
    await append;
    await Promise.resolve();
    expect(delivered).toEqual(['u1']);
  });

  it('delivers at once when nothing is pending', () => {
    const { settled, delivered } = harness(() => undefined);
    settled(payment('u2'));
    expect(delivered).toEqual(['u2']);
  });

  it('delivers nothing when the append fails (the rebuilt view settles again)', async () => {
    const failed = Promise.reject(new Error('store down'));
    const { settled, delivered, view } = harness(() => failed);
    const p = payment('u3');
    view.set('u3', p);
    settled(p);
    await failed.catch(() => undefined);
    await Promise.resolve();
    expect(delivered).toEqual([]);
  });

  it('delivers nothing for a payment the view replaced or dropped meanwhile', async () => {
    const append = Promise.resolve();
    const { settled, delivered, view } = harness(() => append);
    const p = payment('u4');
    view.set('u4', payment('u4'));
    settled(p);
    settled(payment('u5'));
    await append;
    await Promise.resolve();
    expect(delivered).toEqual([]);
  });
});
