// Our consumer contract with the payment service for the fee list, written with the kit's Pact building blocks.
// The pact file lands in pacts/; hand it to the provider team (or verify it against the kit's mock).
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import { PaymentGatewayFeesCalcDocument } from 'payment-contract-kit';
import {
  exampleValues,
  feeEntry,
  graphqlData,
  providerName,
  providerStates,
  withGraphqlRequest,
} from 'payment-contract-kit/pact';
import { describe, expect, it } from 'vitest';
import { graphqlClient, visaFee } from '../src/checkout.ts';

const pact = new PactV4({
  consumer: 'checkout-service-example',
  provider: providerName,
  dir: 'pacts',
  logLevel: 'warn',
});

describe('fee list contract', () => {
  it('reads the visa fee from the fee list', () =>
    withGraphqlRequest(
      pact
        .addGraphQLInteraction()
        .given(providerStates.accessToken, { clientId: exampleValues.clientId })
        .uponReceiving('a fee list request from the checkout'),
      PaymentGatewayFeesCalcDocument,
      // The request carries Accept: application/json, which src/checkout.ts sends.
      { variables: { amount: 100 } },
    )
      .willRespondWith(200, (b) =>
        b.jsonBody(
          graphqlData(PaymentGatewayFeesCalcDocument, { paymentGatewayFeesCalc: MatchersV3.eachLike(feeEntry()) }),
        ),
      )
      .executeTest(async (server) => {
        expect(await visaFee(graphqlClient(server.url, exampleValues.token), 100)).toBeGreaterThan(0);
      }));
});
