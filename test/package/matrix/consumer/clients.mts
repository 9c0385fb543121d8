// The kit's types as the clients and Pact see them (tsconfig.clients.json): the typed documents through Apollo
// Client (its variables and result types come from the kit's TypedDocumentNode) and the Pact builders on the cell's
// Pact. skipLibCheck stays on here: errors inside those libraries' own .d.ts files are theirs, not the kit's.
import { ApolloClient, HttpLink, InMemoryCache } from '@apollo/client';
import { PactV4 } from '@pact-foundation/pact';
import { PaymentGatewayFeesCalcDocument } from 'payment-contract-kit';
import { feeEntry, graphqlData, providerName, providerStates, withGraphqlRequest } from 'payment-contract-kit/pact';

export async function apolloFees(url: string): Promise<number | undefined> {
  const client = new ApolloClient({ link: new HttpLink({ uri: url }), cache: new InMemoryCache() });
  const { data } = await client.query({ query: PaymentGatewayFeesCalcDocument, variables: { amount: 1 } });
  // @ts-expect-error: the document's variable is a number
  await client.query({ query: PaymentGatewayFeesCalcDocument, variables: { amount: 'one' } });
  return data?.paymentGatewayFeesCalc[0]?.fees;
}

export function feeListInteraction() {
  const pact = new PactV4({ consumer: 'types', provider: providerName });
  return withGraphqlRequest(
    pact.addGraphQLInteraction().given(providerStates.accessToken, { clientId: 'c' }).uponReceiving('fees'),
    PaymentGatewayFeesCalcDocument,
    { variables: { amount: 100 } },
  ).willRespondWith(200, (b) =>
    b.jsonBody(graphqlData(PaymentGatewayFeesCalcDocument, { paymentGatewayFeesCalc: [feeEntry({ amount: 100 })] })),
  );
}
export const wrongVariables = () => {
  const variables = { card: 1 };
  // @ts-expect-error: the fee list takes an amount, not a card
  return withGraphqlRequest(undefined as never, PaymentGatewayFeesCalcDocument, { variables });
};
