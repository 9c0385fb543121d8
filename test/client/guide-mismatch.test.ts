// A request in the guide the mock does not serve is an integration mistake, and the client says so: a current-guide
// payment sent to a legacy-guide mock used to surface as InvalidCardError ("ask the payer for another card"), because
// the mismatch is reported at the card number's path. Issue 25 item 6. Each case is written as a team meets it: the
// typed client of one guide against a mock started with the other.
import { afterEach, describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../src/assumptions.ts';
import {
  createPaymentClient,
  isGraphqlError,
  isInvalidCardError,
  isValidationError,
  type PaymentClientGuide,
} from '../../src/client/index.ts';
import { createMockApp, type MockApp } from '../../src/mock/index.ts';
import {
  amount,
  card,
  contact,
  legacyCard,
  legacyContact,
  paymentReference,
  visaFee,
} from '../pact/support/fixtures.ts';

const apps: MockApp[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/** The typed client of `clientGuide` against an in-process mock serving `mockGuide`. */
function mismatched<G extends PaymentClientGuide>(clientGuide: G, mockGuide: 'current' | 'legacy') {
  const app = createMockApp({ guide: mockGuide, log: false });
  apps.push(app);
  const client = createPaymentClient<G>({
    baseUrl: 'http://payment-mock.test',
    clientId: 'test-client',
    apiKey: 'test-api-key',
    guide: clientGuide,
    now: app.control.now,
    fetch: (input, init) => app.fetch(new Request(input, init)),
  });
  return { app, client };
}

async function thrown(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
}

describe('guide mismatch between the request and the mock', () => {
  it('a current-guide payment to a legacy-guide mock: a 7.3 guide mismatch, never InvalidCardError', async () => {
    const { app, client } = mismatched('current', 'legacy');
    const error = await thrown(
      client.processPayment({ amount, fees: visaFee, credit_card: card, contact, payment_reference: paymentReference }),
    );
    expect(isInvalidCardError(error)).toBe(false);
    expect(isValidationError(error)).toBe(true);
    if (!isValidationError(error)) return;
    expect(error.errors[0]?.extensions).toMatchObject({
      category: 'validation',
      reason: defaultAssumptions.reasonCodes.guideMismatch,
    });
    expect(error.message).toContain(
      'Guide mismatch: this mock serves the legacy guide and the request is written in the current guide.',
    );
    expect(error.message).toContain('--guide current or --guide both');
    expect(error.message).not.toContain(card.card_number);
    expect(await app.control.payments()).toEqual([]);
  });

  it('a legacy-guide payment to a current-guide mock: the same, the other way round', async () => {
    const { client } = mismatched('legacy', 'current');
    const error = await thrown(
      client.processPayment({ amount, fees: visaFee, credit_card: legacyCard, contact: legacyContact }),
    );
    expect(isInvalidCardError(error)).toBe(false);
    expect(isValidationError(error) && error.message).toContain(
      'Guide mismatch: this mock serves the current guide and the request is written in the legacy guide.',
    );
  });

  it('a legacy fee-list selection against a current mock: a 7.2 error with the guide-mismatch reason', async () => {
    const { client } = mismatched('legacy', 'current');
    const error = await thrown(client.feesFor(amount));
    expect(isGraphqlError(error)).toBe(true);
    if (!isGraphqlError(error)) return;
    expect(error.reason).toBe(defaultAssumptions.reasonCodes.guideMismatch);
    expect(error.message).toMatch(
      /Guide mismatch: this mock serves the current guide .* --guide legacy or --guide both/,
    );
  });
});
