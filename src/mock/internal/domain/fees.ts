/**
 * Fee math of the mock: the fee for an amount and a card type from `Assumptions.feeTable` (percent + fixed, GST
 * inclusive), rounded to cents half away from zero, and `total_settlement_amount` per `Assumptions.totalSettlement`.
 *
 * Money is kept in numbers (the wire type is Float) and rounded once at the end; the rounding corrects binary
 * floating point noise first, so 1.005 rounds to 1.01 as a person would expect, not to 1.00.
 *
 * @module
 */

import type * as Current from '../../../../generated/current/graphql.ts';
import type * as Legacy from '../../../../generated/legacy/graphql.ts';
import type { Assumptions, FeeRule } from '../../../assumptions.ts';

// Relative nudge applied before rounding: larger than the error of one or two float operations on amounts up to
// 1e9 cents, far smaller than half a cent. Makes 100.49999999999999 (1.005 * 100) round as the 100.5 it stands for.
const ROUNDING_NUDGE = 1e-12;

/**
 * Rounds a money value to cents, half away from zero, after removing binary floating point noise.
 *
 * @example
 * roundCents(1.005) // 1.01
 * roundCents(-0.125) // -0.13
 */
export function roundCents(value: number): number {
  const scaled = Math.abs(value) * 100;
  const cents = Math.round(scaled + scaled * ROUNDING_NUDGE);
  return value < 0 ? -cents / 100 : cents / 100;
}

/** The fee for `amount` under one fee table row: percent of the amount plus the fixed part, GST included, in cents. */
export function feeFor(amount: number, rule: FeeRule): number {
  return roundCents((amount * rule.percent) / 100 + rule.fixed);
}

/** `total_settlement_amount` (legacy `total`) for an amount and its fee, per `Assumptions.totalSettlement`. */
export function totalSettlementAmount(amount: number, fee: number, mode: Assumptions['totalSettlement']): number {
  return roundCents(mode === 'amount-plus-fees' ? amount + fee : amount - fee);
}

/** The fee table row of a card type, or undefined when the card type is not in the table (not supported). */
export function feeRuleFor(feeTable: Assumptions['feeTable'], cardType: string): FeeRule | undefined {
  for (const rule of feeTable) if (rule.card_type === cardType) return rule;
  return undefined;
}

/**
 * One entry of the fee list, carrying the fields of both guides: the current guide selects
 * `total_settlement_amount`, the legacy guide `total` and `card_location`. One object serves both.
 */
export type FeeListEntry = Current.PaymentGatewayFee & Omit<Legacy.PaymentGatewayFee, '__typename'>;

/** The fee of one card for an amount (the money part of `paymentCreditCardFeeCalc`). */
export type CardFee = Omit<Current.CreditCardFee, 'card_account_uid'>;

/** Builds the fee list for `amount`: one entry per fee table row, in table order. */
export function feeList(
  amount: number,
  assumptions: Pick<Assumptions, 'feeTable' | 'totalSettlement'>,
): FeeListEntry[] {
  return assumptions.feeTable.map((rule) => {
    const fees = feeFor(amount, rule);
    const total = totalSettlementAmount(amount, fees, assumptions.totalSettlement);
    return {
      amount,
      fees,
      total_settlement_amount: total,
      total,
      card_type: rule.card_type,
      card_location: rule.card_location,
    };
  });
}

/** Fee calculations bound to one set of assumptions, with the fee list memoised per amount. */
export interface FeeCalculator {
  /** The fee list for `amount` (frozen; the same array for the same amount while cached). */
  list(amount: number): readonly FeeListEntry[];
  /** The fee of a card type for `amount`, or undefined when the card type is not in the fee table. */
  forCardType(amount: number, cardType: string): CardFee | undefined;
}

/** Options of {@link createFeeCalculator}. */
export interface FeeCalculatorOptions {
  /** How many distinct amounts keep their fee list; the cache empties when full. Default 1,024. */
  readonly cacheSize?: number;
}

/**
 * Creates a fee calculator. The fee list of an amount is computed once and reused: clients and benchmarks ask for
 * the same few amounts again and again, and the entries are immutable.
 */
export function createFeeCalculator(
  assumptions: Pick<Assumptions, 'feeTable' | 'totalSettlement'>,
  options: FeeCalculatorOptions = {},
): FeeCalculator {
  const cacheSize = options.cacheSize ?? 1024;
  const lists = new Map<number, readonly FeeListEntry[]>();
  return {
    list(amount) {
      let list = lists.get(amount);
      if (list === undefined) {
        if (lists.size >= cacheSize) lists.clear();
        list = Object.freeze(feeList(amount, assumptions).map((entry) => Object.freeze(entry)));
        lists.set(amount, list);
      }
      return list;
    },
    forCardType(amount, cardType) {
      const rule = feeRuleFor(assumptions.feeTable, cardType);
      if (!rule) return undefined;
      const fees = feeFor(amount, rule);
      return {
        amount,
        fees,
        total_settlement_amount: totalSettlementAmount(amount, fees, assumptions.totalSettlement),
        card_type: cardType,
      };
    },
  };
}
