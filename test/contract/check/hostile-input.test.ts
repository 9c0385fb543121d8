// Whatever a service or a consumer sends, the checker answers drifts and never throws: every node of every recorded
// body replaced by hostile values (seeded, so a failure replays), bodies that are not JSON, headers missing.
import { describe, expect, it } from 'vitest';
import { checkExchange, type Exchange } from '../../../src/contract/check/index.ts';
import { recordMockTraffic } from './support/mock-traffic.ts';

const hostile: unknown[] = [
  null,
  0,
  -1,
  1e308,
  '',
  'x'.repeat(5000),
  '4111111111111111',
  true,
  [],
  {},
  [null],
  { __proto__: 1 },
];

/** Every path to a node of a JSON value. */
function paths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const out = [at];
  if (Array.isArray(value))
    value.forEach((v, i) => {
      out.push(...paths(v, [...at, i]));
    });
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...at, k]));
  return out;
}

function replaced(value: unknown, path: (string | number)[], by: unknown): unknown {
  if (path.length === 0) return by;
  // biome-ignore lint/suspicious/noExplicitAny: walking any JSON
  const copy: any = structuredClone(value);
  let node = copy;
  for (const step of path.slice(0, -1)) node = node[step];
  node[path[path.length - 1]!] = by;
  return copy;
}

function variants(x: Exchange): Exchange[] {
  const out: Exchange[] = [];
  for (const side of ['request', 'response'] as const) {
    const message = x[side];
    if (!message?.body) continue;
    const body = JSON.parse(message.body);
    for (const path of paths(body))
      for (const by of hostile)
        out.push({ ...x, [side]: { ...message, body: JSON.stringify(replaced(body, path, by)) } } as Exchange);
    out.push({ ...x, [side]: { ...message, body: '{"data":' } } as Exchange);
    out.push({ ...x, [side]: { ...message, body: undefined, headers: {} } } as Exchange);
  }
  return out;
}

describe('hostile input', () => {
  it.each(['current', 'legacy'] as const)('never throws on any node of any %s exchange replaced', async (guide) => {
    const traffic = await recordMockTraffic(guide);
    let checked = 0;
    for (const { exchange } of traffic)
      for (const variant of variants(exchange)) {
        for (const option of ['both', guide] as const) {
          const result = checkExchange(variant, { guide: option });
          expect(Array.isArray(result.drifts)).toBe(true);
          for (const d of result.drifts) expect(JSON.stringify(d)).not.toMatch(/4111111111111111/);
          checked++;
        }
      }
    expect(checked).toBeGreaterThan(2000);
  });
});

/** A POST of `query` to /graphql, answered 200 with no data. */
const graphqlExchange = (query: string): Exchange => ({
  request: {
    method: 'POST',
    url: 'https://sandbox.example/graphql',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables: {} }),
  },
  response: { status: 200, headers: { 'content-type': 'application/json' }, body: '{"data":null}' },
});

describe('GraphQL documents nested past what graphql-js can recurse through', () => {
  const deep = (depth: number) => [
    `{ paymentGatewayFeesCalc(amount: ${'['.repeat(depth)}1${']'.repeat(depth)}) { fees } }`,
    `{ paymentGatewayFeesCalc(amount: ${'{a:'.repeat(depth)}1${'}'.repeat(depth)}) { fees } }`,
    `{ paymentGatewayFeesCalc(amount: 1) ${'{ fees '.repeat(depth)}${'}'.repeat(depth)} }`,
  ];
  it.each([1_001, 2_000, 5_000, 50_000])(
    '%i levels: the consumer is told the document is too deep, nothing throws',
    (depth) => {
      for (const query of deep(depth)) {
        const exchange = graphqlExchange(query);
        for (const guide of ['both', 'current', 'legacy'] as const) {
          const { drifts } = checkExchange(exchange, { guide });
          const text = JSON.stringify(drifts);
          expect(text).not.toMatch(/RangeError|Maximum call stack/);
          // Past 1,000 levels, on every run: not only when the parser happens to run out of stack.
          expect(text).toContain('nested too deeply to read');
        }
      }
    },
  );
});

it('a document 1,000 levels deep is still read: the bound is on nesting, not on the stack', () => {
  const query = `{ paymentGatewayFeesCalc(amount: ${'['.repeat(998)}1${']'.repeat(998)}) { fees } }`;
  const { drifts } = checkExchange(graphqlExchange(query));
  const text = JSON.stringify(drifts);
  expect(text).not.toContain('nested too deeply');
  expect(text).toMatch(/Float/);
});

describe('a revoke-token answer the ledger does not expect', () => {
  const revoke = (body: string): Exchange => ({
    request: {
      method: 'POST',
      url: 'https://sandbox.example/api/v2/accounting/token/revoke-token',
      headers: { 'x-client-id': 'test-client', 'x-api-key': 'test-api-key', 'x-jwt-token': 'tok' },
    },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body },
  });
  it('nested 5,000 levels deep: reported as an assumption drift, nothing throws', () => {
    const { drifts } = checkExchange(revoke(`{"status":${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}}`));
    const drift = drifts.find((d) => d.kind === 'assumption' && d.path === '(body)');
    expect(drift?.actual).toBe('{ "status": an object }');
  });
  it('long and holding a card number: cut and masked', () => {
    const { drifts } = checkExchange(revoke(JSON.stringify({ message: `card 4111111111111111 ${'x'.repeat(5_000)}` })));
    const actual = drifts.find((d) => d.path === '(body)')?.actual ?? '';
    expect(actual.length).toBeLessThan(200);
    expect(actual).not.toContain('4111111111111111');
  });
});
