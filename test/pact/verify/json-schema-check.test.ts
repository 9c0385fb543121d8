// The JSON Schema walker reads every keyword the shipped openapi.yaml uses, so nothing there is skipped silently.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { checkJsonSchema, supportedKeywords } from '../../../src/pact/verify/json-schema-check.ts';
import type { Mismatch } from '../../../src/pact/verify/mismatch.ts';

const document = parse(readFileSync(resolve(import.meta.dirname, '../../../openapi.yaml'), 'utf8'));
const annotations = new Set(['description', 'title', 'summary', 'example', 'examples', 'format']);

/** The keywords of a schema and of every schema inside it. */
function keywordsOf(schema: unknown, into = new Set<string>()): Set<string> {
  if (typeof schema !== 'object' || schema === null) return into;
  const s = schema as Record<string, unknown>;
  for (const key of Object.keys(s)) into.add(key);
  for (const sub of Object.values((s.properties as object | undefined) ?? {})) keywordsOf(sub, into);
  for (const key of ['items', 'additionalProperties']) keywordsOf(s[key], into);
  for (const key of ['allOf', 'anyOf', 'oneOf'])
    for (const sub of (s[key] as unknown[] | undefined) ?? []) keywordsOf(sub, into);
  return into;
}

describe('checkJsonSchema', () => {
  it('reads every validation keyword of openapi.yaml', () => {
    const used = new Set<string>();
    for (const schema of Object.values(document.components.schemas)) keywordsOf(schema, used);
    expect(used).toContain('const');
    const unread = [...used].filter((k) => !supportedKeywords.has(k) && !annotations.has(k));
    expect(unread).toEqual([]);
  });

  it('reports a keyword it does not read instead of passing it', () => {
    const out: Mismatch[] = [];
    checkJsonSchema(
      { resolve: (s) => s, rules: undefined, area: 'response.body', source: 'x.yaml', out },
      'a',
      {
        type: 'string',
        pattern: '^b',
      },
      [],
    );
    expect(out.map((m) => m.message)).toEqual(['the schema uses "pattern", which the kit\'s check does not read']);
  });

  it.each([
    [-1, ['-1']],
    [0, []],
    [3, []],
  ])('holds %s to a minimum of 0', (value, want) => {
    const out: Mismatch[] = [];
    checkJsonSchema(
      { resolve: (s) => s, rules: undefined, area: 'response.body', source: 'x.yaml', out },
      value,
      { type: 'integer', minimum: 0 },
      [],
    );
    expect(out.map((m) => m.message)).toEqual(want);
  });
});
