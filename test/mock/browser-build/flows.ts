// The kit's flows through `app.fetch`, as an edge worker or a web worker would drive the mock: run by the browser
// build inside a Chromium worker (worker.ts) and by the Node build in the test process, so the test can hold the two
// builds' answers equal. Only what every runtime has (fetch's Request and Response, JSON).
import type { MockApp } from '../../../src/mock/index.ts';
import { testCardDetails, testCardNumbers } from '../../../src/test-values.ts';

const base = 'http://localhost:4010';
const credit_card = { ...testCardDetails, card_number: testCardNumbers.visaSuccess };
const contact = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
const payment_reference = { description: 'Order 42', reference_no: 'ORD-42' };
const feesQuery =
  'query Fees($amount: Float!) { paymentGatewayFeesCalc(amount: $amount) { amount fees total_settlement_amount card_type } }';
const cardFeeQuery =
  'query Fee($amount: Float!, $card: CreditCardInput!, $contact: ContactInput!) { paymentCreditCardFeeCalc(amount: $amount, credit_card: $card, contact: $contact) { amount fees card_account_uid } }';
const payMutation =
  'mutation Pay($input: ProcessPaymentRequestInput!) { processPaymentRequest(input: $input) { amount payment_gateway_fee status { name } uuid } }';

/** What one run of the flows answered, as plain JSON. */
export interface FlowAnswers {
  readonly health: number;
  readonly tokenStatus: number;
  readonly fees: unknown;
  readonly cardFee: unknown;
  readonly payment: unknown;
  readonly delivery: { state: string; url: string; status: number | undefined };
  readonly validation: unknown;
  readonly expired: unknown;
}

// biome-ignore lint/suspicious/noExplicitAny: the flows read whatever the mock answered; the test checks its shape.
async function call(app: MockApp, path: string, init: RequestInit): Promise<{ status: number; body: any }> {
  const response = await app.fetch(new Request(`${base}${path}`, init));
  return { status: response.status, body: await response.json() };
}

function graphql(app: MockApp, jwt: string, query: string, variables: unknown) {
  return call(app, '/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', 'x-jwt-token': jwt },
    body: JSON.stringify({ query, variables }),
  });
}

/** Runs fees, a card fee, a payment settled on the mock clock with its webhook, a 7.3 refusal and token expiry. */
export async function runFlows(app: MockApp, hookUrl: string): Promise<FlowAnswers> {
  const health = (await app.fetch(new Request(`${base}/__pck/health`))).status;
  const token = await call(app, '/api/v2/accounting/token/generate-token', {
    method: 'POST',
    headers: { 'x-client-id': 'test-client', 'x-api-key': 'test-api-key', accept: 'application/json' },
  });
  const jwt: string = token.body.data.token;
  const fees = await graphql(app, jwt, feesQuery, { amount: 100 });
  const cardFee = await graphql(app, jwt, cardFeeQuery, { amount: 100, card: credit_card, contact });
  const input = {
    amount: 100,
    fees: cardFee.body.data.paymentCreditCardFeeCalc.fees,
    credit_card,
    contact,
    payment_reference,
  };
  const payment = await graphql(app, jwt, payMutation, { input });
  const uuid: string = payment.body.data.processPaymentRequest.uuid;
  app.control.advanceClock(app.control.assumptions.settleDelayMs);
  const delivered = await app.control.waitForDelivery(
    (d) => d.paymentUuid === uuid && d.url === hookUrl && d.state !== 'sending' && d.attempts.length > 0,
  );
  const validation = await graphql(app, jwt, payMutation, {
    input: { ...input, credit_card: { ...credit_card, expiry_year: '20' } },
  });
  app.control.advanceClock(app.control.assumptions.tokenTtlSeconds * 1000 + 1000);
  const expired = await graphql(app, jwt, feesQuery, { amount: 10 });
  return {
    health,
    tokenStatus: token.status,
    fees,
    cardFee,
    payment,
    delivery: { state: delivered.state, url: delivered.url, status: delivered.attempts[0]?.status },
    validation,
    expired,
  };
}
