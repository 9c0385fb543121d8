/**
 * The mock's 7.3 input validation: requiredness from the schema, then the format rules of each operation, written
 * as a table (input-rules.ts) that a walker (walk.ts) checks. This barrel is what the resolvers, the control handle
 * and the tests use.
 *
 * @module
 */
export type { Problems, ValidationDeps } from './collector.ts';
export {
  cardFeeCalcRules,
  cardRules,
  cardValidationRules,
  feesCalcRules,
  type InputRule,
  paymentRules,
} from './input-rules.ts';
export { cardNumberMessage, ruleMessages, validationMessages } from './messages.ts';
export type { ValidatedCard } from './passed-card.ts';
export { conditions, rules } from './rules.ts';
export {
  type Validated,
  type ValidationRequest,
  type ValidCardFeeCalc,
  type ValidPayment,
  validateCardFeeCalcArgs,
  validateCardForValidation,
  validateFeesCalcAmount,
  validatePaymentInput,
} from './validators.ts';
