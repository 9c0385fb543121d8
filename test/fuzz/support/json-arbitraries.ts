/**
 * Arbitraries of hostile JSON: values of every wrong type, numbers JSON.stringify cannot write (`-0`, `1e308`,
 * `1e400`), numbers as strings, lone surrogates, huge strings and deep nesting, and mutations of a valid body
 * (a field dropped, retyped or added, the text truncated, the object wrapped in an array).
 *
 * @module
 */
import fc from 'fast-check';

/** A piece of JSON text written as is, for numbers and escapes JSON.stringify would normalise. */
export class RawJson {
  constructor(readonly text: string) {}
}

/** JSON text of `value`, with {@link RawJson} parts written verbatim. */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v)}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** The CVVs the fuzz sends; the secret scanner looks for exactly these. Nothing else the fuzz sends equals them. */
export const sentCvvs = ['739', '4821', '0427'] as const;
const cvvSet = new Set<string>(sentCvvs);

/** Numbers, including the edges a JSON parser and a money calculation can trip on. */
export const hostileNumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }).filter((n) => !cvvSet.has(String(n))),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, 1, -1, 0.1, 2 ** 53, -(2 ** 53), Number.MAX_SAFE_INTEGER + 2, 5e-324, Number.MAX_VALUE),
  fc
    .constantFrom('1e308', '-1e308', '-0', '1e400', '-1e400', '1E-400', '0.0000000000000000000001', '123456789e99')
    .map((t) => new RawJson(t)),
);

/** A string of `size` characters, within or past the body limit depending on `size`. */
export const hugeString = (size: number): string => 'x'.repeat(size);

/** Strings: unicode, lone surrogates (escaped, so the JSON stays valid and the parser makes them), digits. */
export const hostileString: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.constantFrom('\ud800', '\udfff', 'a\ud83d', '\u0000', '\u202e', '\ufeff', '𝕏', 'é') },
  { weight: 1, arbitrary: fc.constantFrom('"\\ud800"', '"\\udc00x"', '"\\u0000"').map((t) => new RawJson(t)) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', 'null', 'true', '[]', '{}', '__proto__', 'constructor') },
  { weight: 1, arbitrary: hostileNumber.map((n) => (n instanceof RawJson ? n.text : String(n))) },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 20_000 }).map(hugeString) },
);

/** Nested arrays or objects `depth` levels deep around `inner`. */
export function nest(depth: number, inner: unknown, as: 'array' | 'object'): RawJson {
  const open = as === 'array' ? '[' : '{"a":';
  const close = as === 'array' ? ']' : '}';
  return new RawJson(open.repeat(depth) + toJsonText(inner) + close.repeat(depth));
}

/** Nesting depths: mostly moderate, sometimes far past any sane limit (still well under the body limit). */
const nestingDepth = fc.oneof(
  { weight: 9, arbitrary: fc.integer({ min: 2, max: 3_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 10_000, max: 100_000 }) },
);

/** Any JSON value of a random type, scalars weighted over containers. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: hostileString },
  { weight: 3, arbitrary: hostileNumber },
  { weight: 2, arbitrary: fc.constantFrom(null, true, false) },
  { weight: 1, arbitrary: fc.array(fc.oneof(fc.string({ maxLength: 5 }), fc.integer()), { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }) },
  { weight: 1, arbitrary: nestingDepth.map((d) => nest(d, 1, 'array')) },
  { weight: 1, arbitrary: nestingDepth.map((d) => nest(d, 1, 'object')) },
);

type Path = readonly (string | number)[];

function paths(value: unknown, prefix: Path = []): Path[] {
  const out: Path[] = [prefix];
  if (Array.isArray(value)) for (const [i, v] of value.entries()) out.push(...paths(v, [...prefix, i]));
  else if (value !== null && typeof value === 'object' && !(value instanceof RawJson))
    for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, k]));
  return out;
}

function clone(value: unknown): unknown {
  if (value instanceof RawJson) return value;
  if (Array.isArray(value)) return value.map(clone);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clone(v)]));
  return value;
}

type Mutation = { kind: 'retype'; value: unknown } | { kind: 'drop' } | { kind: 'add'; key: string; value: unknown };

function applyMutation(root: unknown, path: Path, m: Mutation): unknown {
  if (path.length === 0) return m.kind === 'retype' ? m.value : root;
  const parent = path.slice(0, -1).reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], root) as
    | Record<string | number, unknown>
    | unknown[];
  const key = path[path.length - 1]!;
  if (m.kind === 'retype') (parent as Record<string | number, unknown>)[key] = m.value;
  else if (m.kind === 'drop') {
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete (parent as Record<string | number, unknown>)[key];
  } else {
    const target = (parent as Record<string | number, unknown>)[key];
    if (target !== null && typeof target === 'object' && !Array.isArray(target) && !(target instanceof RawJson))
      (target as Record<string, unknown>)[m.key] = m.value;
  }
  return root;
}

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 5, arbitrary: hostileValue.map((value) => ({ kind: 'retype' as const, value })) },
  { weight: 2, arbitrary: fc.constant({ kind: 'drop' as const }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.oneof(fc.string({ maxLength: 10 }), fc.constant('__proto__')), hostileValue)
      .map(([key, value]) => ({ kind: 'add' as const, key, value })),
  },
);

/** `valid` with one to three fields dropped, retyped or added, at any depth. Never changes `valid` itself. */
export function mutated(valid: unknown): fc.Arbitrary<unknown> {
  const all = paths(valid);
  return fc.array(fc.tuple(fc.nat({ max: all.length - 1 }), mutation), { minLength: 1, maxLength: 3 }).map((steps) => {
    let root = clone(valid);
    for (const [i, m] of steps) {
      const available = paths(root);
      root = applyMutation(root, available[i % available.length]!, m);
    }
    return root;
  });
}

/** JSON text from a value, sometimes cut short, wrapped in an array, or with a number turned into a string. */
export function jsonText(value: fc.Arbitrary<unknown>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: value.map(toJsonText) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(value.map(toJsonText), fc.nat())
        .map(([text, cut]) => text.slice(0, text.length <= 1 ? 0 : cut % text.length)),
    },
    { weight: 1, arbitrary: value.map((v) => `[${toJsonText(v)}]`) },
    {
      weight: 1,
      arbitrary: value.map((v) => toJsonText(v).replace(/:(-?\d+(?:\.\d+)?)(?=[,}])/, (_m, n: string) => `:"${n}"`)),
    },
  );
}
