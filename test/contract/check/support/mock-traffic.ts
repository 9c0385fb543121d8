/**
 * Records the exchanges of every flow of the real mock, in one guide: tokens (generate, refresh, revoke), the fee
 * list, the card fee, a payment by card and by card_account_uid, validation errors, auth errors, and the webhooks
 * the settled payments send to an in-process receiver. The checker, the `check` command's HAR tests and the proxy's
 * tests read the same recording.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import type { Exchange } from '../../../../src/contract/check/index.ts';
import { buildNodeMockApp } from '../../../../src/mock/app.ts';
import { defaultCredentials, serviceHeaders, servicePaths } from '../../../../src/spec-names.ts';
import { testCardDetails, testCardNumbers } from '../../../../src/test-values.ts';

const root = new URL('../../../../', import.meta.url);
const operation = (guide: 'current' | 'legacy', name: string) =>
  readFileSync(new URL(`operations/${guide}/${name}.graphql`, root), 'utf8');

/** The base URL the recorded requests carry. */
export const mockBase = 'http://127.0.0.1:4010';

function headersOf(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name.toLowerCase()] = value;
  });
  return out;
}

/** One recorded exchange with a name for test reports. */
export interface RecordedExchange {
  readonly name: string;
  readonly exchange: Exchange;
}

/**
 * Drives every flow of a mock in `guide` (served in that guide, or `both`) and answers the recorded exchanges.
 *
 * @example
 * const traffic = await recordMockTraffic('current');
 */
export async function recordMockTraffic(
  guide: 'current' | 'legacy',
  served: 'current' | 'legacy' | 'both' = guide,
): Promise<RecordedExchange[]> {
  const recorded: RecordedExchange[] = [];
  const webhookRequests: Request[] = [];
  const app = buildNodeMockApp(
    { guide: served, log: false, settleDelayMs: 0 },
    {
      webhookReceivers: [
        (request) => {
          webhookRequests.push(request.clone());
          return new Response(null, { status: 204 });
        },
      ],
    },
  );
  const send = async (name: string, path: string, headers: Record<string, string>, body?: unknown) => {
    const request = new Request(`${mockBase}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const requestBody = body === undefined ? undefined : JSON.stringify(body);
    const response = await app.fetch(request);
    const text = await response.text();
    recorded.push({
      name,
      exchange: {
        request: { method: 'POST', url: request.url, headers: headersOf(request.headers), body: requestBody },
        response: {
          status: response.status,
          headers: headersOf(response.headers),
          body: text === '' ? undefined : text,
        },
      },
    });
    // biome-ignore lint/suspicious/noExplicitAny: the recorder reads whichever JSON the mock answered.
    return text === '' ? undefined : (JSON.parse(text) as Record<string, any>);
  };
  const credentials = {
    [serviceHeaders.clientId]: defaultCredentials.clientId,
    [serviceHeaders.apiKey]: defaultCredentials.apiKey,
  };
  try {
    const pair = await send('generate-token', servicePaths.generateToken, credentials);
    const refreshed = await send('refresh-token', servicePaths.refreshToken, credentials, {
      refresh_token: pair?.data.refresh_token,
    });
    const jwt = { [serviceHeaders.jwt]: refreshed?.data.token as string };
    const gql = (name: string, file: string, variables: Record<string, unknown>, headers = jwt) =>
      send(name, servicePaths.graphql, headers, { query: operation(guide, file), variables });
    const numberField = guide === 'current' ? 'card_number' : 'number';
    const cardOf = (number: string) => ({ ...testCardDetails, [numberField]: number });
    const contact = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
    const reference = { description: 'Order 1', reference_no: 'R-1' };
    // The legacy guide's contact carries description and reference_no (spec 2.5).
    const feeContact = guide === 'current' ? contact : { ...contact, ...reference };
    const payment = (credit_card: Record<string, unknown>, fees: number, metadata?: Record<string, unknown>) =>
      guide === 'current'
        ? { amount: 100, fees, credit_card, contact, payment_reference: reference, ...(metadata ? { metadata } : {}) }
        : { amount: 100, fees, credit_card, contact: { ...contact, ...reference }, ...(metadata ? { metadata } : {}) };

    await gql('fee list', 'payment-gateway-fees-calc', { amount: 100 });
    await gql('fee list, odd amount', 'payment-gateway-fees-calc', { amount: 12.34 });
    const cardFee = await gql('card fee (visa)', 'payment-credit-card-fee-calc', {
      amount: 100,
      credit_card: cardOf(testCardNumbers.visaSuccess),
      contact: feeContact,
    });
    await gql('card fee (amex)', 'payment-credit-card-fee-calc', {
      amount: 250,
      credit_card: cardOf(testCardNumbers.amexSuccess),
      contact: feeContact,
    });
    const process = 'process-payment-request';
    await gql('payment by card', process, {
      input: payment(cardOf(testCardNumbers.visaSuccess), 1.8, { order_id: 'o-1' }),
    });
    await gql('payment by card_account_uid', process, {
      input: payment({ card_account_uid: cardFee?.data.paymentCreditCardFeeCalc.card_account_uid }, 1.8),
    });
    await gql('payment settling as failure', process, {
      input: payment(cardOf(testCardNumbers.visaSettlesAsFailure), 1.8),
    });
    await gql('payment with a card rejected as invalid', process, {
      input: payment(cardOf(testCardNumbers.visaRejectedAsInvalid), 1.8),
    });
    await gql('validation error: expiry year in the past', process, {
      input: payment({ ...cardOf(testCardNumbers.visaSuccess), expiry_year: '19' }, 1.8),
    });
    const { contact: _dropped, ...withoutContact } = payment(cardOf(testCardNumbers.visaSuccess), 1.8);
    await gql('validation error: contact missing', process, { input: withoutContact });
    await gql(
      'auth error: invalid token',
      'payment-gateway-fees-calc',
      { amount: 100 },
      {
        [serviceHeaders.jwt]: 'not-a-token',
      },
    );
    await send('auth error: wrong API key', servicePaths.generateToken, {
      ...credentials,
      [serviceHeaders.apiKey]: 'wrong-key',
    });
    await send('revoke-token', servicePaths.revokeToken, { ...credentials, ...jwt });
    await gql('auth error: revoked token', 'payment-gateway-fees-calc', { amount: 100 });
    for (const p of await app.control.payments())
      if (p.status === 'processing') await app.control.settlePayment(p.uuid);
    await app.control.waitForDelivery(() => webhookRequests.length >= 3, { timeoutMs: 5_000 }).catch(() => undefined);
    for (const request of webhookRequests)
      recorded.push({
        name: `webhook ${request.headers.get('x-webhook-delivery-id') ?? ''}`,
        exchange: {
          kind: 'webhook',
          request: {
            method: request.method,
            url: request.url,
            headers: headersOf(request.headers),
            body: await request.text(),
          },
          response: { status: 204, headers: {} },
        },
      });
  } finally {
    await app.close();
  }
  return recorded;
}
