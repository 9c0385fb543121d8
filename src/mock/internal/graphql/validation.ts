/**
 * The mock's 7.3 input validation: requiredness from the schema's `@serverRequired` metadata (one source for both
 * guides), then the operation's rule table (validation-rules.ts), collecting every problem of the request in the
 * service's 7.3 shape, not only the first. The walker compiles a table once per operation and guide (full paths,
 * rule and message functions, one bit per field), then checks one request against it, allocating nothing per row
 * while it passes. This runs on every payment request: the tables are compiled once, here.
 *
 * @module
 */
import { type GuideName, paymentInputType } from '../../../contract/guides.ts';
import { kitMessage } from '../../../internal/messages.ts';
import { isPlainObject } from '../../../internal/plain-object.ts';
import type { Guide } from '../domain/payments.ts';
import {
  addProblem,
  isGivenText,
  isPresent,
  validationMessages as m,
  type Problems,
  ruleMessages,
  startWalk,
  type ValidationDeps,
  type Walk,
} from './validation-messages.ts';
import {
  type Condition,
  cardFeeCalcRules,
  cardValidationRules,
  conditions,
  feesCalcRules,
  type InputRule,
  passedCard,
  paymentRules,
  type Rule,
  rules,
  type ValidatedCard,
} from './validation-rules.ts';
import type {
  InputRequirements,
  WireCardFeeCalcArgs,
  WireCreditCardInput,
  WirePaymentInput,
  WireRequirements,
} from './wire-schema.ts';

/** A row ready to run: where its value is, its full path, its rule, message and conditions. */
interface CompiledRule {
  /** Field names from the input to the object that holds the field. */
  readonly parent: readonly string[];
  /** The field's name in its parent, or `*` for each field of the parent. */
  readonly key: string;
  /** The 7.3 path of the field (for `*`, of the parent with a trailing dot). */
  readonly path: string;
  /** The field's bit in {@link Walk.reported}; 0 for `*` rows, whose fields are checked once each. */
  readonly bit: number;
  readonly test: Rule;
  readonly message: (path: string, walk: Walk) => string;
  readonly when: readonly Condition[];
}

/** A table compiled for each guide. */
type CompiledTable = Readonly<Record<GuideName, readonly CompiledRule[]>>;

/** Walk.reported is a 32-bit mask. */
const maxFields = 31;

function compileFor(table: readonly InputRule[], pathPrefix: string, guide: GuideName): CompiledRule[] {
  const fieldBits = new Map<string, number>();
  // One names array per parent, so the walk can tell by identity that a row's parent is the previous row's.
  const parents = new Map<string, readonly string[]>();
  const out: CompiledRule[] = [];
  for (const row of table) {
    if (row.guide !== undefined && row.guide !== guide) continue;
    const field = typeof row.field === 'string' ? row.field : row.field[guide];
    const names = field.split('.');
    const key = names.pop()!;
    let bit = 0;
    if (key !== '*') {
      if (!fieldBits.has(field)) fieldBits.set(field, fieldBits.size);
      bit = 1 << fieldBits.get(field)!;
    }
    if (fieldBits.size > maxFields)
      throw new Error(
        kitMessage(`A validation rule table has more than ${maxFields} fields; split it by input object.`),
      );
    const parentKey = names.join('.');
    if (!parents.has(parentKey)) parents.set(parentKey, names);
    out.push({
      parent: parents.get(parentKey)!,
      key,
      path: key === '*' ? `${pathPrefix}${names.join('.')}.` : pathPrefix + field,
      bit,
      test: rules[row.rule],
      message: ruleMessages[row.message],
      when: (row.when ?? []).map((name) => conditions[name]),
    });
  }
  return out;
}

/**
 * Compiles a rule table for both guides, with `pathPrefix` before every field in the messages' paths (`input.`).
 *
 * @example
 * const payment = compileRules(paymentRules, 'input.');
 */
export function compileRules(table: readonly InputRule[], pathPrefix: string): CompiledTable {
  return { current: compileFor(table, pathPrefix, 'current'), legacy: compileFor(table, pathPrefix, 'legacy') };
}

/** The object that holds a row's field, or undefined when a step on the way is not an object. */
function parentOf(root: Readonly<Record<string, unknown>>, names: readonly string[]) {
  let at: Readonly<Record<string, unknown>> = root;
  for (const name of names) {
    const next = at[name];
    if (!isPlainObject(next)) return undefined;
    at = next;
  }
  return at;
}

function report(walk: Walk, path: string, message: (path: string, walk: Walk) => string): void {
  walk.problems = addProblem(walk.problems, path, message(path, walk));
}

/**
 * Checks `root` (the operation's input) against a compiled table in the walk's guide, adding each problem to the
 * walk in the table's order.
 *
 * @example
 * walkRules(payment, input, walk);
 */
function walkRules(table: CompiledTable, root: Readonly<Record<string, unknown>>, walk: Walk): void {
  let names: readonly string[] | undefined;
  let parent: Readonly<Record<string, unknown>> | undefined;
  rows: for (const row of table[walk.guide]) {
    if ((walk.reported & row.bit) !== 0) continue;
    if (row.parent !== names) {
      names = row.parent;
      parent = parentOf(root, names);
    }
    if (parent === undefined) continue;
    for (const applies of row.when) if (!applies(parent, walk)) continue rows;
    if (row.key === '*') {
      for (const key in parent) {
        const value = parent[key];
        if (value !== undefined && value !== null && !row.test(value, parent, walk))
          report(walk, row.path + key, row.message);
      }
      continue;
    }
    const value = parent[row.key];
    if (value === undefined || value === null || row.test(value, parent, walk)) continue;
    report(walk, row.path, row.message);
    walk.reported |= row.bit;
  }
}

/**
 * Checks every `@serverRequired` position under `value` (fields of `requirements`, descending into nested input
 * objects), honouring `unlessPresent`. `prefix` is the dotted path of `value` with a trailing dot, or '' for
 * arguments.
 *
 * @example
 * const problems = checkRequired(all, all.inputTypes.get('CreditCardInput'), card, 'input.credit_card.', undefined);
 */
function checkRequired(
  all: WireRequirements,
  requirements: InputRequirements | undefined,
  value: Readonly<Record<string, unknown>>,
  prefix: string,
  problems: Problems | undefined,
): Problems | undefined {
  if (!requirements) return problems;
  let out = problems;
  for (const r of requirements.required) {
    if (r.unlessPresent !== undefined && isPresent(value[r.unlessPresent])) continue;
    if (!isPresent(value[r.name])) out = addProblem(out, prefix + r.name, m.required(prefix + r.name));
  }
  for (const n of requirements.nested) {
    const child = value[n.name];
    if (isPlainObject(child)) out = checkRequired(all, all.inputTypes.get(n.type), child, `${prefix}${n.name}.`, out);
  }
  return out;
}

const payment = compileRules(paymentRules, 'input.');
const cardFeeCalc = compileRules(cardFeeCalcRules, '');
const feesCalc = compileRules(feesCalcRules, '');
const cardValidation = compileRules(cardValidationRules, 'input.credit_card.');

/** A payment input that passed validation, ready for the domain. */
interface ValidPayment {
  readonly amount: number;
  readonly fees: number;
  readonly card: ValidatedCard;
  readonly payment_reference: { readonly description: string; readonly reference_no: string };
  readonly metadata: Readonly<Record<string, unknown>> | undefined;
  readonly vendor_device_id: string | undefined;
  readonly ip_address: string | undefined;
}

/** Outcome of validating a request: the valid value, or the problems to answer with. */
type Validated<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problems: Problems };

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
interface ValidCardFeeCalc {
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
