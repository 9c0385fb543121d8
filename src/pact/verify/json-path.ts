/**
 * The JSON paths of Pact matching rules (`$.data.items[*].id`, `$.errors[*].extensions.validation['input.contact']`,
 * `$.a.*`): parsed into segments, matched against the concrete place of a value, and written back for reports.
 *
 * @module
 */
import type { ValuePath } from '../../contract/check/value-path.ts';

export { formatPath, type ValuePath } from '../../contract/check/value-path.ts';

/** One step of a rule's path: a property name, an array index, or a wildcard (`*` or `[*]`). */
export type PathSegment =
  | { readonly kind: 'field'; readonly name: string }
  | { readonly kind: 'index'; readonly index: number }
  | { readonly kind: 'any' };

/**
 * Parses a Pact JSON path; undefined when it is not one (the caller reports the rule as unreadable).
 *
 * @example
 * parseJsonPath("$.errors[*].extensions.validation['input.contact']");
 * // [field errors, any, field extensions, field validation, field input.contact]
 */
export function parseJsonPath(path: string): PathSegment[] | undefined {
  if (!path.startsWith('$')) return undefined;
  const segments: PathSegment[] = [];
  let i = 1;
  while (i < path.length) {
    const char = path[i];
    if (char === '.') {
      const match = /^[^.[\]]+/.exec(path.slice(i + 1));
      if (!match) return undefined;
      const name = match[0];
      segments.push(name === '*' ? { kind: 'any' } : { kind: 'field', name });
      i += 1 + name.length;
    } else if (char === '[') {
      const close = path.indexOf(']', i);
      if (close < 0) return undefined;
      const inner = path.slice(i + 1, close).trim();
      if (inner === '*') segments.push({ kind: 'any' });
      else if (/^\d+$/.test(inner)) segments.push({ kind: 'index', index: Number(inner) });
      else if (/^'.*'$/s.test(inner) || /^".*"$/s.test(inner))
        segments.push({ kind: 'field', name: inner.slice(1, -1) });
      else return undefined;
      i = close + 1;
    } else {
      return undefined;
    }
  }
  return segments;
}

/** Whether a rule path matches the concrete place of a value, step for step. */
export function pathMatches(pattern: readonly PathSegment[], path: ValuePath): boolean {
  if (pattern.length !== path.length) return false;
  return pattern.every((segment, i) => {
    const step = path[i];
    if (segment.kind === 'any') return true;
    if (segment.kind === 'index') return step === segment.index;
    return step === segment.name;
  });
}

/** How specific a rule path is: wildcards weigh less than names and indexes, so the most specific rule wins. */
export function pathWeight(pattern: readonly PathSegment[]): number {
  return pattern.reduce((sum, segment) => sum + (segment.kind === 'any' ? 1 : 2), 0);
}
