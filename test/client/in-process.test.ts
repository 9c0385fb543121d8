// The client against the mock with no socket at all: its fetch is the mock's in-process `app.fetch`, as in browser,
// component or edge-runtime tests that cannot open a port. Same state, validation and token lifecycle as over HTTP.
import { describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../src/assumptions.ts';
import { createPaymentClient, isValidationError } from '../../src/client/index.ts';
import { createMockApp, servicePaths } from '../../src/mock/index.ts';
import { amount, card, contact, paymentReference, visaFee } from '../pact/support/fixtures.ts';

const baseUrl = 'http://payment-mock.test';

function inProcess() {
  const app = createMockApp({ log: false });
  const client = createPaymentClient({
    baseUrl,
    clientId: 'test-client',
    apiKey: 'test-api-key',
    now: app.control.now,
    fetch: (input, init) => app.fetch(new Request(input, init)),
  });
  return { app, client };
}

describe('client through the mock app in process', () => {
  it('prices, pays by card account and refreshes once across an expiry, with nothing listening', async () => {
    const { app, client } = inProcess();
    try {
      const priced = await client.cardFee({ amount, credit_card: card, contact });
      expect(priced).toMatchObject({ amount, fees: visaFee, card_type: 'visa' });
      app.control.advanceClock(defaultAssumptions.tokenTtlSeconds * 1000);
      const payment = await client.processPayment({
        amount,
        fees: priced.fees,
        credit_card: { card_account_uid: priced.card_account_uid },
        contact,
        payment_reference: paymentReference,
      });
      expect((await app.control.payments()).map((p) => p.uuid)).toEqual([payment.uuid]);
      const tokenCalls = (await app.control.requests())
        .filter((r) => r.path !== servicePaths.graphql)
        .map((r) => `${r.path} ${r.status}`);
      expect(tokenCalls).toEqual([`${servicePaths.generateToken} 200`, `${servicePaths.refreshToken} 200`]);
    } finally {
      await client.close();
      await app.close();
    }
  });

  it('gets the 7.3 validation error as its typed class', async () => {
    const { app, client } = inProcess();
    try {
      const error = await client
        .processPayment({
          amount,
          fees: visaFee,
          credit_card: { ...card, expiry_year: '20' },
          contact,
          payment_reference: paymentReference,
        })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(isValidationError(error)).toBe(true);
      if (isValidationError(error)) expect(Object.keys(error.fields)).toEqual(['input.credit_card.expiry_year']);
    } finally {
      await client.close();
      await app.close();
    }
  });
});
