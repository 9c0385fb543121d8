// Consumer contract of the current guide (spec 2 to 7): tokens over REST, fees and payments over GraphQL, and the
// error shapes of 7.1, 7.2 and 7.3. One test per shape; requests come from the kit's typed documents and types,
// tokens and card accounts from provider states. Matcher choices are explained where each matcher is defined
// (src/pact/*-matchers.ts) and, for choices made here, in a comment next to them. The request/response wiring and
// the client's call against the Pact mock server are in ../support/interactions.ts.
import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../../src/assumptions.ts';
import {
  PaymentCreditCardFeeCalcDocument,
  PaymentGatewayFeesCalcDocument,
  ProcessPaymentRequestDocument,
  type ProcessPaymentRequestInput,
  type ProcessPaymentRequestMutationVariables,
  type TokenPairResponse,
} from '../../../src/index.ts';
import { validationMessages } from '../../../src/mock/internal/graphql/validation/index.ts';
import {
  authErrorBody,
  creditCardFee,
  exampleValues,
  feeEntry,
  payment,
  providerStates,
  restErrorBody,
  tokenPairResponse,
  validationErrorBody,
} from '../../../src/pact/index.ts';
import { consumerPact } from '../support/consumer-pact.ts';
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
import {
  cardAccountReference,
  type Given,
  testGraphqlInteraction,
  testTokenInteraction,
} from '../support/interactions.ts';

const contract = consumerPact('current');
const reasons = defaultAssumptions.reasonCodes;
const withAccessToken: Given = [providerStates.accessToken, { clientId }];
const processed = { processPaymentRequest: payment({ amount, payment_gateway_fee: visaFee }) };

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
  it('generates a token pair', () =>
    testTokenInteraction(contract.pact(), {
      given: [providerStates.clientCredentials, { clientId }],
      uponReceiving: 'a request to generate a token pair',
      endpoint: 'generate',
      status: 200,
      body: tokenPairResponse(),
      verify(answer) {
        expect(answer.status).toBe(200);
        const pair = answer.body as TokenPairResponse;
        expect(pair.data.token).toBe(exampleValues.token);
        expect(pair.data.refresh_token).toBe(exampleValues.refreshToken);
        expect(Number.isInteger(pair.data.expiration)).toBe(true);
      },
    }));

  it('refuses wrong credentials with 401', () =>
    testTokenInteraction(contract.pact(), {
      given: [providerStates.clientCredentials, { clientId }],
      uponReceiving: 'a request to generate a token pair with a wrong API key',
      endpoint: 'generate',
      // A literal: this value has to be wrong for whichever provider verifies the contract.
      request: { apiKey: 'wrong-api-key' },
      status: 401,
      body: restErrorBody('The x-api-key is not valid for client test-client.'),
      verify: (answer) => expect(answer).toMatchObject({ status: 401, body: { status: 'ERROR' } }),
    }));

  it('refreshes a token pair', () =>
    testTokenInteraction(contract.pact(), {
      given: [providerStates.tokenPair, { clientId }],
      uponReceiving: 'a request to refresh the token pair',
      endpoint: 'refresh',
      status: 200,
      body: tokenPairResponse(),
      verify(answer) {
        expect(answer.status).toBe(200);
        expect((answer.body as TokenPairResponse).data.token).toBe(exampleValues.token);
      },
    }));

  it('refuses an unknown refresh token with 401', () =>
    testTokenInteraction(contract.pact(), {
      given: [providerStates.clientCredentials, { clientId }],
      uponReceiving: 'a request to refresh with an unknown refresh token',
      endpoint: 'refresh',
      // A literal: a refresh token no provider has issued.
      request: { refreshToken: 'unknown-refresh-token' },
      status: 401,
      body: restErrorBody('The refresh_token is not known; call generate-token.'),
      verify: (answer) => expect(answer).toMatchObject({ status: 401, body: { status: 'ERROR' } }),
    }));

  it('revokes the current token', () =>
    testTokenInteraction(contract.pact(), {
      given: [providerStates.tokenPair, { clientId }],
      uponReceiving: 'a request to revoke the current token',
      endpoint: 'revoke',
      // Only the status: the spec does not show revoke-token's body (4.3), so this consumer does not read it.
      status: 200,
      verify: (answer) => expect(answer.status).toBe(200),
    }));

  it('reads the 500 error body', () =>
    testTokenInteraction(contract.pact(), {
      given: [providerStates.tokenServiceFailing, { clientId }],
      uponReceiving: 'a request to generate a token pair while the service fails',
      endpoint: 'generate',
      status: 500,
      body: restErrorBody('Internal server error.'),
      verify: (answer) =>
        expect(answer).toMatchObject({ status: 500, body: { status: 'ERROR', message: 'Internal server error.' } }),
    }));
});

describe('fees (GraphQL, spec 4.4, 4.5)', () => {
  it('lists the fee of an amount for every card type', () =>
    testGraphqlInteraction(contract.pact(), {
      given: withAccessToken,
      uponReceiving: 'a request for the fee list of an amount',
      document: PaymentGatewayFeesCalcDocument,
      variables: { amount },
      // eachLike: one entry per card type, and the list of card types is not published (spec 2 gaps).
      willRespondWith: { data: { paymentGatewayFeesCalc: MatchersV3.eachLike(feeEntry({ amount, fees: visaFee })) } },
      verify(answer) {
        expect(answer.status).toBe(200);
        const [entry] = answer.body.data?.paymentGatewayFeesCalc ?? [];
        expect(entry).toEqual({ amount, fees: visaFee, total_settlement_amount: amount + visaFee, card_type: 'visa' });
      },
    }));

  it('prices one card and hands out its card_account_uid', () =>
    testGraphqlInteraction(contract.pact(), {
      given: withAccessToken,
      uponReceiving: 'a request for the fee of a card',
      document: PaymentCreditCardFeeCalcDocument,
      variables: { amount, credit_card: card, contact },
      willRespondWith: { data: { paymentCreditCardFeeCalc: creditCardFee({ amount, fees: visaFee }) } },
      verify: (answer) =>
        expect(answer.body.data?.paymentCreditCardFeeCalc.card_account_uid).toBe(exampleValues.cardAccountUid),
    }));
});

describe('payments (GraphQL, spec 4.6)', () => {
  it('starts a payment with card details', () =>
    testGraphqlInteraction(contract.pact(), {
      given: withAccessToken,
      uponReceiving: 'a request to process a payment with card details',
      document: ProcessPaymentRequestDocument,
      variables: { input: paymentInput } satisfies ProcessPaymentRequestMutationVariables,
      willRespondWith: { data: processed },
      verify: (answer) =>
        expect(answer.body.data?.processPaymentRequest).toMatchObject({
          uuid: exampleValues.paymentUuid,
          status: { name: 'processing' },
        }),
    }));

  it('starts a payment with a card_account_uid instead of card details', () =>
    testGraphqlInteraction(contract.pact(), {
      given: [providerStates.cardAccount, { clientId, cardType: 'visa' }],
      uponReceiving: 'a request to process a payment with a card_account_uid',
      document: ProcessPaymentRequestDocument,
      variables: {
        input: {
          amount,
          fees: visaFee,
          credit_card: cardAccountReference,
          contact,
          payment_reference: paymentReference,
        },
      },
      willRespondWith: { data: processed },
      verify: (answer) => expect(answer.body.data?.processPaymentRequest.status.name).toBe('processing'),
    }));
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

  it.each(cases)('answers a payment request %s', (what, { input, path, message }) =>
    testGraphqlInteraction(contract.pact(), {
      given: withAccessToken,
      uponReceiving: `a payment request ${what}`,
      document: ProcessPaymentRequestDocument,
      // Deliberately outside the generated types (a missing contact does not compile): the service's own
      // validation is what this contract is about.
      variables: { input } as unknown as ProcessPaymentRequestMutationVariables,
      willRespondWith: { error: validationErrorBody('processPaymentRequest', { [path]: message }) },
      verify(answer) {
        const [error] = answer.body.errors ?? [];
        expect(error?.extensions).toMatchObject({ category: 'validation', validation: { [path]: [message] } });
      },
    }),
  );
});

describe('authentication errors (spec 7.2)', () => {
  it('answers a request without x-jwt-token', () =>
    testGraphqlInteraction(contract.pact(), {
      uponReceiving: 'a fee list request without an access token',
      document: PaymentGatewayFeesCalcDocument,
      variables: { amount },
      token: null,
      willRespondWith: {
        error: authErrorBody(
          reasons.missingToken,
          'The x-jwt-token header is missing; get a token from generate-token.',
        ),
      },
      verify: (answer) => expect(answer.body.errors?.[0]?.extensions?.reason).toBe(reasons.missingToken),
    }));

  it('answers a request with an expired x-jwt-token', () =>
    testGraphqlInteraction(contract.pact(), {
      given: [providerStates.expiredAccessToken, { clientId }],
      uponReceiving: 'a fee list request with an expired access token',
      document: PaymentGatewayFeesCalcDocument,
      variables: { amount },
      willRespondWith: {
        error: authErrorBody(reasons.expiredToken, 'The x-jwt-token has expired; get a new one from refresh-token.'),
      },
      verify: (answer) => expect(answer.body.errors?.[0]?.extensions?.reason).toBe(reasons.expiredToken),
    }));
});

describe('contracts/', () => {
  it(`holds the pact these tests produce (${contract.name})`, () => contract.expectCommittedPact());
});
