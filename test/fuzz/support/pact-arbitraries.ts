/**
 * Pact files for the `verify` fuzz: one interaction of the kit's own contracts with one to three nodes replaced by
 * random or hostile values (deep, huge, odd JSON), or its GraphQL request, variables or expected data replaced by
 * hostile ones; and whole files that are hostile themselves.
 *
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { oddGraphql, oddValue } from './hostile-bodies.ts';
import { hostileValue, jsonText, mutated, nest, RawJson, toJsonText } from './json-arbitraries.ts';

const contracts = join(import.meta.dirname, '../../../contracts');
const pacts = readdirSync(contracts)
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(join(contracts, f), 'utf8')) as { interactions: Record<string, unknown>[] });

type Interaction = Record<string, unknown> & { request?: { body?: { content?: Record<string, unknown> } } };

const withContent = (i: Interaction, change: (content: Record<string, unknown>) => Record<string, unknown>) => {
  const content = i.request?.body?.content;
  if (content === undefined || typeof content !== 'object') return i;
  return { ...i, request: { ...i.request, body: { ...i.request!.body, content: change(content) } } };
};

const interaction: fc.Arbitrary<{ pact: (typeof pacts)[number]; one: Interaction }> = fc
  .constantFrom(...pacts)
  .chain((pact) => fc.constantFrom(...pact.interactions).map((one) => ({ pact, one: one as Interaction })));

const hostileInteraction: fc.Arbitrary<[(typeof pacts)[number], unknown]> = interaction.chain(({ pact, one }) =>
  fc.oneof(
    mutated(one).map((m) => [pact, m] as [typeof pact, unknown]),
    oddValue.map(
      (v) => [pact, withContent(one, (c) => ({ ...c, variables: { amount: v, input: v } }))] as [typeof pact, unknown],
    ),
    oddGraphql.map((q) => [pact, withContent(one, (c) => ({ ...c, query: q }))] as [typeof pact, unknown]),
    oddValue.map(
      (v) =>
        [
          pact,
          {
            ...one,
            response: {
              ...(one.response as object),
              body: { content: { data: v }, contentType: 'application/json', encoded: false },
            },
          },
        ] as [typeof pact, unknown],
    ),
    oddValue.map(
      (v) =>
        [pact, { ...one, contents: { content: v, contentType: 'application/json', encoded: false } }] as [
          typeof pact,
          unknown,
        ],
    ),
  ),
);

/** A pact file's text. */
export const pactText: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 8,
    arbitrary: hostileInteraction.map(([pact, one]) => toJsonText({ ...pact, interactions: [one] })),
  },
  {
    weight: 1,
    arbitrary: oddValue.map(
      (v) =>
        `{"consumer":{"name":"c"},"provider":{"name":"p"},"interactions":${toJsonText(v)},"metadata":{"pactSpecification":{"version":"4.0"}}}`,
    ),
  },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc.integer({ min: 1_000, max: 100_000 }).map((d) => toJsonText(nest(d, 1, 'array'))),
      fc.integer({ min: 1_000, max: 100_000 }).map((d) => `{"consumer":${toJsonText(nest(d, 1, 'object'))}}`),
      fc.constantFrom(
        '{"consumer":{"name":"c"},"consumer":{"name":1},"provider":{"name":"p"},"interactions":[]}',
        '{"__proto__":{"interactions":[]},"consumer":{"name":"c"},"provider":{"name":"p"}}',
        '{"consumer":{"name":"\\ud800"},"provider":{"name":"p"},"interactions":[{"description":"\\udfff","request":{"method":"POST","path":"/graphql","body":{"query":"{ __typename }"}},"response":{"status":1e400}}]}',
        '',
        'null',
      ),
      jsonText(hostileValue),
    ),
  },
);

export { RawJson };
