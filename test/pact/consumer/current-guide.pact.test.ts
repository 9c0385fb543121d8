// Consumer contract of the current guide (spec 2 to 7): tokens over REST, fees and payments over GraphQL, and the
// error shapes of 7.1, 7.2 and 7.3. One test per shape; requests come from the kit's typed documents and types,
// tokens and card accounts from provider states. Matcher choices are explained where each matcher is defined
// (src/pact/*-matchers.ts) and, for choices made here, in a comment next to them.
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../../src/assumptions.ts';
import {
  PaymentCreditCardFeeCalcDocument,
  PaymentGatewayFeesCalcDocument,
  ProcessPaymentRequestDocument,
  type ProcessPaymentRequestInput,
  type ProcessPaymentRequestMutationVariables,
  type TokenPairResponse,
} from '../../../src/index.ts';
import { validationMessages } from '../../../src/mock/internal/graphql/validation.ts';
import {
  authErrorBody,
  creditCardFee,
  exampleValues,
  feeEntry,
  graphqlData,
  graphqlErrorStatus,
  injected,
  payment,
  providerName,
  providerStates,
  restErrorBody,
  tokenPairResponse,
  validationErrorBody,
  withGraphqlRequest,
  withTokenRequest,
} from '../../../src/pact/index.ts';
import {
  amount,
  card,
  clientId,
  contact,
  metadata,
  paymentReference,
  rejectedCardNumber,
  visaFee,
} from '../support/fixtures.ts';
import { consumers, freshPactDir, syncOrCompare } from '../support/pact-files.ts';
import { createPaymentServiceClient } from '../support/payment-service-client.ts';

const reasons = defaultAssumptions.reasonCodes;
const credentials = { clientId: exampleValues.clientId, apiKey: exampleValues.apiKey };

let out: Awaited<ReturnType<typeof freshPactDir>>;
let pact: PactV4;
beforeAll(async () => {
  out = await freshPactDir();
  pact = new PactV4({ consumer: consumers.current, provider: providerName, dir: out.dir, logLevel: 'warn' });
});
afterAll(() => out.remove());

const paymentInput = {
  amount,
  fees: visaFee,
  credit_card: card,
  contact,
  payment_reference: paymentReference,
  metadata,
  vendor_device_id: 'device-7f3a9c',
  // Documentation address (RFC 5737): the server calls on the payer's behalf, so it sends the payer's IP (spec 2.6).
  ip_address: '203.0.113.10',
} as const satisfies ProcessPaymentRequestInput;

describe('tokens (REST, spec 4.1 to 4.3, 7.1)', () => {
  it('generates a token pair', async () => {
    await withTokenRequest(
      pact
        .addInteraction()
        .given(providerStates.clientCredentials, { clientId })
        .uponReceiving('a request to generate a token pair'),
      'generate',
    )
      .willRespondWith(200, (b) => b.jsonBody(tokenPairResponse()))
      .executeTest(async (server) => {
        const answer = await createPaymentServiceClient(server.url).generateToken(credentials);
        expect(answer.status).toBe(200);
        const pair = answer.body as TokenPairResponse;
        expect(pair.data.token).toBe(exampleValues.token);
        expect(pair.data.refresh_token).toBe(exampleValues.refreshToken);
        expect(Number.isInteger(pair.data.expiration)).toBe(true);
      });
  });

  it('refuses wrong credentials with 401', async () => {
    await withTokenRequest(
      pact
        .addInteraction()
        .given(providerStates.clientCredentials, { clientId })
        .uponReceiving('a request to generate a token pair with a wrong API key'),
      'generate',
      // A literal: this value has to be wrong for whichever provider verifies the contract.
      { apiKey: 'wrong-api-key' },
    )
      .willRespondWith(401, (b) => b.jsonBody(restErrorBody('The x-api-key is not valid for client test-client.')))
      .executeTest(async (server) => {
        const answer = await createPaymentServiceClient(server.url).generateToken({
          clientId,
          apiKey: 'wrong-api-key',
        });
        expect(answer).toMatchObject({ status: 401, body: { status: 'ERROR' } });
      });
  });

  it('refreshes a token pair', async () => {
    await withTokenRequest(
      pact
        .addInteraction()
        .given(providerStates.tokenPair, { clientId })
        .uponReceiving('a request to refresh the token pair'),
      'refresh',
    )
      .willRespondWith(200, (b) => b.jsonBody(tokenPairResponse()))
      .executeTest(async (server) => {
        const answer = await createPaymentServiceClient(server.url).refreshToken(
          credentials,
          exampleValues.refreshToken,
        );
        expect(answer.status).toBe(200);
        expect((answer.body as TokenPairResponse).data.token).toBe(exampleValues.token);
      });
  });

  it('refuses an unknown refresh token with 401', async () => {
    await withTokenRequest(
      pact
        .addInteraction()
        .given(providerStates.clientCredentials, { clientId })
        .uponReceiving('a request to refresh with an unknown refresh token'),
      'refresh',
      // A literal: a refresh token no provider has issued.
      { refreshToken: 'unknown-refresh-token' },
    )
      .willRespondWith(401, (b) => b.jsonBody(restErrorBody('The refresh_token is not known; call generate-token.')))
      .executeTest(async (server) => {
        const answer = await createPaymentServiceClient(server.url).refreshToken(credentials, 'unknown-refresh-token');
        expect(answer).toMatchObject({ status: 401, body: { status: 'ERROR' } });
      });
  });

  it('revokes the current token', async () => {
    await withTokenRequest(
      pact
        .addInteraction()
        .given(providerStates.tokenPair, { clientId })
        .uponReceiving('a request to revoke the current token'),
      'revoke',
    )
      // Only the status: the spec does not show revoke-token's body (4.3), so this consumer does not read it.
      .willRespondWith(200)
      .executeTest(async (server) => {
        const answer = await createPaymentServiceClient(server.url).revokeToken(credentials);
        expect(answer.status).toBe(200);
      });
  });

  it('reads the 500 error body', async () => {
    await withTokenRequest(
      pact
        .addInteraction()
        .given(providerStates.tokenServiceFailing, { clientId })
        .uponReceiving('a request to generate a token pair while the service fails'),
      'generate',
    )
      .willRespondWith(500, (b) => b.jsonBody(restErrorBody('Internal server error.')))
      .executeTest(async (server) => {
        const answer = await createPaymentServiceClient(server.url).generateToken(credentials);
        expect(answer).toMatchObject({ status: 500, body: { status: 'ERROR', message: 'Internal server error.' } });
      });
  });
});

describe('fees (GraphQL, spec 4.4, 4.5)', () => {
  it('lists the fee of an amount for every card type', async () => {
    await withGraphqlRequest(
      pact
        .addGraphQLInteraction()
        .given(providerStates.accessToken, { clientId })
        .uponReceiving('a request for the fee list of an amount'),
      PaymentGatewayFeesCalcDocument,
      { variables: { amount } },
    )
      .willRespondWith(200, (b) =>
        b.jsonBody(
          graphqlData(PaymentGatewayFeesCalcDocument, {
            // eachLike: one entry per card type, and the list of card types is not published (spec 2 gaps).
            paymentGatewayFeesCalc: MatchersV3.eachLike(feeEntry({ amount, fees: visaFee })),
          }),
        ),
      )
      .executeTest(async (server) => {
        const answer = await createPaymentServiceClient(server.url).graphql(
          PaymentGatewayFeesCalcDocument,
          { amount },
          exampleValues.token,
        );
        expect(answer.status).toBe(200);
        const [entry] = answer.body.data?.paymentGatewayFeesCalc ?? [];
        expect(entry).toEqual({ amount, fees: visaFee, total_settlement_amount: amount + visaFee, card_type: 'visa' });
      });
  });

  it('prices one card and hands out its card_account_uid', async () => {
    await withGraphqlRequest(
      pact
        .addGraphQLInteraction()
        .given(providerStates.accessToken, { clientId })
        .uponReceiving('a request for the fee of a card'),
      PaymentCreditCardFeeCalcDocument,
      { variables: { amount, credit_card: card, contact } },
    )
      .willRespondWith(200, (b) =>
        b.jsonBody(
          graphqlData(PaymentCreditCardFeeCalcDocument, {
            paymentCreditCardFeeCalc: creditCardFee({ amount, fees: visaFee }),
          }),
        ),
      )
      .executeTest(async (server) => {
        const answer = await createPaymentServiceClient(server.url).graphql(
          PaymentCreditCardFeeCalcDocument,
          { amount, credit_card: card, contact },
          exampleValues.token,
        );
        expect(answer.body.data?.paymentCreditCardFeeCalc.card_account_uid).toBe(exampleValues.cardAccountUid);
      });
  });
});

describe('payments (GraphQL, spec 4.6)', () => {
  it('starts a payment with card details', async () => {
    const variables = { input: paymentInput } satisfies ProcessPaymentRequestMutationVariables;
    await withGraphqlRequest(
      pact
        .addGraphQLInteraction()
        .given(providerStates.accessToken, { clientId })
        .uponReceiving('a request to process a payment with card details'),
      ProcessPaymentRequestDocument,
      { variables },
    )
      .willRespondWith(200, (b) =>
        b.jsonBody(
          graphqlData(ProcessPaymentRequestDocument, {
            processPaymentRequest: payment({ amount, payment_gateway_fee: visaFee }),
          }),
        ),
      )
      .executeTest(async (server) => {
        const answer = await createPaymentServiceClient(server.url).graphql(
          ProcessPaymentRequestDocument,
          variables,
          exampleValues.token,
        );
        expect(answer.body.data?.processPaymentRequest).toMatchObject({
          uuid: exampleValues.paymentUuid,
          status: { name: 'processing' },
        });
      });
  });

  it('starts a payment with a card_account_uid instead of card details', async () => {
    const input = {
      amount,
      fees: visaFee,
      // Injected: the provider hands out the uid of a card account it created in the provider state.
      credit_card: {
        card_account_uid: MatchersV3.fromProviderState(injected.cardAccountUid, exampleValues.cardAccountUid),
      },
      contact,
      payment_reference: paymentReference,
    };
    await withGraphqlRequest(
      pact
        .addGraphQLInteraction()
        .given(providerStates.cardAccount, { clientId, cardType: 'visa' })
        .uponReceiving('a request to process a payment with a card_account_uid'),
      ProcessPaymentRequestDocument,
      { variables: { input } },
    )
      .willRespondWith(200, (b) =>
        b.jsonBody(
          graphqlData(ProcessPaymentRequestDocument, {
            processPaymentRequest: payment({ amount, payment_gateway_fee: visaFee }),
          }),
        ),
      )
      .executeTest(async (server) => {
        const answer = await createPaymentServiceClient(server.url).graphql(
          ProcessPaymentRequestDocument,
          { input: { ...input, credit_card: { card_account_uid: exampleValues.cardAccountUid } } },
          exampleValues.token,
        );
        expect(answer.body.data?.processPaymentRequest.status.name).toBe('processing');
      });
  });
});

describe('validation errors (spec 7.3)', () => {
  const m = validationMessages;
  const { contact: _left, ...withoutContact } = paymentInput;
  const cases: [string, { input: unknown; path: string; message: string }][] = [
    ['without a contact', { input: withoutContact, path: 'input.contact', message: m.required('input.contact') }],
    [
      'with an expiry year in the past',
      {
        input: { ...paymentInput, credit_card: { ...card, expiry_year: '20' } },
        path: 'input.credit_card.expiry_year',
        message: m.yearPast('input.credit_card.expiry_year'),
      },
    ],
    [
      'with a one-digit expiry month',
      {
        input: { ...paymentInput, credit_card: { ...card, expiry_month: '7' } },
        path: 'input.credit_card.expiry_month',
        message: m.twoDigits('input.credit_card.expiry_month'),
      },
    ],
    [
      'with a card the service rejects as invalid',
      {
        input: { ...paymentInput, credit_card: { ...card, card_number: rejectedCardNumber } },
        path: 'input.credit_card.card_number',
        message: m.rejectedCard('input.credit_card.card_number'),
      },
    ],
  ];

  it.each(cases)('answers a payment request %s', async (what, { input, path, message }) => {
    // Deliberately outside the generated types (a missing contact does not compile): the service's own
    // validation is what this contract is about.
    const variables = { input } as unknown as ProcessPaymentRequestMutationVariables;
    await withGraphqlRequest(
      pact
        .addGraphQLInteraction()
        .given(providerStates.accessToken, { clientId })
        .uponReceiving(`a payment request ${what}`),
      ProcessPaymentRequestDocument,
      { variables },
    )
      .willRespondWith(graphqlErrorStatus(), (b) =>
        b.jsonBody(validationErrorBody('processPaymentRequest', { [path]: message })),
      )
      .executeTest(async (server) => {
        const answer = await createPaymentServiceClient(server.url).graphql(
          ProcessPaymentRequestDocument,
          variables,
          exampleValues.token,
        );
        const [error] = answer.body.errors ?? [];
        expect(error?.extensions).toMatchObject({ category: 'validation', validation: { [path]: [message] } });
      });
  });
});

describe('authentication errors (spec 7.2)', () => {
  it('answers a request without x-jwt-token', async () => {
    await withGraphqlRequest(
      pact.addGraphQLInteraction().uponReceiving('a fee list request without an access token'),
      PaymentGatewayFeesCalcDocument,
      { variables: { amount }, token: null },
    )
      .willRespondWith(graphqlErrorStatus(), (b) =>
        b.jsonBody(
          authErrorBody(reasons.missingToken, 'The x-jwt-token header is missing; get a token from generate-token.'),
        ),
      )
      .executeTest(async (server) => {
        const answer = await createPaymentServiceClient(server.url).graphql(
          PaymentGatewayFeesCalcDocument,
          { amount },
          null,
        );
        expect(answer.body.errors?.[0]?.extensions?.reason).toBe(reasons.missingToken);
      });
  });

  it('answers a request with an expired x-jwt-token', async () => {
    await withGraphqlRequest(
      pact
        .addGraphQLInteraction()
        .given(providerStates.expiredAccessToken, { clientId })
        .uponReceiving('a fee list request with an expired access token'),
      PaymentGatewayFeesCalcDocument,
      { variables: { amount } },
    )
      .willRespondWith(graphqlErrorStatus(), (b) =>
        b.jsonBody(
          authErrorBody(reasons.expiredToken, 'The x-jwt-token has expired; get a new one from refresh-token.'),
        ),
      )
      .executeTest(async (server) => {
        const answer = await createPaymentServiceClient(server.url).graphql(
          PaymentGatewayFeesCalcDocument,
          { amount },
          exampleValues.token,
        );
        expect(answer.body.errors?.[0]?.extensions?.reason).toBe(reasons.expiredToken);
      });
  });
});

describe('contracts/', () => {
  it(`holds the pact these tests produce (${consumers.current})`, async () => {
    const result = await syncOrCompare(out.dir, consumers.current);
    if (result.state === 'drifted') expect(result.produced, result.message).toEqual(result.committed);
    expect(result.state === 'missing' ? result.message : 'ok').toBe('ok');
  });
});
