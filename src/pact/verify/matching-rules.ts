/**
 * Matching rules in both of Pact's forms, read into one: V2 keeps every rule in one map keyed by a path into the
 * whole request (`$.body.id`, `$.headers.Accept`, `$.query.page`); V3 and V4 group them by category, each entry
 * holding `{ matchers, combine }`. Also finds the rule that governs a value, the most specific path first.
 *
 * @module
 */
import { isPlainObject } from '../../internal/plain-object.ts';
import { parseJsonPath, pathMatches, pathWeight, type ValuePath } from './json-path.ts';
import type { Matcher, MatchingRules, RuleCategory, RuleEntry } from './pact-model.ts';

const categories: readonly RuleCategory[] = ['body', 'header', 'query', 'path', 'status', 'metadata'];
/** Categories keyed by a plain name rather than a JSON path. */
const namedCategories = new Set<RuleCategory>(['header', 'query', 'metadata']);

/** A V2 matcher may leave out `match`: a `regex` option means regex, `min`/`max` alone mean type. */
function readMatcher(raw: unknown): Matcher | undefined {
  if (!isPlainObject(raw)) return undefined;
  if (typeof raw.match === 'string') return raw as Matcher;
  if (typeof raw.regex === 'string') return { ...raw, match: 'regex' };
  if (raw.min !== undefined || raw.max !== undefined) return { ...raw, match: 'type' };
  return undefined;
}

function entry(category: RuleCategory, path: string, raw: unknown): RuleEntry {
  const body = isPlainObject(raw) ? raw : {};
  const list = Array.isArray(body.matchers) ? body.matchers : [body];
  const matchers = list.map(readMatcher).filter((m): m is Matcher => m !== undefined);
  const combine = body.combine === 'OR' ? 'OR' : 'AND';
  // Header and query rules are keyed by name; some writers still put `$.` in front of it.
  const name = namedCategories.has(category) ? path.replace(/^\$\.?/, '') : path;
  return {
    path: name,
    segments: namedCategories.has(category) ? undefined : parseJsonPath(name),
    matchers,
    combine,
  };
}

/** Reads V3/V4 category rules (`{ body: { '$.id': { matchers } } }`). */
function readCategoryRules(raw: Record<string, unknown>): MatchingRules {
  const rules: Partial<Record<RuleCategory, RuleEntry[]>> = {};
  for (const category of categories) {
    const group = raw[category];
    if (!isPlainObject(group)) continue;
    // V3 `path` (and some writers' `status`) holds the matchers directly, with no path key.
    if (Array.isArray(group.matchers)) {
      rules[category] = [entry(category, '$', group)];
      continue;
    }
    rules[category] = Object.entries(group).map(([path, value]) => entry(category, path, value));
  }
  return rules;
}

/** Reads V2 rules (`{ '$.body.id': { match: 'type' } }`) into categories. */
function readV2Rules(raw: Record<string, unknown>): MatchingRules {
  const rules: Partial<Record<RuleCategory, RuleEntry[]>> = {};
  const add = (category: RuleCategory, path: string, value: unknown) => {
    const list = rules[category] ?? [];
    list.push(entry(category, path, value));
    rules[category] = list;
  };
  for (const [key, value] of Object.entries(raw)) {
    const match = /^\$\.(body|headers?|query|path|status|metadata)(.*)$/.exec(key);
    if (!match) continue;
    const [, area = '', rest = ''] = match;
    const category: RuleCategory = area === 'headers' ? 'header' : (area as RuleCategory);
    if (namedCategories.has(category)) add(category, rest.replace(/^\.|^\['|'\]$/g, ''), value);
    else add(category, `$${rest}`, value);
  }
  return rules;
}

/**
 * Reads the matching rules of a request, response or message in either form.
 *
 * @example
 * readMatchingRules({ '$.body.fees': { match: 'type' } }).body?.[0]?.path; // '$.fees'
 */
export function readMatchingRules(raw: unknown): MatchingRules {
  if (!isPlainObject(raw)) return {};
  const isV2 = Object.keys(raw).some((key) => key.startsWith('$'));
  return isV2 ? readV2Rules(raw) : readCategoryRules(raw);
}

/**
 * The matchers that govern the value at `path` of a body: those of the most specific rule whose path matches it.
 *
 * @example
 * matchersAt(rules.body, ['data', 'paymentGatewayFeesCalc', 0, 'fees']); // [{ match: 'number' }]
 */
export function matchersAt(entries: readonly RuleEntry[] | undefined, path: ValuePath): readonly Matcher[] {
  let best: RuleEntry | undefined;
  let bestWeight = -1;
  for (const rule of entries ?? []) {
    if (!rule.segments || !pathMatches(rule.segments, path)) continue;
    const weight = pathWeight(rule.segments);
    if (weight > bestWeight) {
      best = rule;
      bestWeight = weight;
    }
  }
  return best?.matchers ?? [];
}

/** The rules of a named category (header, query, metadata) that apply to `name`, compared without case for headers. */
export function matchersNamed(
  entries: readonly RuleEntry[] | undefined,
  name: string,
  ignoreCase: boolean,
): readonly Matcher[] {
  const wanted = ignoreCase ? name.toLowerCase() : name;
  const rule = (entries ?? []).find((r) => (ignoreCase ? r.path.toLowerCase() : r.path) === wanted);
  return rule?.matchers ?? [];
}
