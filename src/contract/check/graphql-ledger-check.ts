/**
 * What a GraphQL answer says about the ledger (ASSUMPTIONS.md): reason codes of 7.2 errors, card type names, fee
 * amounts and totals against the fee table, and the status name right after processPaymentRequest. Each drift
 * carries the ledger key and the value the service was seen to use, so a caller can suggest a mock config.
 *
 * @module
 */
import type { Assumptions, FeeRule } from '../../assumptions.ts';
import { isPlainObject } from '../../internal/plain-object.ts';
import { legacyGuideNames } from '../guides.ts';
import type { DriftList } from './drift-list.ts';
import type { GraphqlRequestFacts } from './graphql-request.ts';
import { showValue } from './show-value.ts';

// Fees are rounded to cents by the service; half a cent of rounding on top of the ledger's own tolerance.
const ROUNDING = 0.005 + 1e-9;

function checkReasons(errors: unknown, a: Assumptions, list: DriftList): void {
  if (!Array.isArray(errors)) return;
  const known = new Set<string>(Object.values(a.reasonCodes));
  errors.forEach((error, i) => {
    if (!isPlainObject(error) || !isPlainObject(error.extensions)) return;
    const reason = error.extensions.reason;
    if (typeof reason !== 'string' || known.has(reason)) return;
    list.assumption({
      side: 'response',
      path: `errors[${i}].extensions.reason`,
      expected: `one of ${[...known].join(', ')} (ledger reasonCodes)`,
      actual: showValue(reason),
      ledgerKey: 'reasonCodes',
      observed: reason,
      message: `The service uses the reason code "${reason}" the ledger does not know: map it to the case it stands for in assumptions.reasonCodes, and handle it in your client.`,
    });
  });
}

function expectedFee(amount: number, rule: FeeRule): number {
  return (amount * rule.percent) / 100 + rule.fixed;
}

/** One fee calculation (a fee list entry, or the card fee): fee against the table, total against the amount. */
function checkFee(
  entry: Record<string, unknown>,
  at: string,
  amountSent: unknown,
  a: Assumptions,
  list: DriftList,
): void {
  const cardType = entry.card_type;
  const amount = typeof entry.amount === 'number' ? entry.amount : amountSent;
  const fees = entry.fees;
  if (typeof cardType !== 'string') return;
  const rule = a.feeTable.find((r) => r.card_type === cardType);
  if (!rule) return; // Reported as an unknown card type.
  if (typeof amount !== 'number' || typeof fees !== 'number') return;
  const want = expectedFee(amount, rule);
  if (Math.abs(fees - want) > a.bounds.feeTolerance + ROUNDING)
    list.assumption({
      side: 'response',
      path: `${at}.fees`,
      expected: `${want.toFixed(2)} (${rule.percent} % + ${rule.fixed} of ${amount}, ledger feeTable)`,
      actual: String(fees),
      ledgerKey: 'feeTable',
      observed: { amount, card_type: cardType, fees },
      message: `The service charges ${fees} for ${amount} on ${cardType}, the ledger's fee table ${want.toFixed(2)}: set percent and fixed of "${cardType}" in assumptions.feeTable from two such answers.`,
    });
  const totalKey =
    entry[legacyGuideNames.currentTotalField] !== undefined
      ? legacyGuideNames.currentTotalField
      : entry[legacyGuideNames.legacyTotalField] !== undefined
        ? legacyGuideNames.legacyTotalField
        : undefined;
  const total = totalKey ? entry[totalKey] : undefined;
  if (typeof total !== 'number') return;
  const near = (x: number) => Math.abs(total - x) <= 0.01 + 1e-9;
  const wanted = a.totalSettlement === 'amount-plus-fees' ? amount + fees : amount - fees;
  if (near(wanted)) return;
  const other = a.totalSettlement === 'amount-plus-fees' ? 'amount-minus-fees' : 'amount-plus-fees';
  const seen = near(other === 'amount-plus-fees' ? amount + fees : amount - fees);
  list.assumption({
    side: 'response',
    path: `${at}.${totalKey}`,
    expected: `${wanted.toFixed(2)} (${a.totalSettlement}, ledger totalSettlement)`,
    actual: String(total),
    ledgerKey: 'totalSettlement',
    ...(seen ? { observed: other } : {}),
    message: seen
      ? `The service's ${totalKey} is the amount ${other === 'amount-minus-fees' ? 'less' : 'plus'} the fee: set assumptions.totalSettlement to "${other}".`
      : `The service's ${totalKey} (${total}) is neither the amount plus nor less the fee (${fees}); ask the service's operator what it means.`,
  });
}

function checkCardTypeName(cardType: unknown, at: string, a: Assumptions, list: DriftList, amount: unknown): void {
  if (typeof cardType !== 'string' || a.feeTable.some((r) => r.card_type === cardType)) return;
  list.assumption({
    side: 'response',
    path: `${at}.card_type`,
    expected: `one of ${a.feeTable.map((r) => r.card_type).join(', ')} (ledger feeTable)`,
    actual: showValue(cardType),
    ledgerKey: 'feeTable',
    observed: { card_type: cardType, ...(typeof amount === 'number' ? { amount } : {}) },
    message: `The service names a card type "${cardType}" the ledger does not: add it to assumptions.feeTable (and assumptions.cardTypes) under that name.`,
  });
}

/** The card number the request sent (current or legacy field name), for the card type the ledger detects. */
function cardNumberSent(variables: Readonly<Record<string, unknown>>): string | undefined {
  const card = isPlainObject(variables.credit_card)
    ? variables.credit_card
    : isPlainObject(variables.input) && isPlainObject(variables.input.credit_card)
      ? variables.input.credit_card
      : undefined;
  const number = card?.[legacyGuideNames.currentCardNumberField] ?? card?.[legacyGuideNames.legacyCardNumberField];
  return typeof number === 'string' ? number.replace(/[ -]/g, '') : undefined;
}

function checkCardFee(fee: Record<string, unknown>, facts: GraphqlRequestFacts, a: Assumptions, list: DriftList): void {
  const at = 'data.paymentCreditCardFeeCalc';
  const number = cardNumberSent(facts.variables);
  const answered = fee.card_type;
  if (number && typeof answered === 'string') {
    const detected = a.cardTypes.find((t) => t.pattern.test(number))?.card_type;
    if (detected !== answered) {
      list.assumption({
        side: 'response',
        path: `${at}.card_type`,
        expected: `${detected ?? 'no card type'} for a card starting ${number.slice(0, 6)} (ledger cardTypes)`,
        actual: showValue(answered),
        ledgerKey: 'cardTypes',
        observed: { card_type: answered, bin: number.slice(0, 6) },
        message: `The service calls a card starting ${number.slice(0, 6)} "${answered}": add a pattern for it to assumptions.cardTypes under that name (and a fee table row).`,
      });
      return;
    }
  } else checkCardTypeName(answered, at, a, list, facts.variables.amount);
  checkFee(fee, at, facts.variables.amount, a, list);
}

/**
 * Checks a GraphQL answer's body against the ledger.
 *
 * @example
 * checkGraphqlLedger(body, facts, defaultAssumptions, list);
 */
export function checkGraphqlLedger(
  body: Record<string, unknown>,
  facts: GraphqlRequestFacts,
  a: Assumptions,
  list: DriftList,
): void {
  checkReasons(body.errors, a, list);
  const data = body.data;
  if (!isPlainObject(data)) return;
  const feeList = data.paymentGatewayFeesCalc;
  if (Array.isArray(feeList))
    feeList.forEach((entry, i) => {
      if (!isPlainObject(entry)) return;
      const at = `data.paymentGatewayFeesCalc[${i}]`;
      checkCardTypeName(entry.card_type, at, a, list, entry.amount ?? facts.variables.amount);
      checkFee(entry, at, facts.variables.amount, a, list);
    });
  if (isPlainObject(data.paymentCreditCardFeeCalc)) checkCardFee(data.paymentCreditCardFeeCalc, facts, a, list);
  const payment = data.processPaymentRequest;
  if (isPlainObject(payment) && isPlainObject(payment.status)) {
    const name = payment.status.name;
    if (typeof name === 'string' && name !== a.statusNames.processing)
      list.assumption({
        side: 'response',
        path: 'data.processPaymentRequest.status.name',
        expected: `"${a.statusNames.processing}" (ledger statusNames.processing)`,
        actual: showValue(name),
        ledgerKey: 'statusNames',
        observed: { processing: name },
        message: `The service names the status right after processPaymentRequest "${name}": set assumptions.statusNames.processing to it.`,
      });
  }
}
