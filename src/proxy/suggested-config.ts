/**
 * `suggestedConfig`: a mock `--config` object whose `assumptions` reproduce what the service was seen to do, so a
 * team can start the mock with it and get the service's behaviour where the interface document is silent.
 *
 * Two sources. Assumption drifts carry a `ledgerKey` and, where the checker could read one, an `observed` value for
 * it (400 for `graphqlErrorHttpStatus`, `{ success: "COMPLETED" }` for `statusNames`); objects merge into the
 * ledger's value, other values replace it. The fee table is pinned from the fee answers themselves: one card type's
 * `percent` and `fixed` once two amounts determine them (and every other answer for that type agrees); its card
 * type names and order as the service listed them; `totalSettlement` from `total_settlement_amount` (or `total`).
 * Only keys whose suggestion differs from the ledger in use are written.
 *
 * @module
 */
import type { AssumptionOverrides, Assumptions, FeeRule } from '../assumptions.ts';
import type { Drift } from '../contract/check/exchange.ts';

/** What suggestedConfig reads of a drift. */
export type ObservedDrift = Pick<Drift, 'kind' | 'ledgerKey' | 'observed'>;

/** One fee an answer gave: `paymentGatewayFeesCalc` entries and `paymentCreditCardFeeCalc` answers. */
export interface FeeObservation {
  readonly card_type: string;
  readonly amount: number;
  readonly fees: number;
  /** `total_settlement_amount`, or the legacy `total`. */
  readonly total?: number | undefined;
  /** Legacy guide's `card_location`. */
  readonly card_location?: string | undefined;
  /** True when the fee came from the fee list (`paymentGatewayFeesCalc`), which names every card type. */
  readonly listed?: boolean | undefined;
}

/** A card type pattern as JSON writes it: the regular expression's source. */
export interface CardTypePatternJson {
  readonly card_type: string;
  readonly pattern: string;
}

/** The suggested `assumptions` (JSON: card type patterns are regular expression sources). */
export type SuggestedAssumptions = Omit<AssumptionOverrides, 'cardTypes'> & {
  readonly cardTypes?: readonly CardTypePatternJson[];
};

/** A mock `--config` object (`payment-contract-kit mock --config file.json`). */
export interface SuggestedConfig {
  readonly assumptions: SuggestedAssumptions;
}

/** Keys whose observed value replaces the ledger's whole, even when both are objects. */
const replacedWhole: ReadonlySet<string> = new Set(['revokeTokenBody']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Half away from zero, to cents: the mock's rounding (ASSUMPTIONS.md, "Money"). */
function cents(value: number): number {
  return (Math.sign(value) * Math.round(Math.abs(value) * 100 + 1e-9)) / 100;
}

/** The percent and fixed part that give every observed fee, when two amounts pin them; undefined otherwise. */
export function solveFeeRule(points: readonly FeeObservation[]): { percent: number; fixed: number } | undefined {
  if (points.length < 2) return undefined;
  const sorted = [...points].sort((a, b) => a.amount - b.amount);
  const low = sorted[0]!;
  const high = sorted[sorted.length - 1]!;
  if (high.amount === low.amount) return undefined;
  const slope = ((high.fees - low.fees) / (high.amount - low.amount)) * 100;
  // Rates are published with a few decimals; try the shortest that reproduces every observed fee.
  for (const digits of [1, 2, 3, 4]) {
    const percent = Number(slope.toFixed(digits));
    const fixed = cents(low.fees - (low.amount * percent) / 100);
    if (fixed < 0) continue;
    if (points.every((p) => Math.abs(cents((p.amount * percent) / 100 + fixed) - p.fees) < 0.001))
      return { percent, fixed };
  }
  return undefined;
}

function ledgerRowFor(name: string, index: number, ledger: readonly FeeRule[]): FeeRule | undefined {
  return ledger.find((r) => r.card_type.toLowerCase() === name.toLowerCase()) ?? ledger[index];
}

/**
 * The fee table as the service showed it: the card types of its fee list in its order (the ledger's rows when no
 * fee list was seen), each with the rule two amounts pinned, or else the ledger's rule for that name or place.
 */
function suggestFeeTable(fees: ReadonlyMap<string, readonly FeeObservation[]>, ledger: readonly FeeRule[]): FeeRule[] {
  const listed = [...fees.values()].some((points) => points.some((p) => p.listed));
  const names = listed ? [...fees.keys()] : [...new Set([...ledger.map((r) => r.card_type), ...fees.keys()])];
  return names.map((name, i) => {
    const points = fees.get(name) ?? [];
    const base = ledgerRowFor(name, i, ledger) ?? ledger[0]!;
    const rule = solveFeeRule(points);
    const location = points.find((p) => p.card_location !== undefined)?.card_location;
    return {
      card_type: name,
      percent: rule?.percent ?? base.percent,
      fixed: rule?.fixed ?? base.fixed,
      card_location: location ?? base.card_location,
    };
  });
}

/**
 * The ledger's card number patterns under the names the service uses. A card type drift naming the first digits of a
 * card (`{ card_type: "VISA", bin: "411111" }`) moves the pattern matching them to that name; otherwise a pattern
 * moves to the observed name that matches its own case-insensitively, or else to the name at its place in the list.
 */
function suggestCardTypes(table: readonly FeeRule[], ledger: Assumptions, bins: ReadonlyMap<string, string>) {
  const byLedgerName = new Map<string, string>();
  for (const [bin, name] of bins) {
    const pattern = ledger.cardTypes.find((p) => p.pattern.test(bin));
    if (pattern && !byLedgerName.has(pattern.card_type)) byLedgerName.set(pattern.card_type, name);
  }
  table.forEach((row, i) => {
    if ([...byLedgerName.values()].includes(row.card_type)) return;
    const same = ledger.feeTable.find((r) => r.card_type.toLowerCase() === row.card_type.toLowerCase());
    const ledgerName = same?.card_type ?? ledger.feeTable[i]?.card_type;
    if (ledgerName !== undefined && !byLedgerName.has(ledgerName)) byLedgerName.set(ledgerName, row.card_type);
  });
  return ledger.cardTypes
    .filter((p) => byLedgerName.has(p.card_type))
    .map((p): CardTypePatternJson => ({ card_type: byLedgerName.get(p.card_type)!, pattern: p.pattern.source }));
}

/** The `{ card_type, bin }` observations of card type drifts: first digits of a card and the name answered. */
function cardTypeBins(drifts: readonly ObservedDrift[]): Map<string, string> {
  const bins = new Map<string, string>();
  for (const d of drifts) {
    const o = d.observed as { card_type?: unknown; bin?: unknown } | undefined;
    if (d.ledgerKey === 'cardTypes' && typeof o?.card_type === 'string' && typeof o.bin === 'string')
      bins.set(o.bin, o.card_type);
  }
  return bins;
}

function suggestTotalSettlement(
  fees: ReadonlyMap<string, readonly FeeObservation[]>,
): Assumptions['totalSettlement'] | undefined {
  for (const points of fees.values())
    for (const p of points) {
      if (p.total === undefined) continue;
      if (Math.abs(p.total - cents(p.amount + p.fees)) < 0.001) return 'amount-plus-fees';
      if (Math.abs(p.total - cents(p.amount - p.fees)) < 0.001) return 'amount-minus-fees';
    }
  return undefined;
}

/** Folds the observed values of assumption drifts into overrides of the ledger (the latest observation wins). */
function fromDrifts(ledger: Assumptions, drifts: readonly ObservedDrift[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const d of drifts) {
    if (d.kind !== 'assumption' || d.ledgerKey === undefined || d.observed === undefined) continue;
    const key = d.ledgerKey;
    if (key === 'feeTable' || key === 'cardTypes' || key === 'totalSettlement') continue; // pinned from answers
    const base = (ledger as unknown as Record<string, unknown>)[key];
    if (isPlainObject(base) && !replacedWhole.has(key)) {
      if (!isPlainObject(d.observed)) continue;
      out[key] = { ...(out[key] as object | undefined), ...d.observed };
    } else if (base === null || typeof base === typeof d.observed) out[key] = d.observed;
  }
  return out;
}

/**
 * Builds the suggested mock config from the drifts and fee answers seen.
 *
 * @example
 * suggestConfig(defaultAssumptions, report.drifts, feesByCardType)
 * // { assumptions: { graphqlErrorHttpStatus: 400, expirationUnit: 'milliseconds' } }
 */
export function suggestConfig(
  ledger: Assumptions,
  drifts: readonly ObservedDrift[],
  fees: ReadonlyMap<string, readonly FeeObservation[]>,
): SuggestedConfig {
  const assumptions: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fromDrifts(ledger, drifts))) {
    const base = (ledger as unknown as Record<string, unknown>)[key];
    const merged = isPlainObject(base) && !replacedWhole.has(key) ? { ...base, ...(value as object) } : value;
    if (!sameJson(merged, base)) assumptions[key] = value;
  }
  if (fees.size > 0) {
    const table = suggestFeeTable(fees, ledger.feeTable);
    if (!sameJson(table, ledger.feeTable)) {
      assumptions.feeTable = table;
      const names = new Set(ledger.cardTypes.map((p) => p.card_type));
      if (table.some((row) => !names.has(row.card_type)))
        assumptions.cardTypes = suggestCardTypes(table, ledger, cardTypeBins(drifts));
    }
    const total = suggestTotalSettlement(fees);
    if (total !== undefined && total !== ledger.totalSettlement) assumptions.totalSettlement = total;
  }
  return { assumptions: assumptions as SuggestedAssumptions };
}
