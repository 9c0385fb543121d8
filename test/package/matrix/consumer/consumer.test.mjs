// The kit as most teams run it: inside a test runner. vitest loads the test through vite's resolver (with the
// `development` condition graphql 17's exports know) and the kit through Node, so this catches two copies of
// graphql meeting in one process. Run by scripts/test-matrix.ts with the cell's vitest.
import { print } from 'graphql';
import { setupServer } from 'msw/node';
import { PaymentGatewayFeesCalcDocument } from 'payment-contract-kit';
import { createPaymentClient } from 'payment-contract-kit/client';
import { startMockServer } from 'payment-contract-kit/mock';
import { createMockHandlers } from 'payment-contract-kit/msw';
import { afterAll, beforeAll, expect, it } from 'vitest';

let mock;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, log: false });
});
afterAll(() => mock?.close());

async function fees(baseUrl) {
  const token = await fetch(`${baseUrl}/api/v2/accounting/token/generate-token`, {
    method: 'POST',
    headers: { 'x-client-id': 'test-client', 'x-api-key': 'test-api-key' },
  }).then((r) => r.json());
  const answer = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-jwt-token': token.data.token },
    // The consumer's graphql prints the kit's document: the same query text the kit's own client sends.
    body: JSON.stringify({ query: print(PaymentGatewayFeesCalcDocument), variables: { amount: 42.5 } }),
  });
  return (await answer.json()).data.paymentGatewayFeesCalc;
}

it('serves the fee list of a document printed by the consumer graphql', async () => {
  expect(await fees(mock.url)).toContainEqual(expect.objectContaining({ card_type: 'visa', fees: 0.94 }));
});

it('pays through the typed client', async () => {
  const client = createPaymentClient({ baseUrl: mock.url, clientId: 'test-client', apiKey: 'test-api-key' });
  const [visa] = await client.feesFor(10);
  expect(visa).toMatchObject({ card_type: 'visa' });
  await client.close();
});

it('answers through the msw handlers', async () => {
  const handlers = createMockHandlers({ log: false });
  const server = setupServer(...handlers.handlers);
  server.listen({ onUnhandledRequest: 'error' });
  try {
    expect(await fees(handlers.baseUrl)).toContainEqual(expect.objectContaining({ card_type: 'visa', fees: 0.94 }));
  } finally {
    server.close();
    await handlers.close();
  }
});
