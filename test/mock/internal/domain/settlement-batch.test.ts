import { describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../../../src/assumptions.ts';
import { createMockState, createSettlement, type StoredPayment } from '../../../support/mock-internals/domain.ts';
import { createClock } from '../../../support/mock-internals/foundations.ts';
import { nodeCrypto } from '../../../support/mock-internals/platform.ts';
import { storedPayment } from '../stored-payment.ts';

// settlement.ts batches payments due in the same millisecond into one clock task; these pin what must not change.
function setup() {
  let real = 1_700_000_000_000;
  const clock = createClock({ realNow: () => real });
  const state = createMockState({
    assumptions: defaultAssumptions,
    seed: 's',
    now: clock.now,
    sha256Hex: nodeCrypto.sha256Hex,
  });
  const settledOrder: string[] = [];
  const settlement = createSettlement({
    assumptions: { settleDelayMs: 1000 },
    clock,
    state,
    settled: (p) => settledOrder.push(`${p.uuid}:${p.settledOutcome}`),
  });
  const accept = (uuid: string, outcome: StoredPayment['outcome'] = 'success') => {
    const p = storedPayment(uuid, { outcome }, clock.now());
    state.addPayment(p);
    settlement.onPaymentAccepted(p);
  };
  return { clock, state, settlement, settledOrder, accept, tick: (ms: number) => (real += ms) };
}

describe('batched settlement', () => {
  it('settles each payment exactly at its delay, in acceptance order, same millisecond or not', () => {
    const { clock, settledOrder, accept, tick } = setup();
    accept('a');
    accept('b', 'failure');
    tick(10);
    accept('c');
    accept('d', 'processing');
    // 10 ms of real time passed since a and b.
    clock.advance(989);
    expect(settledOrder).toEqual([]);
    clock.advance(1);
    expect(settledOrder).toEqual(['a:success', 'b:failure']);
    clock.advance(9);
    expect(settledOrder).toEqual(['a:success', 'b:failure']);
    clock.advance(1);
    expect(settledOrder).toEqual(['a:success', 'b:failure', 'c:success']);
    clock.advance(100_000);
    expect(settledOrder).toHaveLength(3);
  });

  it('skips a payment settled early through the control API, and settles the others of its batch', () => {
    const { clock, settlement, settledOrder, accept } = setup();
    accept('a');
    accept('b');
    expect(settlement.settleNow('a', 'failure')).toMatchObject({ ok: true });
    clock.advance(1000);
    expect(settledOrder).toEqual(['a:failure', 'b:success']);
  });

  it('forgets waiting payments on reset', () => {
    const { clock, settlement, settledOrder, accept } = setup();
    accept('a');
    settlement.reset();
    clock.advance(5000);
    expect(settledOrder).toEqual([]);
    accept('b');
    clock.advance(1000);
    expect(settledOrder).toEqual(['b:success']);
  });
});
