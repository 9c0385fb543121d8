// Consumer contract of the older guide, as its own consumer and pact file: the four differences of spec 9 (fee
// list `total` and `card_location`, card number `number`, input type `ProcessPaymentInput`, description and
// reference_no in the contact), with requests from the typed documents of payment-contract-kit/legacy.
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PaymentCreditCardFeeCalcDocument,
  PaymentGatewayFeesCalcDocument,
  type ProcessPaymentInput,
  ProcessPaymentRequestDocument,
  type ProcessPaymentRequestMutationVariables,
} from '../../../src/legacy.ts';
import { validationMessages } from '../../../src/mock/internal/graphql/validation.ts';
import {
  creditCardFee,
  exampleValues,
  graphqlData,
  graphqlErrorStatus,
  injected,
  legacyFeeEntry,
  payment,
  providerName,
  providerStates,
  validationErrorBody,
  withGraphqlRequest,
} from '../../../src/pact/index.ts';
import { amount, clientId, legacyCard, legacyContact, metadata, visaFee } from '../support/fixtures.ts';
import { consumers, freshPactDir, syncOrCompare } from '../support/pact-files.ts';
import { createPaymentServiceClient } from '../support/payment-service-client.ts';

let out: Awaited<ReturnType<typeof freshPactDir>>;
let pact: PactV4;
beforeAll(async () => {
  out = await freshPactDir();
  pact = new PactV4({ consumer: consumers.legacy, provider: providerName, dir: out.dir, logLevel: 'warn' });
});
afterAll(() => out.remove());

const paymentInput = {
  amount,
  fees: visaFee,
  credit_card: legacyCard,
  contact: legacyContact,
  metadata,
} as const satisfies ProcessPaymentInput;

describe('fees, legacy guide', () => {
  it('lists fees with total and card_location', async () => {
    await withGraphqlRequest(
      pact
        .addGraphQLInteraction()
        .given(providerStates.accessToken, { clientId })
        .uponReceiving('a legacy request for the fee list of an amount'),
      PaymentGatewayFeesCalcDocument,
      { variables: { amount } },
    )
      .willRespondWith(200, (b) =>
        b.jsonBody(
          graphqlData(PaymentGatewayFeesCalcDocument, {
            // eachLike: one entry per card type; the list of card types is not published.
            paymentGatewayFeesCalc: MatchersV3.eachLike(legacyFeeEntry({ amount, fees: visaFee })),
          }),
        ),
      )
      .executeTest(async (server) => {
        const answer = await createPaymentServiceClient(server.url).graphql(
          PaymentGatewayFeesCalcDocument,
          { amount },
          exampleValues.token,
        );
        expect(answer.body.data?.paymentGatewayFeesCalc[0]).toEqual({
          amount,
          fees: visaFee,
          total: amount + visaFee,
          card_type: 'visa',
          card_location: 'domestic',
        });
      });
  });

  it('prices a card given by `number`', async () => {
    await withGraphqlRequest(
      pact
        .addGraphQLInteraction()
        .given(providerStates.accessToken, { clientId })
        .uponReceiving('a legacy request for the fee of a card'),
      PaymentCreditCardFeeCalcDocument,
      { variables: { amount, credit_card: legacyCard, contact: legacyContact } },
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
          { amount, credit_card: legacyCard, contact: legacyContact },
          exampleValues.token,
        );
        expect(answer.body.data?.paymentCreditCardFeeCalc.card_account_uid).toBe(exampleValues.cardAccountUid);
      });
  });
});

describe('payments, legacy guide', () => {
  it('starts a payment with ProcessPaymentInput and the reference in the contact', async () => {
    const variables = { input: paymentInput } satisfies ProcessPaymentRequestMutationVariables;
    await withGraphqlRequest(
      pact
        .addGraphQLInteraction()
        .given(providerStates.accessToken, { clientId })
        .uponReceiving('a legacy request to process a payment with card details'),
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
        expect(answer.body.data?.processPaymentRequest.status.name).toBe('processing');
      });
  });

  it('starts a payment with a card_account_uid', async () => {
    const input = {
      amount,
      fees: visaFee,
      // Injected: the provider hands out the uid of a card account it created in the provider state.
      credit_card: {
        card_account_uid: MatchersV3.fromProviderState(injected.cardAccountUid, exampleValues.cardAccountUid),
      },
      contact: legacyContact,
    };
    await withGraphqlRequest(
      pact
        .addGraphQLInteraction()
        .given(providerStates.cardAccount, { clientId, cardType: 'visa' })
        .uponReceiving('a legacy request to process a payment with a card_account_uid'),
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
        expect(answer.body.data?.processPaymentRequest.uuid).toBe(exampleValues.paymentUuid);
      });
  });

  it('answers a payment request whose contact lacks reference_no (validation, spec 7.3)', async () => {
    const { reference_no: _left, ...contactWithoutReference } = legacyContact;
    // Deliberately outside the generated types: the service's own validation is what this contract is about.
    const variables = {
      input: { ...paymentInput, contact: contactWithoutReference },
    } as unknown as ProcessPaymentRequestMutationVariables;
    const path = 'input.contact.reference_no';
    await withGraphqlRequest(
      pact
        .addGraphQLInteraction()
        .given(providerStates.accessToken, { clientId })
        .uponReceiving('a legacy payment request whose contact lacks reference_no'),
      ProcessPaymentRequestDocument,
      { variables },
    )
      .willRespondWith(graphqlErrorStatus(), (b) =>
        b.jsonBody(validationErrorBody('processPaymentRequest', { [path]: validationMessages.required(path) })),
      )
      .executeTest(async (server) => {
        const answer = await createPaymentServiceClient(server.url).graphql(
          ProcessPaymentRequestDocument,
          variables,
          exampleValues.token,
        );
        expect(answer.body.errors?.[0]?.extensions).toMatchObject({ category: 'validation' });
      });
  });
});

describe('contracts/', () => {
  it(`holds the pact these tests produce (${consumers.legacy})`, async () => {
    const result = await syncOrCompare(out.dir, consumers.legacy);
    if (result.state === 'drifted') expect(result.produced, result.message).toEqual(result.committed);
    expect(result.state === 'missing' ? result.message : 'ok').toBe('ok');
  });
});
