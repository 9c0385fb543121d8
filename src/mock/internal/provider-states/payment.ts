/**
 * The payment behind the provider state "a payment has reached its final status": made through the mock's own
 * pipeline with the documents the kit's consumer pacts record, then settled on the control handle.
 *
 * @module
 */
import { serviceHeaders, servicePaths } from '../../../spec-names.ts';
import { testCardDetails } from '../../../test-values.ts';
import { testCards } from '../domain/cards.ts';
import type { MockControl } from '../handle/control-handle.ts';
import { bad, number, type Params, stringMap } from './params.ts';

/** Answers a request through the mock's own pipeline (the in-process fetch handler). */
export type Serve = (request: Request) => Promise<Response>;

// The documents the kit's consumer pacts record (operations/current), so a state is set up as a client would.
const feeQuery = /* GraphQL */ `query PaymentCreditCardFeeCalc($amount: Float!, $credit_card: CreditCardInput!, $contact: ContactInput!) {
  paymentCreditCardFeeCalc(amount: $amount, credit_card: $credit_card, contact: $contact) { fees }
}`;
const payMutation = /* GraphQL */ `mutation ProcessPaymentRequest($input: ProcessPaymentRequestInput!) {
  processPaymentRequest(input: $input) { uuid }
}`;
const contact = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', city: 'London', country: 'GB' };

async function graphql(serve: Serve, state: string, token: string, query: string, variables: unknown) {
  const res = await serve(
    new Request(`http://mock${servicePaths.graphql}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', [serviceHeaders.jwt]: token },
      body: JSON.stringify({ query, variables }),
    }),
  );
  const body = (await res.json()) as { data?: Record<string, Record<string, unknown> | null>; errors?: unknown };
  if (!body.data)
    throw bad(
      state,
      `the mock refused the payment it makes for this state (${JSON.stringify(body.errors)}); check params.amount and params.metadata, and that the mock serves the current guide (--guide current or both).`,
    );
  return body.data;
}

/**
 * Makes a payment for `clientId` through the mock's own GraphQL endpoint, as a client would (fee, then payment), and
 * settles it with `params.outcome`; answers its uuid.
 *
 * @example
 * const uuid = await finalPayment(app.fetch, control, 'a payment has reached its final status', 'test-client', { amount: 100 });
 */
export async function finalPayment(
  serve: Serve,
  control: MockControl,
  state: string,
  clientId: string,
  params: Params,
): Promise<string> {
  const outcome = params.outcome ?? 'success';
  if (outcome !== 'success' && outcome !== 'failure')
    throw bad(state, 'params.outcome must be "success" or "failure".');
  const amount = number(state, params, 'amount');
  const metadata = params.metadata === undefined ? undefined : stringMap(state, params, 'metadata');
  const { token } = control.issueToken(clientId);
  const credit_card = { ...testCardDetails, card_number: testCards.visaSuccess.number };
  const fee = await graphql(serve, state, token, feeQuery, { amount, credit_card, contact });
  const input = {
    amount,
    fees: fee.paymentCreditCardFeeCalc?.fees,
    credit_card,
    contact,
    payment_reference: { description: 'Order 1001', reference_no: 'INV-1001' },
    ...(metadata === undefined ? {} : { metadata }),
  };
  const paid = await graphql(serve, state, token, payMutation, { input });
  const uuid = String(paid.processPaymentRequest?.uuid);
  await control.settlePayment(uuid, outcome);
  return uuid;
}
