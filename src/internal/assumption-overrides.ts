/**
 * The `assumptions` option of the mock and the proxy as a value kind: an object of overrides whose keys are the
 * ledger's (ASSUMPTIONS.md), with card type patterns read from JSON, so a `--config` file and code are checked alike.
 *
 * @module
 */
import { type AssumptionOverrides, type Assumptions, defaultAssumptions } from '../assumptions.ts';
import { type Checked, codeOrJson, Problem, type ValueKind } from './option-table.ts';
import { isPlainObject } from './plain-object.ts';

/**
 * The assumptions whose value is one of a few words (a union type in `Assumptions`): the walk below knows only the
 * defaults, which show one of them.
 */
const choices: Readonly<Record<string, readonly unknown[]>> = {
  totalSettlement: ['amount-plus-fees', 'amount-minus-fees'] satisfies Assumptions['totalSettlement'][],
  repeatGenerateToken: ['reissue', 'reject'] satisfies Assumptions['repeatGenerateToken'][],
  clientRefusedRefresh: ['generate-again', 'fail'] satisfies Assumptions['clientRefusedRefresh'][],
  expirationUnit: ['seconds', 'milliseconds'] satisfies Assumptions['expirationUnit'][],
  'revokeTokenBody.status': ['SUCCESS'] satisfies Assumptions['revokeTokenBody']['status'][],
  rateLimit: [null],
};

/**
 * A given value in a message: a scalar as JSON, cut short; an object or an array by its kind only, since a config
 * file's value may be nested past any stack.
 */
function shown(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object' && value !== null) return 'an object';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}...` : text;
}

/**
 * Checks `given` at `path` against the default `base`: an object takes only the default's keys (each checked the same
 * way), an array takes rows shaped as the default's first row, a number a finite number of at least 0, a string or a
 * boolean the same type. The walk goes no deeper than the defaults do, however deep `given` is.
 */
function checkValue(path: string, given: unknown, base: unknown): Problem | undefined {
  const words = choices[path];
  if (words !== undefined)
    return words.includes(given)
      ? undefined
      : new Problem(`assumption "${path}" must be one of ${words.map(shown).join(', ')}, got ${shown(given)}.`, true);
  if (Array.isArray(base)) {
    if (!Array.isArray(given)) return new Problem(`assumption "${path}" must be an array, got ${shown(given)}.`, true);
    const row = base[0] as Record<string, unknown>;
    for (const [i, item] of given.entries()) {
      const at = `${path}[${i}]`;
      if (!isPlainObject(item)) return new Problem(`assumption "${at}" must be an object, got ${shown(item)}.`, true);
      for (const key of Object.keys(row))
        if (!Object.hasOwn(item, key))
          return new Problem(`assumption "${at}" lacks "${key}": a row replaces the default's whole.`, true);
      const problem = checkKeys(at, item, row);
      if (problem) return problem;
    }
    return undefined;
  }
  if (isPlainObject(base)) {
    if (!isPlainObject(given)) return new Problem(`assumption "${path}" must be an object, got ${shown(given)}.`, true);
    return checkKeys(path, given, base);
  }
  if (typeof base === 'number') {
    if (typeof given === 'number' && Number.isFinite(given) && given >= 0) return undefined;
    return new Problem(`assumption "${path}" must be a number of at least 0, got ${shown(given)}.`, true);
  }
  if (typeof given === typeof base) return undefined;
  return new Problem(`assumption "${path}" must be a ${typeof base}, got ${shown(given)}.`, true);
}

/** Checks each key of `given` against the same key of `base` (own keys only: `__proto__` is no assumption). */
function checkKeys(path: string, given: Record<string, unknown>, base: Record<string, unknown>): Problem | undefined {
  for (const [key, value] of Object.entries(given)) {
    const at = path === '' ? key : `${path}.${key}`;
    if (!Object.hasOwn(base, key))
      return new Problem(`unknown assumption "${at}"; see ASSUMPTIONS.md for the names.`, true);
    if (value === undefined || at === 'cardTypes') continue;
    const problem = checkValue(at, value, base[key]);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * `assumptions`: an object of overrides whose keys are the ledger's (ASSUMPTIONS.md), at every level, each value of
 * its default's type. In a JSON config file each `cardTypes` pattern is the source of a regular expression (`"^4"`),
 * as the proxy's `suggestedConfig` writes it.
 */
export const assumptionsKind: ValueKind<AssumptionOverrides> = codeOrJson((value) => {
  if (!isPlainObject(value)) return new Problem('must be an object of overrides (see ASSUMPTIONS.md).');
  const problem = checkKeys('', value, defaultAssumptions as unknown as Record<string, unknown>);
  if (problem) return problem;
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
