/**
 * Requiredness, read from the wire schema's `@serverRequired` metadata (one source for both guides): the first
 * check of every validation, before the format rules of the table.
 *
 * @module
 */
import { isPlainObject } from '../../../../internal/plain-object.ts';
import { addProblem, isPresent, type Problems } from './collector.ts';
import { validationMessages } from './messages.ts';
import type { InputRequirements, WireRequirements } from './requirements.ts';

/**
 * Checks every `@serverRequired` position under `value` (fields of `requirements`, descending into nested input
 * objects), honouring `unlessPresent`. `prefix` is the dotted path of `value` with a trailing dot, or '' for
 * arguments.
 *
 * @example
 * const problems = checkRequired(all, all.inputTypes.get('CreditCardInput'), card, 'input.credit_card.', undefined);
 */
export function checkRequired(
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
    if (!isPresent(value[r.name])) out = addProblem(out, prefix + r.name, validationMessages.required(prefix + r.name));
  }
  for (const n of requirements.nested) {
    const child = value[n.name];
    if (isPlainObject(child)) out = checkRequired(all, all.inputTypes.get(n.type), child, `${prefix}${n.name}.`, out);
  }
  return out;
}
