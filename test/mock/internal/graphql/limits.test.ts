import { readdirSync, readFileSync } from 'node:fs';
import { getIntrospectionQuery } from 'graphql/index.js';
import { describe, expect, it } from 'vitest';
import { type AssumptionOverrides, defaultAssumptions, resolveAssumptions } from '../../../../src/assumptions.ts';
import { MAX_DOCUMENT_NESTING } from '../../../../src/internal/graphql-nesting.ts';
import { type GraphqlResult, limitMessage, tooDeepMessage } from '../../../support/mock-internals/graphql.ts';
import { q, testEngine } from './engine-fixtures.ts';

const ctx = { clientId: 'test-client', ip: '203.0.113.7' };
const limits = defaultAssumptions.limits;
const reasons = defaultAssumptions.reasonCodes;
type Mode = 'current' | 'legacy' | 'both';
type Execution = 'compiled' | 'interpreted';

async function engineFor(guide: Mode, execution: Execution = 'interpreted', overrides: AssumptionOverrides = {}) {
  const assumptions = resolveAssumptions(overrides);
  const engine = testEngine({ assumptions, guide, execution });
  // The compiled path needs graphql-jit loaded; warm up so the request is not served by the fallback.
  if (execution === 'compiled') await engine.warmUp();
  return engine;
}

const errorsOf = (r: GraphqlResult) =>
  (r.body as { errors?: { message: string; extensions: Record<string, unknown> }[] }).errors ?? [];

/** `{ a1: __typename … an: __typename }`: 3 tokens per alias plus the braces; `__typename` aliases are free. */
const typenameAliases = (n: number, extra = '') =>
  `{ ${Array.from({ length: n }, (_, i) => `a${i}: __typename`).join(' ')}${extra} }`;
/** An introspection chain `depth` fields deep: __schema, types, then ofType levels, then name. */
const deepQuery = (depth: number) =>
  `{ __schema { types { ${'ofType { '.repeat(depth - 3)}name${' }'.repeat(depth - 3)} } } }`;
const feeAliases = (n: number) =>
  `{ ${Array.from({ length: n }, (_, i) => `f${i}: paymentGatewayFeesCalc(amount: ${i + 1}) { amount }`).join(' ')} }`;
const directives = (n: number) => `{ ${'__typename @include(if: true) '.repeat(n)}}`;

// [limit, document at the limit, document one past it, the count the message reports]
const atAndPast: [keyof typeof limits, string, string, string][] = [
  [
    'maxTokens',
    typenameAliases((limits.maxTokens - 2) / 3),
    typenameAliases((limits.maxTokens - 2) / 3, ' __typename'),
    '',
  ],
  ['maxDepth', deepQuery(limits.maxDepth), deepQuery(limits.maxDepth + 1), String(limits.maxDepth + 1)],
  ['maxAliases', feeAliases(limits.maxAliases), feeAliases(limits.maxAliases + 1), String(limits.maxAliases + 1)],
  [
    'maxDirectives',
    directives(limits.maxDirectives),
    directives(limits.maxDirectives + 1),
    String(limits.maxDirectives + 1),
  ],
];

describe('GraphQL document limits at their defaults: at the limit and one past it', () => {
  for (const guide of ['current', 'legacy', 'both'] as const)
    for (const execution of ['interpreted', 'compiled'] as const)
      it.each(atAndPast)(`${guide} guide, ${execution}: %s`, async (key, at, past, found) => {
        const engine = await engineFor(guide, execution);
        const ok = engine.execute({ query: at }, ctx);
        expect(ok.status, ok.json).toBe(200);
        expect(errorsOf(ok)).toEqual([]);
        const want = {
          errors: [
            {
              message: limitMessage(key as Exclude<typeof key, 'maxBodyBytes' | 'maxJsonDepth'>, limits[key], found),
              extensions: { reason: reasons.graphqlValidationFailed },
            },
          ],
        };
        // Twice: the verdict is cached with the query text and must not let the document through the second time.
        for (let i = 0; i < 2; i++) {
          const refused = engine.execute({ query: past }, ctx);
          expect(refused.status).toBe(defaultAssumptions.graphqlErrorHttpStatus);
          expect(JSON.parse(refused.json)).toEqual(want);
        }
        expect(engine.cacheStats().hits).toBeGreaterThanOrEqual(1);
      });
});

describe('GraphQL cost limit (configured): at the limit and one past it', () => {
  // The shipped fee list operation costs 8 in graphql-armor's model (2 for the list, 1.5 per scalar below it); one
  // more scalar field adds 1.5.
  it.each(['current', 'both'] as const)('%s guide', async (guide) => {
    const engine = await engineFor(guide, 'interpreted', { limits: { maxCost: 8 } });
    const ok = engine.execute({ query: q.fees, variables: { amount: 100 } }, ctx);
    expect(ok.status, ok.json).toBe(200);
    expect(errorsOf(ok)).toEqual([]);
    const refused = engine.execute(
      { query: q.fees.replace('card_type', 'card_type amount'), variables: { amount: 100 } },
      ctx,
    );
    expect(errorsOf(refused)).toEqual([
      { message: limitMessage('maxCost', 8, '9.5'), extensions: { reason: reasons.graphqlValidationFailed } },
    ]);
  });
});

describe('configured limits are the ones enforced', () => {
  it.each<[string, AssumptionOverrides['limits'], string]>([
    ['maxTokens 10', { maxTokens: 10 }, typenameAliases(3)],
    ['maxDepth 3', { maxDepth: 3 }, deepQuery(4)],
    ['maxAliases 1', { maxAliases: 1 }, feeAliases(2)],
    ['maxDirectives 1', { maxDirectives: 1 }, directives(2)],
  ])('%s', async (_name, override, query) => {
    const engine = await engineFor('current', 'interpreted', { limits: override });
    const [error] = errorsOf(engine.execute({ query }, ctx));
    expect(error?.message).toContain(`= ${Object.values(override ?? {})[0]})`);
    expect(error?.extensions).toEqual({ reason: reasons.graphqlValidationFailed });
  });
});

describe('what the defaults must let through', () => {
  const operations = ['current', 'legacy'].flatMap((g) =>
    readdirSync(new URL(`../../../../operations/${g}/`, import.meta.url)).map(
      (f) =>
        [
          `${g}/${f}`,
          g as 'current' | 'legacy',
          readFileSync(new URL(`../../../../operations/${g}/${f}`, import.meta.url), 'utf8'),
        ] as const,
    ),
  );

  it.each(operations)('shipped operation %s passes every limit', async (_name, guide, query) => {
    const engine = await engineFor(guide);
    // No variables: the answer is a variable error, which comes only after the document passed every limit.
    const errors = errorsOf(engine.execute({ query }, ctx));
    expect(errors.length).toBeGreaterThan(0);
    for (const e of errors) expect(e.message).not.toContain('[payment-contract-kit] The operation');
  });

  const introspection: [string, string][] = [
    ['getIntrospectionQuery()', getIntrospectionQuery()],
    [
      'getIntrospectionQuery() with every option',
      getIntrospectionQuery({
        descriptions: true,
        specifiedByUrl: true,
        directiveIsRepeatable: true,
        schemaDescription: true,
        inputValueDeprecation: true,
        oneOf: true,
      }),
    ],
  ];
  for (const guide of ['current', 'legacy', 'both'] as const)
    it.each(introspection)(`${guide} guide: %s (what codegen sends) is answered`, async (_name, query) => {
      const engine = await engineFor(guide, 'compiled');
      const r = engine.execute({ query }, ctx);
      expect(r.status).toBe(200);
      expect(errorsOf(r)).toEqual([]);
      expect((r.body as { data: { __schema: { types: unknown[] } } }).data.__schema.types.length).toBeGreaterThan(10);
    });
});

describe('abuse the limits stop early', () => {
  it.each<[string, string, string]>([
    ['2,000 aliases of paymentGatewayFeesCalc', feeAliases(2000), limitMessage('maxTokens', limits.maxTokens, '')],
    ['10,000 directives', directives(10_000), limitMessage('maxTokens', limits.maxTokens, '')],
    ['a 900 KB query', `{ ${'__typename '.repeat(90_000)}}`, limitMessage('maxTokens', limits.maxTokens, '')],
    [
      '4,990 fields under one name (graphql-js stops comparing them)',
      `{ ${'__typename '.repeat(4990)}}`,
      '[payment-contract-kit] The document is too costly to validate',
    ],
  ])('%s', async (_name, query, message) => {
    const engine = await engineFor('current');
    const r = engine.execute({ query }, ctx);
    expect(r.status).toBe(defaultAssumptions.graphqlErrorHttpStatus);
    expect(errorsOf(r)[0]?.message).toContain(message);
    expect(errorsOf(r)[0]?.extensions).toEqual({ reason: reasons.graphqlValidationFailed });
  });

  it.each([1_001, 2_400, 6_000])('a list literal nested %i deep is refused as too deep on every run', async (depth) => {
    const engine = await engineFor('current');
    const query = `{ paymentGatewayFeesCalc(amount: ${'['.repeat(depth)}1${']'.repeat(depth)}) { amount } }`;
    const r = engine.execute({ query }, ctx);
    expect(r.status).toBe(defaultAssumptions.graphqlErrorHttpStatus);
    expect(r.internalError).toBeUndefined();
    // The nesting is bounded before the parse: the verdict no longer depends on the stack the test runs on.
    expect(errorsOf(r)).toEqual([{ message: tooDeepMessage, extensions: { reason: reasons.graphqlValidationFailed } }]);
  });

  it('a list literal nested right at the bound is parsed and judged by the schema', async () => {
    const engine = await engineFor('current');
    // `{` and `(` take two levels of the 1,000.
    const depth = MAX_DOCUMENT_NESTING - 2;
    const query = `{ paymentGatewayFeesCalc(amount: ${'['.repeat(depth)}1${']'.repeat(depth)}) { amount } }`;
    const r = engine.execute({ query }, ctx);
    expect(r.internalError).toBeUndefined();
    expect(errorsOf(r)[0]?.message).toMatch(/Float cannot represent non numeric value/);
  });

  it('answers a document nested deeper than the parser can recurse (tokens raised) as a client error', async () => {
    const engine = await engineFor('current', 'interpreted', { limits: { maxTokens: 10_000_000 } });
    const r = engine.execute({ query: `${'{ a '.repeat(200_000)}` }, ctx);
    expect(r.status).toBe(defaultAssumptions.graphqlErrorHttpStatus);
    expect(errorsOf(r)[0]?.message).toMatch(/nested too deeply to parse or validate/);
    expect(r.internalError).toBeUndefined();
  });
});

describe('operation types the service does not have', () => {
  for (const guide of ['current', 'legacy', 'both'] as const)
    it.each(['interpreted', 'compiled'] as const)(
      `${guide} guide, %s: a subscription is a client error`,
      async (execution) => {
        const engine = await engineFor(guide, execution);
        for (const query of [
          'subscription { __typename }',
          'subscription S { paymentGatewayFeesCalc(amount: 1) { amount } }',
        ]) {
          const r = engine.execute({ query }, ctx);
          expect(r.status).toBe(defaultAssumptions.graphqlErrorHttpStatus);
          expect(r.internalError).toBeUndefined();
          expect(errorsOf(r)).toContainEqual(
            expect.objectContaining({
              message: '[payment-contract-kit] The service has no subscription operations: send a query or a mutation.',
              extensions: { reason: reasons.graphqlValidationFailed },
            }),
          );
        }
      },
    );
});
