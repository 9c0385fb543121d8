// Recipe: @urql/core 6. urql sends queries as GET by default; `preferGetMethod: false` sends every operation as a
// POST, which every mock version answers. Mocks that serve GraphQL queries over GET too accept urql's default.
import { Client, fetchExchange } from '@urql/core';
import { PaymentGatewayFeesCalcDocument, ProcessPaymentRequestDocument } from 'payment-contract-kit';
import { type ClientCredentials, generateToken } from './openapi-fetch.ts';
import { paymentInput } from './payment-input.ts';

/** An urql client for `/graphql` with the access token in `x-jwt-token`; POST for every operation by default. */
export function createUrqlClient(baseUrl: string, token: string, preferGetMethod = false): Client {
  return new Client({
    url: `${baseUrl}/graphql`,
    exchanges: [fetchExchange],
    preferGetMethod,
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
