import { describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../../../src/assumptions.ts';
import {
  createMockState,
  deriveCardAccountUid,
  type MockStateOptions,
  type StoredPayment,
  testCards,
} from '../../../support/mock-internals/domain.ts';
import { nodeCrypto } from '../../../support/mock-internals/platform.ts';
import { storedPayment } from '../stored-payment.ts';

const card = { card_number: testCards.visaSuccess.number, expiry_month: '12', expiry_year: '39' };
const newState = (options: Partial<MockStateOptions> = {}) =>
  createMockState({
    assumptions: defaultAssumptions,
    seed: 'seed',
    now: () => 1_000,
    sha256Hex: nodeCrypto.sha256Hex,
    ...options,
  });

function payment(uuid: string, clientId = 'c1', outcome: StoredPayment['outcome'] = 'success'): StoredPayment {
  return storedPayment(
    uuid,
    { clientId, outcome, amount: 100, payment_gateway_fee: 1.8, card_account_uid: 'uid' },
    Date.parse('2030-01-01'),
  );
}

describe('card accounts', () => {
  it('gives the same uid for the same card and client, also across instances with the same seed', () => {
    const a = newState().upsertCardAccount('c1', card);
    expect(newState().upsertCardAccount('c1', card).card_account_uid).toBe(a.card_account_uid);
    expect(a.card_account_uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it.each([
    ['another client', { given: { clientId: 'c2', card, seed: 'seed' } }],
    ['another expiry', { given: { clientId: 'c1', card: { ...card, expiry_year: '38' }, seed: 'seed' } }],
    ['another seed', { given: { clientId: 'c1', card, seed: 'other' } }],
  ] as const)('gives another uid for %s', (_name, { given }) => {
    expect(deriveCardAccountUid(nodeCrypto.sha256Hex, given.seed, given.clientId, given.card)).not.toBe(
      deriveCardAccountUid(nodeCrypto.sha256Hex, 'seed', 'c1', card),
    );
  });

  it('stores the masked number, type and outcome, never the full number', () => {
    const state = newState();
    const account = state.upsertCardAccount('c1', { ...card, card_number: testCards.visaSettlesAsFailure.number });
    expect(account).toMatchObject({ card_type: 'visa', masked_card_number: '400000******0002', outcome: 'failure' });
    expect(JSON.stringify(account)).not.toContain(testCards.visaSettlesAsFailure.number);
  });

  it('finds an account only for its own client', () => {
    const state = newState();
    const { card_account_uid } = state.upsertCardAccount('c1', card);
    expect(state.cardAccount('c1', card_account_uid)?.card_type).toBe('visa');
    expect(state.cardAccount('c2', card_account_uid)).toBeUndefined();
  });

  it('keeps card accounts bounded per client', () => {
    const state = newState({ maxCardAccountsPerClient: 1 });
    const first = state.upsertCardAccount('c1', card);
    state.upsertCardAccount('c1', { ...card, expiry_year: '38' });
    expect(state.cardAccount('c1', first.card_account_uid)).toBeUndefined();
  });

  it('hashes a card again only when its client changes card, with the same uid as the derivation', () => {
    let hashes = 0;
    const sha256Hex = (text: string) => {
      hashes += 1;
      return nodeCrypto.sha256Hex(text);
    };
    const state = newState({ sha256Hex, maxCardAccountsPerClient: 1 });
    const uid = deriveCardAccountUid(nodeCrypto.sha256Hex, 'seed', 'c1', card);
    const first = state.upsertCardAccount('c1', card);
    expect(state.upsertCardAccount('c1', { ...card }).card_account_uid).toBe(uid);
    expect(state.upsertCardAccount('c1', card)).toBe(first);
    expect(hashes).toBe(1);
    // Another client with the same card: its own uid, its own hash.
    expect(state.upsertCardAccount('c2', card).card_account_uid).toBe(
      deriveCardAccountUid(nodeCrypto.sha256Hex, 'seed', 'c2', card),
    );
    expect(hashes).toBe(2);
    // Another expiry evicts the first account (one per client here): the first card is then made again.
    const other = state.upsertCardAccount('c1', { ...card, expiry_year: '38' });
    expect(other.card_account_uid).not.toBe(uid);
    const again = state.upsertCardAccount('c1', card);
    expect(again).not.toBe(first);
    expect(again.card_account_uid).toBe(uid);
    expect(state.cardAccount('c1', uid)).toBe(again);
    expect(hashes).toBe(4);
    // Reset forgets the accounts, and the last card with them.
    state.reset();
    expect(state.upsertCardAccount('c1', card).card_account_uid).toBe(uid);
    expect(hashes).toBe(5);
    expect(JSON.stringify(state.snapshot())).not.toContain(card.card_number);
  });

  it('refuses a card whose type is not detected', () => {
    expect(() => newState().upsertCardAccount('c1', { ...card, card_number: '9999999999999995' })).toThrow(
      /validate the card/,
    );
  });
});

describe('payments', () => {
  it('stores, lists per client and finds by uuid with or without the client', () => {
    const state = newState();
    state.addPayment(payment('p1', 'c1'));
    state.addPayment(payment('p2', 'c2'));
    expect(state.payments('c1').map((p) => p.uuid)).toEqual(['p1']);
    expect(state.payments().map((p) => p.uuid)).toEqual(['p1', 'p2']);
    expect(state.payment(undefined, 'p2')?.clientId).toBe('c2');
    expect(state.payment('c1', 'p2')).toBeUndefined();
  });

  it.each([
    ['the card outcome by default (success)', { given: { outcome: 'success', settle: undefined }, want: 'success' }],
    ['the card outcome by default (failure)', { given: { outcome: 'failure', settle: undefined }, want: 'failure' }],
    ['an explicit outcome', { given: { outcome: 'processing', settle: 'failure' }, want: 'failure' }],
  ] as const)('settles with %s', (_name, { given, want }) => {
    const state = newState();
    state.addPayment(payment('p1', 'c1', given.outcome));
    const settled = state.settlePayment(undefined, 'p1', given.settle);
    expect(settled).toMatchObject({
      settledOutcome: want,
      status: defaultAssumptions.statusNames[want],
      settledAt: 1000,
    });
    // Settling twice changes nothing.
    expect(state.settlePayment('c1', 'p1', want === 'success' ? 'failure' : 'success')?.settledOutcome).toBe(want);
  });

  it('returns undefined when settling an unknown payment', () => {
    expect(newState().settlePayment(undefined, 'nope', 'success')).toBeUndefined();
  });

  it('evicts the oldest settled payment first when the cap is reached', () => {
    const state = newState({ maxPaymentsPerClient: 3 });
    for (const id of ['p1', 'p2', 'p3']) state.addPayment(payment(id));
    state.settlePayment('c1', 'p2', 'success');
    state.addPayment(payment('p4'));
    expect(state.payments('c1').map((p) => p.uuid)).toEqual(['p1', 'p3', 'p4']);
  });

  it('evicts the oldest payment when none is settled', () => {
    const state = newState({ maxPaymentsPerClient: 2 });
    for (const id of ['p1', 'p2', 'p3']) state.addPayment(payment(id));
    expect(state.payments('c1').map((p) => p.uuid)).toEqual(['p2', 'p3']);
    expect(state.payment(undefined, 'p1')).toBeUndefined();
  });

  it('caps each client separately', () => {
    const state = newState({ maxPaymentsPerClient: 1 });
    state.addPayment(payment('p1', 'c1'));
    state.addPayment(payment('p2', 'c2'));
    expect(state.payments()).toHaveLength(2);
  });

  it('returns copies, so callers can iterate while payments are added', () => {
    const state = newState();
    state.addPayment(payment('p1'));
    const list = state.payments('c1');
    state.addPayment(payment('p2'));
    expect(list).toHaveLength(1);
  });

  it('forgets everything on reset', () => {
    const state = newState();
    const { card_account_uid } = state.upsertCardAccount('c1', card);
    state.addPayment(payment('p1'));
    state.reset();
    expect(state.payments()).toEqual([]);
    expect(state.payment(undefined, 'p1')).toBeUndefined();
    expect(state.cardAccount('c1', card_account_uid)).toBeUndefined();
  });
});

describe('payment eviction order under churn (ordered-lists.ts queues)', () => {
  it('evicts settled ones in settlement order, then the oldest, across many payments', () => {
    const state = newState({ maxPaymentsPerClient: 5 });
    for (let i = 0; i < 5; i++) state.addPayment(payment(`p${i}`));
    state.settlePayment('c1', 'p3', 'success');
    state.settlePayment('c1', 'p1', 'failure');
    state.addPayment(payment('p5')); // p3 goes (settled first)
    state.addPayment(payment('p6')); // p1 goes
    state.addPayment(payment('p7')); // none settled: p0 goes
    expect(state.payments('c1').map((p) => p.uuid)).toEqual(['p2', 'p4', 'p5', 'p6', 'p7']);
    // A plain-array model of the rule: kept in acceptance order, settled ones listed in settlement order.
    let kept = ['p2', 'p4', 'p5', 'p6', 'p7'];
    let settled: string[] = [];
    for (let i = 8; i < 3000; i++) {
      const id = `p${i}`;
      if (kept.length >= 5) {
        const victim = settled[0] ?? kept[0]!;
        kept = kept.filter((k) => k !== victim);
        settled = settled.filter((k) => k !== victim);
      }
      state.addPayment(payment(id));
      kept.push(id);
      // Settle some new payments and, now and then, an old kept one.
      const toSettle = i % 3 === 0 ? id : i % 7 === 0 ? kept[0] : undefined;
      if (toSettle !== undefined && !settled.includes(toSettle)) {
        state.settlePayment('c1', toSettle, 'success');
        settled.push(toSettle);
      }
    }
    expect(state.payments('c1').map((p) => p.uuid)).toEqual(kept);
  });
});
