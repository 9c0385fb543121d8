// The team's payment code: a token from the REST endpoint, then the kit's typed documents with graphql-request.
import { GraphQLClient } from 'graphql-request';
import {
  type CardDetails,
  type ContactInput,
  PaymentCreditCardFeeCalcDocument,
  PaymentGatewayFeesCalcDocument,
  ProcessPaymentRequestDocument,
  type TokenPairResponse,
} from 'payment-contract-kit';

/** Where the payment service is and who we are to it. */
export interface ServiceConfig {
  readonly baseUrl: string;
  readonly clientId: string;
  readonly apiKey: string;
}

/** Generates an access token (spec 4.1). */
export async function accessToken({ baseUrl, clientId, apiKey }: ServiceConfig): Promise<string> {
  const res = await fetch(`${baseUrl}/api/v2/accounting/token/generate-token`, {
    method: 'POST',
    headers: { 'x-client-id': clientId, 'x-api-key': apiKey },
  });
  if (!res.ok) throw new Error(`generate-token answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as TokenPairResponse).data.token;
}

/**
 * A GraphQL client sending `token` as the service expects it. The service answers `application/json` (spec 7), so
 * we ask for that rather than graphql-request's default list, which our Pact contract would otherwise pin.
 */
export function graphqlClient(baseUrl: string, token: string): GraphQLClient {
  return new GraphQLClient(`${baseUrl}/graphql`, { headers: { 'x-jwt-token': token, accept: 'application/json' } });
}

/** The visa fee for `amount`, from the fee list. */
export async function visaFee(client: GraphQLClient, amount: number): Promise<number> {
  const { paymentGatewayFeesCalc } = await client.request(PaymentGatewayFeesCalcDocument, { amount });
  const visa = paymentGatewayFeesCalc.find((fee) => fee.card_type === 'visa');
  if (!visa) throw new Error('the fee list has no visa entry');
  return visa.fees;
}

/** Prices the card once, then pays from its card account, so the card details are sent only once. */
export async function checkout(
  client: GraphQLClient,
  order: { amount: number; card: CardDetails; contact: ContactInput; orderId: string },
) {
  const { paymentCreditCardFeeCalc: priced } = await client.request(PaymentCreditCardFeeCalcDocument, {
    amount: order.amount,
    credit_card: order.card,
    contact: order.contact,
  });
  const { processPaymentRequest } = await client.request(ProcessPaymentRequestDocument, {
    input: {
      amount: order.amount,
      fees: priced.fees,
      credit_card: { card_account_uid: priced.card_account_uid },
      contact: order.contact,
      payment_reference: { description: `Order ${order.orderId}`, reference_no: order.orderId },
      metadata: { order_id: order.orderId },
    },
  });
  return processPaymentRequest;
}
