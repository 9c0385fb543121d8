// Recipe: Apollo Client 4. `Payment` has no `id`; its identity is `uuid`, so the cache needs `keyFields: ['uuid']`
// to normalise payments (without it every answer is stored inside its parent, and updates never meet).
import { ApolloClient, HttpLink, InMemoryCache } from '@apollo/client';
import { ProcessPaymentRequestDocument } from 'payment-contract-kit';
import { type ClientCredentials, generateToken } from './openapi-fetch.ts';
import { paymentInput } from './payment-input.ts';

/** The cache: payments keyed by `uuid`; fee rows have no identity of their own and stay inside their query. */
export function createPaymentCache(): InMemoryCache {
  return new InMemoryCache({ typePolicies: { Payment: { keyFields: ['uuid'] } } });
}

/** An Apollo client for `/graphql` with the access token in `x-jwt-token`. */
export function createApolloClient(baseUrl: string, token: string): ApolloClient {
  return new ApolloClient({
    link: new HttpLink({ uri: `${baseUrl}/graphql`, headers: { 'x-jwt-token': token } }),
    cache: createPaymentCache(),
  });
}

/** Pays from a card account and answers the payment with the cache id Apollo stored it under. */
export async function payWithApollo(baseUrl: string, credentials: ClientCredentials, card_account_uid: string) {
  const client = createApolloClient(baseUrl, await generateToken(baseUrl, credentials));
  const { data } = await client.mutate({
    mutation: ProcessPaymentRequestDocument,
    variables: { input: paymentInput(100, 1.8, card_account_uid) },
  });
  if (!data) throw new Error('processPaymentRequest answered no data');
  const payment = data.processPaymentRequest;
  return { client, payment, cacheId: client.cache.identify({ __typename: 'Payment', uuid: payment.uuid }) };
}
