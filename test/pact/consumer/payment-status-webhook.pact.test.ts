// Consumer contract of the payment status webhook (spec 6) as asynchronous messages: the payload as contents, the
// signing key and client id headers as message metadata. One message per final outcome; the provider state says
// which payment settled how, with the metadata the consumer sent, which the payload must echo.
import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import {
  exampleValues,
  type ProviderStateParams,
  paymentStatusWebhookPayload,
  providerStates,
  webhookMetadata,
} from '../../../src/pact/index.ts';
import { consumerPact } from '../support/consumer-pact.ts';
import { amount, clientId, metadata, visaFee } from '../support/fixtures.ts';
import { handlePaymentStatusWebhook } from '../support/webhook-receiver.ts';

const contract = consumerPact('webhook');

const receiver = { signingKey: exampleValues.signingKey, clientId: exampleValues.clientId };

const outcomes: [string, { outcome: 'success' | 'failure'; example: string }][] = [
  ['a successful payment', { outcome: 'success', example: exampleValues.statusSuccess }],
  ['a failed payment', { outcome: 'failure', example: exampleValues.statusFailure }],
];

describe('payment status webhook (spec 6)', () => {
  it.each(outcomes)('receives the final status of %s', async (what, { outcome, example }) => {
    const state: ProviderStateParams[typeof providerStates.paymentFinalised] = { clientId, outcome, amount, metadata };
    await contract
      .pact()
      .addAsynchronousInteraction()
      .given(providerStates.paymentFinalised, state)
      .expectsToReceive(`a payment status update for ${what}`, (m) =>
        m
          .withJSONContent(
            paymentStatusWebhookPayload({
              amount,
              payment_gateway_fee: visaFee,
              // A string matcher: final status names are not published (spec 3); the example is the kit's name.
              status: MatchersV3.string(example),
              // Literal: the consumer's own metadata, which the service echoes unchanged (spec 2.6, 6).
              metadata,
            }),
          )
          .withMetadata(webhookMetadata()),
      )
      .executeTest(async (message) => {
        const result = handlePaymentStatusWebhook(message.metadata, message.contents.content, receiver);
        expect(result).toEqual({
          ok: true,
          update: { uuid: exampleValues.paymentUuid, status: example, amount, metadata },
        });
      });
  });
});

describe('contracts/', () => {
  it(`holds the pact these tests produce (${contract.name})`, () => contract.expectCommittedPact());
});
