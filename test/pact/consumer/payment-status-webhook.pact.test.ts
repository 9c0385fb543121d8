// Consumer contract of the payment status webhook (spec 6) as asynchronous messages: the payload as contents, the
// signing key and client id headers as message metadata. One message per final outcome; the provider state says
// which payment settled how, with the metadata the consumer sent, which the payload must echo.
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  exampleValues,
  type ProviderStateParams,
  paymentStatusWebhookPayload,
  providerName,
  providerStates,
  webhookMetadata,
} from '../../../src/pact/index.ts';
import { amount, clientId, metadata, visaFee } from '../support/fixtures.ts';
import { consumers, freshPactDir, syncOrCompare } from '../support/pact-files.ts';
import { handlePaymentStatusWebhook } from '../support/webhook-receiver.ts';

let out: Awaited<ReturnType<typeof freshPactDir>>;
let pact: PactV4;
beforeAll(async () => {
  out = await freshPactDir();
  pact = new PactV4({ consumer: consumers.webhook, provider: providerName, dir: out.dir, logLevel: 'warn' });
});
afterAll(() => out.remove());

const receiver = { signingKey: exampleValues.signingKey, clientId: exampleValues.clientId };

const outcomes: [string, { outcome: 'success' | 'failure'; example: string }][] = [
  ['a successful payment', { outcome: 'success', example: exampleValues.statusSuccess }],
  ['a failed payment', { outcome: 'failure', example: exampleValues.statusFailure }],
];

describe('payment status webhook (spec 6)', () => {
  it.each(outcomes)('receives the final status of %s', async (what, { outcome, example }) => {
    const state: ProviderStateParams[typeof providerStates.paymentFinalised] = { clientId, outcome, amount, metadata };
    await pact
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
  it(`holds the pact these tests produce (${consumers.webhook})`, async () => {
    const result = await syncOrCompare(out.dir, consumers.webhook);
    if (result.state === 'drifted') expect(result.produced, result.message).toEqual(result.committed);
    expect(result.state === 'missing' ? result.message : 'ok').toBe('ok');
  });
});
