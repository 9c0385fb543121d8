/**
 * The walker of the rule tables: compiles a table once per operation and guide (full paths, rule and message
 * functions, one bit per field), then checks one request against it, allocating nothing per row while it passes.
 *
 * @module
 */
import type { GuideName } from '../../../../contract/guides.ts';
import { kitMessage } from '../../../../internal/messages.ts';
import { isPlainObject } from '../../../../internal/plain-object.ts';
import { addProblem, type Walk } from './collector.ts';
import type { InputRule } from './input-rules.ts';
import { ruleMessages } from './messages.ts';
import { type Condition, conditions, type Rule, rules } from './rules.ts';

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
export type CompiledTable = Readonly<Record<GuideName, readonly CompiledRule[]>>;

/** Walk.reported is a 32-bit mask. */
const maxFields = 31;

function compileFor(table: readonly InputRule[], pathPrefix: string, guide: GuideName): CompiledRule[] {
  const fieldBits = new Map<string, number>();
  // One names array per parent, so the walk can tell by identity that a row's parent is the previous row's.
  const parents = new Map<string, readonly string[]>();
  const out: CompiledRule[] = [];
  for (const row of table) {
    if (row.guide !== 'both' && row.guide !== guide) continue;
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
export function walkRules(table: CompiledTable, root: Readonly<Record<string, unknown>>, walk: Walk): void {
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
