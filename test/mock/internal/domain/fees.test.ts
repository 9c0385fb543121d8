import { describe, expect, it } from 'vitest';
import { defaultAssumptions, type FeeRule } from '../../../../src/assumptions.ts';
import {
  createFeeCalculator,
  feeFor,
  feeList,
  feeRuleFor,
  roundCents,
  totalSettlementAmount,
} from '../../../support/mock-internals/domain.ts';

const visa: FeeRule = { card_type: 'visa', percent: 1.5, fixed: 0.3, card_location: 'domestic' };
const amex: FeeRule = { card_type: 'amex', percent: 2.9, fixed: 0.3, card_location: 'international' };

describe('roundCents', () => {
  it.each([
    ['exact cents', { given: 1.8, want: 1.8 }],
    ['half cent rounds up', { given: 0.005, want: 0.01 }],
    ['1.005 (binary 1.00499…) rounds up', { given: 1.005, want: 1.01 }],
    ['10.005', { given: 10.005, want: 10.01 }],
    ['1.045', { given: 1.045, want: 1.05 }],
    ['below half rounds down', { given: 0.0049, want: 0 }],
    ['negative half rounds away from zero', { given: -0.125, want: -0.13 }],
    ['large amount', { given: 999999.995, want: 1000000 }],
    ['0.1 + 0.2', { given: 0.1 + 0.2, want: 0.3 }],
  ] as const)('%s', (_name, { given, want }) => {
    expect(roundCents(given)).toBe(want);
  });
});

describe('feeFor', () => {
  it.each([
    ['visa 100 → 1.5 + 0.30', { given: { amount: 100, rule: visa }, want: 1.8 }],
    ['amex 100 → 2.9 + 0.30', { given: { amount: 100, rule: amex }, want: 3.2 }],
    ['visa 0.01 → fixed part dominates', { given: { amount: 0.01, rule: visa }, want: 0.3 }],
    ['visa 10.005 → 0.450075', { given: { amount: 10.005, rule: visa }, want: 0.45 }],
    ['visa 33.33 → 0.79995 rounds up', { given: { amount: 33.33, rule: visa }, want: 0.8 }],
    ['visa 999999.99 → 15000.29985', { given: { amount: 999999.99, rule: visa }, want: 15000.3 }],
    ['amex 999999.99 → 29000.29971', { given: { amount: 999999.99, rule: amex }, want: 29000.3 }],
    ['visa 1 → 0.315 is a half cent', { given: { amount: 1, rule: visa }, want: 0.32 }],
  ] as const)('%s', (_name, { given, want }) => {
    expect(feeFor(given.amount, given.rule)).toBe(want);
  });
});

describe('totalSettlementAmount', () => {
  it.each([
    ['amount plus fees', { given: { amount: 100, fee: 1.8, mode: 'amount-plus-fees' }, want: 101.8 }],
    ['amount minus fees', { given: { amount: 100, fee: 1.8, mode: 'amount-minus-fees' }, want: 98.2 }],
    ['rounded to cents', { given: { amount: 10.005, fee: 0.45, mode: 'amount-plus-fees' }, want: 10.46 }],
    ['0.1 + 0.2 noise removed', { given: { amount: 0.1, fee: 0.2, mode: 'amount-plus-fees' }, want: 0.3 }],
  ] as const)('%s', (_name, { given, want }) => {
    expect(totalSettlementAmount(given.amount, given.fee, given.mode)).toBe(want);
  });
});

describe('feeList', () => {
  it('has one entry per fee table row, in table order, with fields of both guides', () => {
    const list = feeList(100, defaultAssumptions);
    expect(list.map((e) => e.card_type)).toEqual(defaultAssumptions.feeTable.map((r) => r.card_type));
    expect(list[0]).toEqual({
      amount: 100,
      fees: 1.8,
      total_settlement_amount: 101.8,
      total: 101.8,
      card_type: 'visa',
      card_location: 'domestic',
    });
    expect(list[2]).toMatchObject({ fees: 3.2, card_location: 'international' });
  });

  it('follows the fee table of the assumptions', () => {
    const list = feeList(50, { feeTable: [{ ...visa, percent: 2, fixed: 0 }], totalSettlement: 'amount-minus-fees' });
    expect(list).toEqual([
      { amount: 50, fees: 1, total_settlement_amount: 49, total: 49, card_type: 'visa', card_location: 'domestic' },
    ]);
  });
});

describe('createFeeCalculator', () => {
  it('reuses the frozen list for the same amount', () => {
    const fees = createFeeCalculator(defaultAssumptions);
    const a = fees.list(100);
    expect(fees.list(100)).toBe(a);
    expect(Object.isFrozen(a)).toBe(true);
    expect(Object.isFrozen(a[0])).toBe(true);
    expect(fees.list(101)).not.toBe(a);
  });

  it('stays bounded', () => {
    const fees = createFeeCalculator(defaultAssumptions, { cacheSize: 2 });
    const a = fees.list(1);
    fees.list(2);
    fees.list(3);
    expect(fees.list(1)).not.toBe(a);
    expect(fees.list(1)).toEqual(a);
  });

  it('prices one card type, and knows nothing of card types outside the table', () => {
    const fees = createFeeCalculator(defaultAssumptions);
    expect(fees.forCardType(100, 'amex')).toEqual({
      amount: 100,
      fees: 3.2,
      total_settlement_amount: 103.2,
      card_type: 'amex',
    });
    expect(fees.forCardType(100, 'discover')).toBeUndefined();
    expect(feeRuleFor(defaultAssumptions.feeTable, 'discover')).toBeUndefined();
  });
});
