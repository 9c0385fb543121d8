/**
 * The `assumptions` option of the mock and the proxy as a value kind: an object of overrides whose keys are the
 * ledger's (ASSUMPTIONS.md), with card type patterns read from JSON, so a `--config` file and code are checked alike.
 *
 * @module
 */
import { type AssumptionOverrides, defaultAssumptions } from '../assumptions.ts';
import { type Checked, codeOrJson, Problem, type ValueKind } from './option-table.ts';
import { isPlainObject } from './plain-object.ts';

/**
 * `assumptions`: an object of overrides whose keys are the ledger's (ASSUMPTIONS.md). In a JSON config file each
 * `cardTypes` pattern is the source of a regular expression (`"^4"`), as the proxy's `suggestedConfig` writes it.
 */
export const assumptionsKind: ValueKind<AssumptionOverrides> = codeOrJson((value) => {
  if (!isPlainObject(value)) return new Problem('must be an object of overrides (see ASSUMPTIONS.md).');
  for (const key of Object.keys(value))
    if (!(key in defaultAssumptions))
      return new Problem(`unknown assumption "${key}"; see ASSUMPTIONS.md for the names.`, true);
  if (value.cardTypes === undefined) return value as AssumptionOverrides;
  const cardTypes = cardTypesFromJson(value.cardTypes);
  return cardTypes instanceof Problem ? cardTypes : ({ ...value, cardTypes } as AssumptionOverrides);
});

function cardTypesFromJson(value: unknown): Checked<{ card_type: string; pattern: RegExp }[]> {
  const shape = '[{ "card_type": "visa", "pattern": "^4" }, ...] (each pattern a regular expression source)';
  if (!Array.isArray(value)) return new Problem(`"cardTypes" must be an array ${shape}.`, true);
  const out: { card_type: string; pattern: RegExp }[] = [];
  for (const [i, row] of (value as unknown[]).entries()) {
    const o = row as Record<string, unknown> | null;
    const pattern = o?.pattern;
    if (!o || typeof o.card_type !== 'string' || (typeof pattern !== 'string' && !(pattern instanceof RegExp)))
      return new Problem(`cardTypes[${i}] needs string "card_type" and "pattern": ${shape}.`, true);
    try {
      out.push({ card_type: o.card_type, pattern: pattern instanceof RegExp ? pattern : new RegExp(pattern) });
    } catch (error) {
      return new Problem(`cardTypes[${i}].pattern is not a regular expression (${(error as Error).message}).`, true);
    }
  }
  return out;
}
