// Recipe: graphql-request with the kit's typed documents. Variables and results are typed from the documents, so
// `credit_card` takes full card details or `{ card_account_uid }`, as the service does.
import { GraphQLClient } from 'graphql-request';
import {
  PaymentCreditCardFeeCalcDocument,
  PaymentGatewayFeesCalcDocument,
  ProcessPaymentRequestDocument,
} from 'payment-contract-kit';
import { type ClientCredentials, generateToken } from './openapi-fetch.ts';
import { card, contact, paymentInput } from './payment-input.ts';

/** A graphql-request client for `/graphql`, sending the access token in `x-jwt-token` (spec 5). */
export function createGraphqlClient(baseUrl: string, token: string): GraphQLClient {
  return new GraphQLClient(`${baseUrl}/graphql`, { headers: { 'x-jwt-token': token } });
}

/** Fee list, card fee, then a payment from the card account; answers what the service said at each step. */
export async function payWithGraphqlRequest(baseUrl: string, credentials: ClientCredentials) {
  const client = createGraphqlClient(baseUrl, await generateToken(baseUrl, credentials));
  const { paymentGatewayFeesCalc } = await client.request(PaymentGatewayFeesCalcDocument, { amount: 100 });
  const { paymentCreditCardFeeCalc: cardFee } = await client.request(PaymentCreditCardFeeCalcDocument, {
    amount: 100,
    credit_card: card,
    contact,
  });
  const { processPaymentRequest } = await client.request(ProcessPaymentRequestDocument, {
    input: paymentInput(100, cardFee.fees, cardFee.card_account_uid),
  });
  return { feeList: paymentGatewayFeesCalc, cardFee, payment: processPaymentRequest };
}
