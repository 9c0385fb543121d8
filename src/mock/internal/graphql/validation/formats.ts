/**
 * Format predicates of the rule table that are more than one comparison: an email address, the nesting and size of
 * a JSON object. Pure functions of the value.
 *
 * @module
 */
import { utf8ByteLength } from '../../../../internal/text-bytes.ts';

/**
 * Whether a string looks like an email address. Deliberately loose: one @, something on both sides, a dot in the
 * domain, no blanks. The service's rule is not published.
 *
 * @example
 * looksLikeEmail('ada@example.com'); // true
 */
export function looksLikeEmail(value: string): boolean {
  const at = value.indexOf('@');
  if (at <= 0 || at !== value.lastIndexOf('@')) return false;
  const dot = value.lastIndexOf('.');
  if (dot < at + 2 || dot === value.length - 1) return false;
  for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) <= 32) return false;
  return true;
}

/**
 * Whether `value` nests deeper than `maxDepth` (the value itself is level 1; each object or array inside adds one).
 * Walks with an explicit stack and stops at the first level past the limit, so no input can exhaust the call stack.
 *
 * @example
 * nestsDeeperThan({ a: { b: {} } }, 2); // true
 */
export function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 1 }];
  while (stack.length > 0) {
    const { value: v, depth } = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > maxDepth) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v))
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}

/**
 * The size of a value as JSON in UTF-8 bytes. Call it only on a value whose depth is bounded
 * ({@link nestsDeeperThan}), so serializing cannot recurse out of the stack.
 *
 * @example
 * jsonBytes({ a: 'é' }); // 10
 */
export function jsonBytes(value: unknown): number {
  return utf8ByteLength(JSON.stringify(value));
}
