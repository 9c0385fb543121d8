/**
 * An expected JSON value (a REST body, message contents) against a JSON Schema of openapi.yaml, with the pact's
 * matchers on each value. It reads the keywords openapi.yaml uses and reports any other validation keyword as
 * unsupported rather than passing it silently; test/pact/verify covers that every keyword of the shipped file is read.
 *
 * No JSON Schema validator is a declared dependency of the kit, and its run-time dependencies stay graphql and
 * graphql-jit, so this small walker is the kit's own; its messages name the matcher and the path as well.
 *
 * One choice goes beyond JSON Schema: where a schema lists `properties` and says nothing of `additionalProperties`,
 * a property it does not list is reported. The service documents every field it sends, so a pact expecting another
 * one expects something the service never answers.
 *
 * @module
 */
import { isPlainObject } from '../../internal/plain-object.ts';
import { formatPath, type ValuePath } from './json-path.ts';
import { describeValue, matcherProblems, type PositionType, type ValueKind, valueFits } from './matcher-check.ts';
import { matchersAt } from './matching-rules.ts';
import type { Mismatch, MismatchArea } from './mismatch.ts';
import type { JsonSchema } from './openapi-document.ts';
import type { RuleEntry } from './pact-model.ts';

/** Keywords that describe but do not constrain. */
const annotations = new Set([
  'description',
  'title',
  'summary',
  'example',
  'examples',
  'format',
  'deprecated',
  'readOnly',
  'writeOnly',
  'default',
  '$comment',
  'externalDocs',
  'xml',
]);
/** Keywords this walker checks. */
export const supportedKeywords = new Set([
  '$ref',
  'type',
  'const',
  'enum',
  'required',
  'properties',
  'additionalProperties',
  'items',
  'nullable',
  'allOf',
  'anyOf',
  'oneOf',
  'minItems',
  'maxItems',
  'minimum',
]);

/** What a walk needs besides the value. */
export interface SchemaContext {
  readonly resolve: (schema: JsonSchema) => JsonSchema;
  readonly rules: readonly RuleEntry[] | undefined;
  readonly area: MismatchArea;
  /** The schema's name for the reports (`TokenPairResponse in openapi.yaml`). */
  readonly source: string;
  readonly out: Mismatch[];
}

const typeKinds: Readonly<Record<string, ValueKind>> = {
  string: 'string',
  integer: 'integer',
  number: 'number',
  boolean: 'boolean',
  object: 'object',
  array: 'list',
};

function typesOf(schema: JsonSchema): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.map(String);
  return [];
}

function positionOf(schema: JsonSchema): PositionType {
  const types = typesOf(schema);
  const nonNull = types.filter((t) => t !== 'null');
  const kind: ValueKind = nonNull.length === 1 ? (typeKinds[nonNull[0]!] ?? 'any') : 'any';
  return {
    kind,
    nullable: types.includes('null') || schema.nullable === true || types.length === 0,
    label: types.length > 0 ? types.join(' or ') : 'any value',
  };
}

function add(context: SchemaContext, path: ValuePath, message: string, expected: string): void {
  context.out.push({ area: context.area, path: formatPath(path), message, expected });
}

/** The name of a schema for the reports: its `$ref` target's last part, when it has one. */
function nameOf(schema: JsonSchema, fallback: string): string {
  return typeof schema.$ref === 'string' ? schema.$ref.split('/').pop()! : fallback;
}

/**
 * Walks `value` against `schema`; pushes one mismatch per problem.
 *
 * @example
 * checkJsonSchema(context, { status: 'SUCCESS', data: {} }, responseSchema, []);
 */
export function checkJsonSchema(
  context: SchemaContext,
  value: unknown,
  raw: JsonSchema,
  path: ValuePath,
  label?: string,
): void {
  const schema = context.resolve(raw);
  const where = `${label ?? nameOf(raw, 'schema')} in ${context.source}`;
  for (const keyword of Object.keys(schema))
    if (!supportedKeywords.has(keyword) && !annotations.has(keyword) && !keyword.startsWith('x-'))
      add(
        context,
        path,
        `the schema uses "${keyword}", which the kit's check does not read`,
        'a schema of the keywords the kit reads; please report this',
      );
  const here = positionOf(schema);
  for (const problem of matcherProblems(matchersAt(context.rules, path), here, value))
    add(context, path, problem, `${here.label} (${where})`);

  for (const part of Array.isArray(schema.allOf) ? schema.allOf.filter(isPlainObject) : [])
    checkJsonSchema(context, value, part, path, label);
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const options = Array.isArray(schema[keyword]) ? (schema[keyword] as unknown[]).filter(isPlainObject) : [];
    if (options.length === 0) continue;
    const fits = options.some((option) => {
      const trial: Mismatch[] = [];
      checkJsonSchema({ ...context, out: trial }, value, option, path, label);
      return trial.length === 0;
    });
    if (!fits) add(context, path, `${describeValue(value)} fits none of the ${keyword} options`, where);
  }

  if (value === null) {
    if (!here.nullable) add(context, path, 'null where the schema has no null', where);
    return;
  }
  const types = typesOf(schema).filter((t) => t !== 'null');
  if (types.length > 0 && !types.some((t) => valueFits(typeKinds[t] ?? 'any', value))) {
    add(context, path, `wrong type: ${describeValue(value)}`, `${types.join(' or ')} (${where})`);
    return;
  }
  if ('const' in schema && JSON.stringify(schema.const) !== JSON.stringify(value))
    add(
      context,
      path,
      `${describeValue(value)} where the schema fixes the value`,
      `${JSON.stringify(schema.const)} (${where})`,
    );
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value)))
    add(
      context,
      path,
      `${describeValue(value)} is not one of the listed values`,
      `one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')} (${where})`,
    );

  if (typeof value === 'number' && typeof schema.minimum === 'number' && value < schema.minimum)
    add(context, path, `${value}`, `at least ${schema.minimum} (${where})`);

  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems)
      add(context, path, `${value.length} items`, `at least ${schema.minItems} (${where})`);
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems)
      add(context, path, `${value.length} items`, `at most ${schema.maxItems} (${where})`);
    if (isPlainObject(schema.items)) {
      const items = schema.items;
      value.forEach((item, i) => {
        checkJsonSchema(context, item, items, [...path, i]);
      });
    }
    return;
  }
  if (!isPlainObject(value)) return;
  const properties = isPlainObject(schema.properties) ? schema.properties : undefined;
  for (const name of Array.isArray(schema.required) ? schema.required.map(String) : [])
    if (!(name in value)) add(context, [...path, name], `required property "${name}" is missing`, `${name} (${where})`);
  for (const [name, item] of Object.entries(value)) {
    const property = properties?.[name];
    if (isPlainObject(property)) {
      checkJsonSchema(context, item, property, [...path, name], name);
      continue;
    }
    const extra = schema.additionalProperties;
    if (isPlainObject(extra)) checkJsonSchema(context, item, extra, [...path, name], name);
    else if (extra === false || (extra === undefined && properties))
      add(
        context,
        [...path, name],
        `unknown property "${name}"`,
        `one of ${Object.keys(properties ?? {}).join(', ') || 'no properties'} (${where})`,
      );
  }
}
