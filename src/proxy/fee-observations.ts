/**
 * Reads the fees a GraphQL answer gave (`paymentGatewayFeesCalc` entries, `paymentCreditCardFeeCalc`), so that
 * `suggestedConfig` can pin the fee table from what the service charged, whatever the checker reported.
 *
 * @module
 */
import type { FeeObservation } from './suggested-config.ts';

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function observation(entry: unknown, listed: boolean): FeeObservation | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const e = entry as Record<string, unknown>;
  const amount = finite(e.amount);
  const fees = finite(e.fees);
  if (typeof e.card_type !== 'string' || e.card_type === '' || amount === undefined || fees === undefined)
    return undefined;
  return {
    card_type: e.card_type,
    amount,
    fees,
    total: finite(e.total_settlement_amount) ?? finite(e.total),
    card_location: typeof e.card_location === 'string' ? e.card_location : undefined,
    listed,
  };
}

/**
 * The fee observations in a parsed GraphQL answer body (empty when it holds none).
 *
 * @example
 * feeObservations({ data: { paymentGatewayFeesCalc: [{ amount: 100, fees: 1.8, card_type: 'visa' }] } })
 * // [{ card_type: 'visa', amount: 100, fees: 1.8, listed: true, ... }]
 */
export function feeObservations(answer: unknown): FeeObservation[] {
  const data = (answer as { data?: unknown } | null)?.data;
  if (typeof data !== 'object' || data === null) return [];
  const d = data as Record<string, unknown>;
  const out: FeeObservation[] = [];
  if (Array.isArray(d.paymentGatewayFeesCalc))
    for (const entry of d.paymentGatewayFeesCalc.slice(0, 64)) {
      const o = observation(entry, true);
      if (o) out.push(o);
    }
  const single = observation(d.paymentCreditCardFeeCalc, false);
  if (single) out.push(single);
  return out;
}
