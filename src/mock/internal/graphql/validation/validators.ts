/**
 * The four validators of the mock's GraphQL inputs: requiredness from the schema, then the operation's rule table
 * (input-rules.ts), collecting every problem of the request in the service's 7.3 shape, not only the first.
 * This runs on every payment request: the tables are compiled once, here.
 *
 * @module
 */
import { paymentInputType } from '../../../../contract/guides.ts';
import { isPlainObject } from '../../../../internal/plain-object.ts';
import type { Guide } from '../../payments/state.ts';
import { isGivenText, type Problems, startWalk, type ValidationDeps } from './collector.ts';
import { cardFeeCalcRules, cardValidationRules, feesCalcRules, paymentRules } from './input-rules.ts';
import { validationMessages as m } from './messages.ts';
import { passedCard, type ValidatedCard } from './passed-card.ts';
import { checkRequired } from './required.ts';
import type { WireRequirements } from './requirements.ts';
import { compileRules, walkRules } from './walk.ts';
import type { WireCardFeeCalcArgs, WireCreditCardInput, WirePaymentInput } from './wire-types.ts';

const payment = compileRules(paymentRules, 'input.');
const cardFeeCalc = compileRules(cardFeeCalcRules, '');
const feesCalc = compileRules(feesCalcRules, '');
const cardValidation = compileRules(cardValidationRules, 'input.credit_card.');

/** A payment input that passed validation, ready for the domain. */
export interface ValidPayment {
  readonly amount: number;
  readonly fees: number;
  readonly card: ValidatedCard;
  readonly payment_reference: { readonly description: string; readonly reference_no: string };
  readonly metadata: Readonly<Record<string, unknown>> | undefined;
  readonly vendor_device_id: string | undefined;
  readonly ip_address: string | undefined;
}

/** Outcome of validating a request: the valid value, or the problems to answer with. */
export type Validated<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly problems: Problems };

/** What every validator is told about the request besides its input. */
export interface ValidationRequest {
  /** The guide the request is in. */
  readonly guide: Guide;
  /** The client asking (card accounts are per client). */
  readonly clientId: string;
  /** The wire schema's requiredness, of the request's guide. */
  readonly requirements: WireRequirements;
  readonly deps: ValidationDeps;
}

/**
 * Validates the `input` of `processPaymentRequest` (both guides), collecting every problem under `input.`.
 *
 * @example
 * const r = validatePaymentInput(args.input, { guide: 'current', clientId: 'test-client', requirements, deps });
 * if (!r.ok) throw validationError('processPaymentRequest', r.problems);
 */
export function validatePaymentInput(
  input: WirePaymentInput | null | undefined,
  request: ValidationRequest,
): Validated<ValidPayment> {
  if (!isPlainObject(input)) return { ok: false, problems: { input: [m.required('input')] } };
  const { guide, requirements } = request;
  const required = checkRequired(
    requirements,
    requirements.inputTypes.get(paymentInputType[guide]),
    input,
    'input.',
    undefined,
  );
  const walk = startWalk(request.deps, guide, request.clientId, true, required);
  walkRules(payment, input, walk);
  const { problems } = walk;
  const card = problems ? undefined : passedCard(input.credit_card, walk);
  const reference = guide === 'legacy' ? input.contact : input.payment_reference;
  if (problems || !card || !isPlainObject(reference)) return { ok: false, problems: problems ?? {} };
  const { ip_address: ip, metadata } = input;
  return {
    ok: true,
    value: {
      amount: input.amount as number,
      fees: input.fees as number,
      card,
      payment_reference: {
        description: reference.description as string,
        reference_no: reference.reference_no as string,
      },
      metadata: isPlainObject(metadata) ? metadata : undefined,
      vendor_device_id: typeof input.vendor_device_id === 'string' ? input.vendor_device_id : undefined,
      ip_address: isGivenText(ip) ? ip : undefined,
    },
  };
}

/** A card fee calculation request that passed validation. */
export interface ValidCardFeeCalc {
  readonly amount: number;
  readonly card: ValidatedCard;
}

/**
 * Validates the arguments of `paymentCreditCardFeeCalc` (paths without prefix: `contact`, `credit_card.cvv`, …).
 * The test card the service rejects is priced here, not refused.
 *
 * @example
 * const r = validateCardFeeCalcArgs(args, { guide: 'current', clientId: 'test-client', requirements, deps });
 */
export function validateCardFeeCalcArgs(
  args: WireCardFeeCalcArgs,
  request: ValidationRequest,
): Validated<ValidCardFeeCalc> {
  const { guide, requirements } = request;
  const argsObject = args as Record<string, unknown>;
  const fieldArgs = requirements.fieldArguments.get('Query.paymentCreditCardFeeCalc');
  const walk = startWalk(
    request.deps,
    guide,
    request.clientId,
    false,
    checkRequired(requirements, fieldArgs, argsObject, '', undefined),
  );
  walkRules(cardFeeCalc, argsObject, walk);
  const { problems } = walk;
  const card = problems ? undefined : passedCard(args.credit_card, walk);
  if (problems || !card || typeof args.amount !== 'number') return { ok: false, problems: problems ?? {} };
  return { ok: true, value: { amount: args.amount, card } };
}

/**
 * Validates the amount of `paymentGatewayFeesCalc` (path `amount`).
 *
 * @example
 * const problems = validateFeesCalcAmount(args.amount, deps);
 */
export function validateFeesCalcAmount(amount: number, deps: ValidationDeps): Problems | undefined {
  const walk = startWalk(deps, 'current', '', false, undefined);
  walkRules(feesCalc, { amount }, walk);
  return walk.problems;
}

/**
 * Validates the card of the work-in-progress `creditCardValidation` with the payment rules (raw details or a card
 * account), under `input.credit_card.`.
 *
 * @example
 * const r = validateCardForValidation(args.input?.credit_card, { guide, clientId, requirements, deps });
 */
export function validateCardForValidation(
  card: WireCreditCardInput | null | undefined,
  request: ValidationRequest,
): Validated<ValidatedCard> {
  if (!isPlainObject(card)) return { ok: false, problems: { 'input.credit_card': [m.required('input.credit_card')] } };
  const { requirements } = request;
  const cardType = requirements.inputTypes.get('CreditCardInput');
  const required = checkRequired(requirements, cardType, card, 'input.credit_card.', undefined);
  const walk = startWalk(request.deps, request.guide, request.clientId, true, required);
  walkRules(cardValidation, card, walk);
  const passed = walk.problems ? undefined : passedCard(card, walk);
  if (walk.problems || !passed) return { ok: false, problems: walk.problems ?? {} };
  return { ok: true, value: passed };
}
