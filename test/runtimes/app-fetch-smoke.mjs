// Run by test/runtimes/bun-deno.test.ts under Bun and Deno: the built mock's `app.fetch` answers a token, the fee
// list and a payment, and the script prints what it got as one JSON line.
import { createMockApp } from '../../dist/mock.js';

const app = createMockApp({ log: false, ui: false });
const post = (path, headers, body) =>
  app.fetch(
    new Request(`http://localhost:4010${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
const tokenAnswer = await post('/api/v2/accounting/token/generate-token', {
  'x-client-id': 'test-client',
  'x-api-key': 'test-api-key',
});
const token = (await tokenAnswer.json()).data.token;
const gql = async (query, variables) => (await post('/graphql', { 'x-jwt-token': token }, { query, variables })).json();
const fees = await gql('query Fees($amount: Float!) { paymentGatewayFeesCalc(amount: $amount) { card_type fees } }', {
  amount: 100,
});
const credit_card = {
  full_name: 'Ada L',
  card_number: '4111111111111111',
  expiry_month: '12',
  expiry_year: '39',
  cvv: '123',
};
const contact = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
const payment = await gql(
  'mutation Pay($input: ProcessPaymentRequestInput!) { processPaymentRequest(input: $input) { uuid status { name } } }',
  {
    input: {
      amount: 100,
      fees: 1.8,
      credit_card,
      contact,
      payment_reference: { description: 'Order', reference_no: 'O-1' },
    },
  },
);
const expired = app.control.advanceClock(601_000) && (await gql('{ __typename }', {}));
console.log(
  JSON.stringify({
    runtime: globalThis.Bun ? 'bun' : globalThis.Deno ? 'deno' : 'node',
    tokenStatus: tokenAnswer.status,
    feeCardTypes: fees.data.paymentGatewayFeesCalc.length,
    paymentStatus: payment.data?.processPaymentRequest.status.name,
    expiredReason: expired.errors?.[0]?.extensions?.reason,
  }),
);
await app.close();
