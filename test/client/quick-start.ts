import { createPaymentClient } from '../../src/client/index.ts';
import { checkWebhookSignature } from '../../src/webhook/index.ts';

const card = { full_name: 'Ada L', card_number: '4111111111111111', expiry_month: '12', expiry_year: '39', cvv: '123' };
const contact = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
const payment_reference = { description: 'Order 42', reference_no: 'ORD-42' };

export async function pay(baseUrl: string) {
  // Generates a token once and refreshes it before it expires. Refusals throw typed errors: see docs/client.md.
  const client = createPaymentClient({ baseUrl, clientId: 'test-client', apiKey: 'test-api-key' });
  const feeList = await client.feesFor(100); // one entry per card type
  const { fees, card_account_uid } = await client.cardFee({ amount: 100, credit_card: card, contact });
  const credit_card = { card_account_uid }; // the card account stands for the card details from now on
  const payment = await client.processPayment({ amount: 100, fees, credit_card, contact, payment_reference });
  await client.close(); // revokes the token
  return { feeList, payment }; // payment.status.name is 'processing': the outcome comes by webhook
}

// Your webhook endpoint, in any framework with Fetch's Request and Response.
const webhookKeys = { signingKey: 'test-signing-key', clientId: 'test-client' };
export async function onWebhook(request: Request): Promise<Response> {
  const result = checkWebhookSignature({ headers: request.headers, rawBody: await request.text(), ...webhookKeys });
  if (!result.ok) return new Response(result.error.message, { status: 401 });
  console.log(result.payload.uuid, result.payload.status); // 'success' or 'failure'
  return new Response(null, { status: 204 });
}
