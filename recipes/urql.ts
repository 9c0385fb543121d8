// Recipe: @urql/core 6. urql sends queries as GET by default (mutations always as POST); the mock serves GraphQL queries
// over GET, so urql's default works. `preferGetMethod: false` sends everything as POST, as the real service's clients
// may prefer where a proxy strips query strings.
import { Client, fetchExchange } from '@urql/core';
import { PaymentGatewayFeesCalcDocument, ProcessPaymentRequestDocument } from 'payment-contract-kit';
import { type ClientCredentials, generateToken } from './openapi-fetch.ts';
import { paymentInput } from './payment-input.ts';

/** An urql client for `/graphql` with the access token in `x-jwt-token`; urql's default GET for queries unless `false`. */
export function createUrqlClient(baseUrl: string, token: string, preferGetMethod?: false): Client {
  return new Client({
    url: `${baseUrl}/graphql`,
    exchanges: [fetchExchange],
    ...(preferGetMethod === false ? { preferGetMethod } : {}),
    fetchOptions: { headers: { 'x-jwt-token': token } },
  });
}

/** The fee list for `amount` through urql; a GraphQL or network error throws urql's `CombinedError`. */
export async function feesWithUrql(client: Client, amount: number) {
  const result = await client.query(PaymentGatewayFeesCalcDocument, { amount }).toPromise();
  if (result.error) throw result.error;
  return result.data?.paymentGatewayFeesCalc ?? [];
}

/** A payment from a card account through urql (mutations are always sent as POST). */
export async function payWithUrql(baseUrl: string, credentials: ClientCredentials, card_account_uid: string) {
  const client = createUrqlClient(baseUrl, await generateToken(baseUrl, credentials));
  const fees = await feesWithUrql(client, 100);
  const visa = fees.find((f) => f.card_type === 'visa');
  if (!visa) throw new Error('no visa fee in the fee list');
  const result = await client
    .mutation(ProcessPaymentRequestDocument, { input: paymentInput(100, visa.fees, card_account_uid) })
    .toPromise();
  if (result.error) throw result.error;
  return { fees, payment: result.data?.processPaymentRequest };
}
