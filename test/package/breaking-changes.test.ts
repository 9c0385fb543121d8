// The breaking-change check (VERSIONING.md): the contract files the kit ships, compared with the last released
// version's copies in .release-baseline/<version>/. A breaking change fails here until the release that makes it
// is a major one and the baseline moves (VERSIONING.md, "At release").
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type Change, CriticalityLevel, diff } from '@graphql-inspector/core';
import { apiCompare } from 'api-smart-diff';
import {
  buildSchema,
  type DocumentNode,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  parse,
  print,
  type SelectionSetNode,
  validate,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';

const root = join(import.meta.dirname, '../..');
const baselines = join(root, '.release-baseline');

/** The highest released version with a baseline (directory names are versions). */
const released = readdirSync(baselines)
  .filter((name) => /^\d+\.\d+\.\d+$/.test(name))
  .sort((a, b) => {
    const [x, y] = [a, b].map((v) => v.split('.').map(Number));
    return x![0]! - y![0]! || x![1]! - y![1]! || x![2]! - y![2]!;
  })
  .at(-1)!;
const baseline = join(baselines, released);
const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');

// graphql-inspector loads graphql as Node resolves it (the CommonJS build); its schemas must come from that copy,
// not from the ES module copy vitest gives this file, or graphql's realm check rejects them.
const { buildSchema: buildInspectedSchema } = createRequire(import.meta.url)('graphql') as typeof import('graphql');

/** Changes graphql-inspector rates as breaking (removals, type changes, new required arguments or input fields). */
async function breakingGraphqlChanges(beforeSdl: string, afterSdl: string): Promise<string[]> {
  const changes: Change[] = await diff(buildInspectedSchema(beforeSdl), buildInspectedSchema(afterSdl));
  return changes.filter((c) => c.criticality.level === CriticalityLevel.Breaking).map((c) => c.message);
}

/** Every field path an operation selects (`payment.status.name`), fragments inlined by the documents' authors. */
function selectedPaths(set: SelectionSetNode | undefined, prefix = ''): string[] {
  if (!set) return [];
  return set.selections.flatMap((s) => {
    if (s.kind === Kind.FIELD) {
      const path = `${prefix}${(s.alias ?? s.name).value}`;
      return [path, ...selectedPaths(s.selectionSet, `${path}.`)];
    }
    if (s.kind === Kind.INLINE_FRAGMENT) return selectedPaths(s.selectionSet, prefix);
    return [];
  });
}

/**
 * What a consumer's typed code depends on in a shipped operation: that it still validates against the schema, keeps
 * its name and variables, and still selects every field it selected (the result type loses nothing).
 */
function operationBreaks(before: DocumentNode, after: DocumentNode, schema: GraphQLSchema): string[] {
  const op = (doc: DocumentNode) =>
    doc.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const [was, now] = [op(before), op(after)];
  const problems = validate(schema, before).map((e) => `the released document no longer validates: ${e.message}`);
  if (was.name?.value !== now.name?.value) problems.push(`renamed ${was.name?.value} to ${now.name?.value}`);
  const variables = (o: OperationDefinitionNode) => (o.variableDefinitions ?? []).map((v) => print(v)).sort();
  const [oldVars, newVars] = [variables(was), variables(now)];
  for (const v of oldVars) if (!newVars.includes(v)) problems.push(`variable ${v} changed or removed`);
  for (const v of newVars)
    if (!oldVars.includes(v) && /!$/.test(v) && !v.includes('=')) problems.push(`new required variable ${v}`);
  const kept = new Set(selectedPaths(now.selectionSet));
  for (const path of selectedPaths(was.selectionSet)) if (!kept.has(path)) problems.push(`no longer selects ${path}`);
  return problems;
}

/** The OpenAPI changes api-smart-diff classifies as breaking, as "<action> <path>". */
function breakingOpenapiChanges(before: unknown, after: unknown): string[] {
  return apiCompare(before, after)
    .diffs.filter((d) => d.type === 'breaking')
    .map((d) => `${d.action} ${d.path.join('/')}`);
}

const guides = [
  { guide: 'current', schemaFile: 'schema.graphql' },
  { guide: 'legacy', schemaFile: 'generated/legacy/schema.graphql' },
] as const;

describe(`no breaking change since ${released} (the last release)`, () => {
  it.each(guides)('$schemaFile ($guide guide)', async ({ schemaFile }) => {
    expect(await breakingGraphqlChanges(read(baseline, schemaFile), read(root, schemaFile))).toEqual([]);
  });

  it.each(guides)('operations/$guide: every released document, as consumers typed it', ({ guide, schemaFile }) => {
    const schema = buildSchema(read(root, schemaFile));
    const files = readdirSync(join(baseline, 'operations', guide));
    expect(files.length).toBeGreaterThan(0);
    const problems = files.flatMap((file) => {
      const path = join('operations', guide, file);
      const current = (() => {
        try {
          return parse(read(root, path));
        } catch {
          return undefined;
        }
      })();
      if (!current) return [`${path}: removed`];
      return operationBreaks(parse(read(baseline, path)), current, schema).map((p) => `${path}: ${p}`);
    });
    expect(problems).toEqual([]);
  });

  it('openapi.yaml', () => {
    const before = parseYaml(read(baseline, 'openapi.yaml'));
    const after = parseYaml(read(root, 'openapi.yaml'));
    expect(breakingOpenapiChanges(before, after)).toEqual([]);
  });
});

// The check can fail: each kind of breaking change, made on a copy of the released files, is reported.
describe('the check reports breaking changes', () => {
  const sdl = read(baseline, 'schema.graphql');

  it('a removed field and a new required input field in the schema', async () => {
    // The first total_settlement_amount (PaymentGatewayFee's) with its description line.
    const withoutFee = sdl.replace(/\n\s*"[^"\n]*"\n\s*total_settlement_amount: Float!\n/, '\n');
    expect(withoutFee).not.toBe(sdl);
    expect(await breakingGraphqlChanges(sdl, withoutFee)).toEqual([
      expect.stringContaining("'total_settlement_amount' was removed"),
    ]);
    const requiredInput = sdl.replace(/^input ProcessPaymentRequestInput \{/m, '$&\n  channel: String!');
    expect(requiredInput).not.toBe(sdl);
    expect(await breakingGraphqlChanges(sdl, requiredInput)).toEqual([expect.stringContaining('channel')]);
  });

  it('a field dropped from a shipped operation, and a variable whose type changed', () => {
    const path = 'operations/current/payment-gateway-fees-calc.graphql';
    const text = read(baseline, path);
    const schema = buildSchema(sdl);
    expect(operationBreaks(parse(text), parse(text), schema)).toEqual([]);
    const fewer = parse(text.replace(/^\s*card_type\s*$/m, ''));
    expect(operationBreaks(parse(text), fewer, schema)).toEqual([
      expect.stringMatching(/no longer selects paymentGatewayFeesCalc\.card_type/),
    ]);
    const retyped = parse(text.replace(/\$amount: Float!/, '$amount: String!'));
    expect(operationBreaks(parse(text), retyped, schema)).toContainEqual(expect.stringContaining('$amount: Float!'));
  });

  it('a removed path and a new required request field in the OpenAPI document', () => {
    const before = parseYaml(read(baseline, 'openapi.yaml'));
    const removed = structuredClone(before);
    delete removed.paths['/api/v2/accounting/token/revoke-token'];
    expect(breakingOpenapiChanges(before, removed)).toEqual([
      'remove paths//api/v2/accounting/token/revoke-token/post',
    ]);
    const required = structuredClone(before);
    const body = required.components.schemas.RefreshTokenRequest;
    body.properties.scope = { type: 'string' };
    body.required = [...(body.required ?? []), 'scope'];
    expect(breakingOpenapiChanges(before, required).length).toBeGreaterThan(0);
  });
});
