// GraphiQL's example tabs work as shipped: every operation of operations/<guide>/ with the page's example variables
// runs against the mock (in process, guide both) and answers data without errors, in the guide it was written for.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockApp, type MockApp } from '../../../src/mock/index.ts';
import { examplesOf, exampleVariables, type Guide } from '../../../src/ui/internal/examples.ts';
import { credentials, tokenPaths } from '../../mock/helpers.ts';

const root = join(import.meta.dirname, '../../..');
let app: MockApp;
let token: string;

function operationsOf(guide: Guide) {
  const dir = join(root, 'operations', guide);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.graphql'))
    .sort()
    .map((f) => ({ name: f.replace(/\.graphql$/, ''), query: readFileSync(join(dir, f), 'utf8') }));
}

beforeAll(async () => {
  app = createMockApp({ guide: 'both', log: false });
  const res = await app.fetch(
    new Request(`http://mock.test${tokenPaths.generate}`, { method: 'POST', headers: credentials }),
  );
  token = (await res.json()).data.token;
});
afterAll(async () => {
  await app.close();
});

describe.each(['current', 'legacy'] as const)('the %s guide', (guide) => {
  const examples = examplesOf(guide, operationsOf(guide));

  it('has one example per operation document', () => {
    expect(examples.map((e) => e.name)).toEqual([
      'payment-credit-card-fee-calc',
      'payment-gateway-fees-calc',
      'process-payment-request',
    ]);
  });

  it.each(examples.map((e) => [e.name, e] as const))('%s answers data, no errors', async (_name, example) => {
    const res = await app.fetch(
      new Request('http://mock.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-jwt-token': token },
        body: JSON.stringify({ query: example.query, variables: JSON.parse(example.variables) }),
      }),
    );
    const body = await res.json();
    expect(body.errors).toBeUndefined();
    expect(res.status).toBe(200);
    expect(Object.values(body.data)[0]).toBeTruthy();
    const [entry] = await app.control.requests({ since: (await app.control.cursor()) - 1 });
    expect(entry?.guide).toBe(guide);
  });
});

describe('example variables', () => {
  it('are found by the operation name in the text, whatever the file is called', () => {
    const query =
      'mutation ProcessPaymentRequest($input: ProcessPaymentInput!) { processPaymentRequest(input: $input) { uuid } }';
    expect(examplesOf('legacy', [{ name: 'renamed', query }])[0]?.variables).toContain('"number": "4111111111111111"');
  });

  it("are empty for a document that is not one of the kit's operations", () => {
    expect(exampleVariables('current', '{ paymentGatewayFeesCalc(amount: 1) { fees } }')).toEqual({});
    expect(exampleVariables('current', 'query constructor { __typename }')).toEqual({});
    expect(exampleVariables('current', 'query MyOwn { __typename }')).toEqual({});
  });
});
