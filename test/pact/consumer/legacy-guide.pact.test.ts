// Consumer contract of the older guide, as its own consumer and pact file: the four differences of spec 9 (fee
// list `total` and `card_location`, card number `number`, input type `ProcessPaymentInput`, description and
// reference_no in the contact), with requests from the typed documents of payment-contract-kit/legacy. The
// request/response wiring and the client's call against the Pact mock server are in ../support/interactions.ts.
import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import {
  PaymentCreditCardFeeCalcDocument,
  PaymentGatewayFeesCalcDocument,
  type ProcessPaymentInput,
  ProcessPaymentRequestDocument,
  type ProcessPaymentRequestMutationVariables,
} from '../../../src/legacy.ts';
import { validationMessages } from '../../../src/mock/internal/graphql/validation/index.ts';
import {
  creditCardFee,
  exampleValues,
  legacyFeeEntry,
  payment,
  providerStates,
  validationErrorBody,
} from '../../../src/pact/index.ts';
import { consumerPact } from '../support/consumer-pact.ts';
import { amount, clientId, legacyCard, legacyContact, metadata, visaFee } from '../support/fixtures.ts';
import { cardAccountReference, type Given, testGraphqlInteraction } from '../support/interactions.ts';

const contract = consumerPact('legacy');
const withAccessToken: Given = [providerStates.accessToken, { clientId }];
const processed = { processPaymentRequest: payment({ amount, payment_gateway_fee: visaFee }) };

const paymentInput = {
  amount,
  fees: visaFee,
  credit_card: legacyCard,
  contact: legacyContact,
  metadata,
} as const satisfies ProcessPaymentInput;

describe('fees, legacy guide', () => {
  it('lists fees with total and card_location', () =>
    testGraphqlInteraction(contract.pact(), {
      given: withAccessToken,
      uponReceiving: 'a legacy request for the fee list of an amount',
      document: PaymentGatewayFeesCalcDocument,
      variables: { amount },
      // eachLike: one entry per card type; the list of card types is not published.
      willRespondWith: {
        data: { paymentGatewayFeesCalc: MatchersV3.eachLike(legacyFeeEntry({ amount, fees: visaFee })) },
      },
      verify: (answer) =>
        expect(answer.body.data?.paymentGatewayFeesCalc[0]).toEqual({
          amount,
          fees: visaFee,
          total: amount + visaFee,
          card_type: 'visa',
          card_location: 'domestic',
        }),
    }));

  it('prices a card given by `number`', () =>
    testGraphqlInteraction(contract.pact(), {
      given: withAccessToken,
      uponReceiving: 'a legacy request for the fee of a card',
      document: PaymentCreditCardFeeCalcDocument,
      variables: { amount, credit_card: legacyCard, contact: legacyContact },
      willRespondWith: { data: { paymentCreditCardFeeCalc: creditCardFee({ amount, fees: visaFee }) } },
      verify: (answer) =>
        expect(answer.body.data?.paymentCreditCardFeeCalc.card_account_uid).toBe(exampleValues.cardAccountUid),
    }));
});

describe('payments, legacy guide', () => {
  it('starts a payment with ProcessPaymentInput and the reference in the contact', () =>
    testGraphqlInteraction(contract.pact(), {
      given: withAccessToken,
      uponReceiving: 'a legacy request to process a payment with card details',
      document: ProcessPaymentRequestDocument,
      variables: { input: paymentInput } satisfies ProcessPaymentRequestMutationVariables,
      willRespondWith: { data: processed },
      verify: (answer) => expect(answer.body.data?.processPaymentRequest.status.name).toBe('processing'),
    }));

  it('starts a payment with a card_account_uid', () =>
    testGraphqlInteraction(contract.pact(), {
      given: [providerStates.cardAccount, { clientId, cardType: 'visa' }],
      uponReceiving: 'a legacy request to process a payment with a card_account_uid',
      document: ProcessPaymentRequestDocument,
      variables: { input: { amount, fees: visaFee, credit_card: cardAccountReference, contact: legacyContact } },
      willRespondWith: { data: processed },
      verify: (answer) => expect(answer.body.data?.processPaymentRequest.uuid).toBe(exampleValues.paymentUuid),
    }));

  it('answers a payment request whose contact lacks reference_no (validation, spec 7.3)', () => {
    const { reference_no: _left, ...contactWithoutReference } = legacyContact;
    const path = 'input.contact.reference_no';
    return testGraphqlInteraction(contract.pact(), {
      given: withAccessToken,
      uponReceiving: 'a legacy payment request whose contact lacks reference_no',
      document: ProcessPaymentRequestDocument,
      // Deliberately outside the generated types: the service's own validation is what this contract is about.
      variables: {
        input: { ...paymentInput, contact: contactWithoutReference },
      } as unknown as ProcessPaymentRequestMutationVariables,
      willRespondWith: {
        error: validationErrorBody('processPaymentRequest', { [path]: validationMessages.required(path) }),
      },
      verify: (answer) => expect(answer.body.errors?.[0]?.extensions).toMatchObject({ category: 'validation' }),
    });
  });
});

describe('contracts/', () => {
  it(`holds the pact these tests produce (${contract.name})`, () => contract.expectCommittedPact());
});
