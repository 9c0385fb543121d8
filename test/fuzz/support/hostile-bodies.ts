/**
 * The hostile inputs every body-reading entry is fuzzed with, beyond random JSON: nesting far past any limit (5,000
 * to 100,000 levels, in a JSON body, in GraphQL variables and in GraphQL literals and selections), huge strings and
 * arrays, and JSON that parses in surprising ways (duplicate keys, `__proto__`, lone surrogates, numbers past
 * doubles such as `1e400`). The fee list is the usual carrier: its answers are kept per variables and per body text,
 * so a hostile variable reaches every cache on that path.
 *
 * @module
 */
import fc from 'fast-check';
import { nest, RawJson, toJsonText } from './json-arbitraries.ts';

/** The kit's fee list query with one variable, the shape whose answers the mock keeps. */
export const feeListQuery = 'query($amount: Float!){ paymentGatewayFeesCalc(amount: $amount) { fees } }';

/** Depths past any sane limit, and a few around the mock's default limit (64). */
export const deepDepth = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 5_000, max: 20_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 20_000, max: 100_000 }) },
  { weight: 2, arbitrary: fc.integer({ min: 60, max: 70 }) },
);

/** A value nested `depth` levels as objects, arrays, or both alternating. */
export const deepValue: fc.Arbitrary<RawJson> = fc
  .tuple(deepDepth, fc.constantFrom('array', 'object', 'mixed'))
  .map(([depth, as]) => {
    if (as !== 'mixed') return nest(depth, 1, as);
    const half = Math.floor(depth / 2);
    return new RawJson(`${'[{"a":'.repeat(half)}1${'}]'.repeat(half)}`);
  });

/** Values JSON parsers and walkers disagree on or choke on. */
export const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  deepValue,
  fc.constantFrom(
    new RawJson('1e400'),
    new RawJson('-1e400'),
    new RawJson('1E-400'),
    new RawJson('-0'),
    new RawJson('123456789012345678901234567890'),
    new RawJson('"\\ud800"'),
    new RawJson('"a\\udfffb"'),
    new RawJson('"\\u0000"'),
    new RawJson('{"a":1,"a":2}'),
    new RawJson('{"__proto__":{"amount":1}}'),
    new RawJson('{"constructor":{"prototype":{"x":1}}}'),
  ),
  fc.integer({ min: 10_000, max: 100_000 }).map((n) => 'x'.repeat(n)),
  fc.integer({ min: 1_000, max: 50_000 }).map((n) => new RawJson(`[${'1,'.repeat(n)}1]`)),
  fc
    .integer({ min: 1_000, max: 20_000 })
    .map((n) => new RawJson(`{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',')}}`)),
);

/** Variables of a fee list: the amount hostile, or a hostile extra variable beside a valid amount. */
const feeListVariables: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: deepValue.map((v) => `{"amount":${toJsonText(v)}}`) },
  { weight: 2, arbitrary: oddValue.map((v) => `{"amount":${toJsonText(v)}}`) },
  { weight: 1, arbitrary: oddValue.map((v) => `{"amount":100,"extra":${toJsonText(v)}}`) },
  fc.constantFrom(
    '{"amount":100,"amount":"x"}',
    '{"amount":"x","amount":100}',
    '{"__proto__":{"amount":100}}',
    '{"amount":100,"__proto__":{"amount":"x"}}',
  ),
);

/** GraphQL text nested `depth` levels: list and object literals, selections, fragments spread inside each other. */
export const deepGraphql: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 50, max: 5_000 }), fc.constantFrom('list', 'object', 'selection', 'variable-default'))
  .map(([depth, as]) => {
    switch (as) {
      case 'list':
        return `{ paymentGatewayFeesCalc(amount: ${'['.repeat(depth)}1${']'.repeat(depth)}) { fees } }`;
      case 'object':
        return `{ paymentGatewayFeesCalc(amount: ${'{a:'.repeat(depth)}1${'}'.repeat(depth)}) { fees } }`;
      case 'selection':
        return `{ paymentGatewayFeesCalc(amount: 1) ${'{ fees '.repeat(depth)}${'}'.repeat(depth)} }`;
      default:
        return `query($amount: Float = ${'['.repeat(depth)}1${']'.repeat(depth)}){ paymentGatewayFeesCalc(amount: $amount) { fees } }`;
    }
  });

/** Malformed or odd GraphQL documents (beside graphql-arbitraries' garbage). */
export const oddGraphql: fc.Arbitrary<string> = fc.oneof(
  deepGraphql,
  fc.constantFrom(
    'query($amount: Float!){ paymentGatewayFeesCalc(amount: $amount) { fees } } query{ __typename }',
    'query A { __typename } query A { __typename }',
    'fragment F on Query { ...F } { ...F }',
    '{ paymentGatewayFeesCalc(amount: 1, amount: 2) { fees } }',
    '{ paymentGatewayFeesCalc(amount: 1e400) { fees } }',
    '{ paymentGatewayFeesCalc(amount: "\\ud800") { fees } }',
    '{ paymentGatewayFeesCalc(amount: """\u0000""") { fees } }',
    'query($a: Float!, $a: Float!){ paymentGatewayFeesCalc(amount: $a) { fees } }',
    '\ufeff{ __typename }',
    `{ ${'a: __typename '.repeat(2_000)}}`,
    `{ ${'__typename @include(if: true) '.repeat(100)}}`,
  ),
  fc.integer({ min: 10_000, max: 500_000 }).map((n) => `{ __typename } #${'x'.repeat(n)}`),
  fc.integer({ min: 1_000, max: 50_000 }).map((n) => `"${'x'.repeat(n)}`),
);

/** Whole /graphql bodies: the fee list with hostile variables, odd documents, and odd JSON around them. */
export const hostileGraphqlBody: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: feeListVariables.map((v) => `{"query":${JSON.stringify(feeListQuery)},"variables":${v}}`) },
  { weight: 3, arbitrary: oddGraphql.map((q) => JSON.stringify({ query: q, variables: { amount: 100 } })) },
  { weight: 1, arbitrary: deepValue.map((v) => toJsonText(v)) },
  { weight: 1, arbitrary: deepValue.map((v) => `{"query":${toJsonText(v)}}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      `{"query":${JSON.stringify(feeListQuery)},"query":"{ __typename }","variables":{"amount":100}}`,
      `{"__proto__":{"query":${JSON.stringify(feeListQuery)}},"variables":{"amount":100}}`,
      `{"query":${JSON.stringify(feeListQuery)},"variables":{"amount":100},"operationName":{"__proto__":1}}`,
      `{"query":${JSON.stringify(feeListQuery)},"variables":"{\\"amount\\":100}"}`,
      `{"query":${JSON.stringify(feeListQuery)},"variables":[{"amount":100}]}`,
      `{"query":${JSON.stringify(feeListQuery)},"variables":{"amount":100},"extensions":{"persistedQuery":${'['.repeat(6_000)}${']'.repeat(6_000)}}}`,
    ),
  },
);

/** Bodies for any JSON-reading REST or control route: deep, huge and odd JSON at the top or one field down. */
export const hostileJsonBody: fc.Arbitrary<string> = fc.oneof(
  oddValue.map(toJsonText),
  oddValue.map((v) => `{"refresh_token":${toJsonText(v)}}`),
  oddValue.map((v) => `{"ms":${toJsonText(v)},"clientId":${toJsonText(v)}}`),
  fc.constantFrom('{"ms":1,"ms":"x"}', '{"__proto__":{"ms":1}}', '{"clientId":"test-client","__proto__":null}'),
);
