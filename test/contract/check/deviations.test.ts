// Planted deviations, one per row: a clean exchange of the real mock, changed in one way a service (or a consumer)
// could differ, must give exactly the drifts named (kind, path, ledger key, observed value), while the same exchange
// unchanged gives none. Contract and assumption drifts, REST, GraphQL and webhooks, both guides.
import { beforeAll, describe, expect, it } from 'vitest';
import { checkExchange, type Drift, type Exchange } from '../../../src/contract/check/index.ts';
import { type RecordedExchange, recordMockTraffic } from './support/mock-traffic.ts';

// biome-ignore lint/suspicious/noExplicitAny: the rows edit whichever JSON the mock answered.
type Json = any;
type Guide = 'current' | 'legacy';

const traffic: Record<Guide, RecordedExchange[]> = { current: [], legacy: [] };
beforeAll(async () => {
  traffic.current = await recordMockTraffic('current');
  traffic.legacy = await recordMockTraffic('legacy');
});

function recorded(guide: Guide, name: string): Exchange {
  const found = traffic[guide].find((t) => t.name === name || (name === 'webhook' && t.exchange.kind === 'webhook'));
  if (!found) throw new Error(`no recorded exchange "${name}" in the ${guide} guide`);
  return found.exchange;
}

const answer =
  (edit: (body: Json) => void) =>
  (x: Exchange): Exchange => {
    const body = JSON.parse(x.response?.body ?? 'null');
    edit(body);
    return { ...x, response: { ...x.response!, body: JSON.stringify(body) } };
  };
const request =
  (edit: (body: Json) => void) =>
  (x: Exchange): Exchange => {
    const body = JSON.parse(x.request.body ?? 'null');
    edit(body);
    return { ...x, request: { ...x.request, body: JSON.stringify(body) } };
  };
const status =
  (code: number) =>
  (x: Exchange): Exchange => ({ ...x, response: { ...x.response!, status: code } });
const responseHeaders =
  (edit: (h: Record<string, string>) => void) =>
  (x: Exchange): Exchange => {
    const headers = { ...x.response!.headers };
    edit(headers);
    return { ...x, response: { ...x.response!, headers } };
  };
const requestHeaders =
  (edit: (h: Record<string, string>) => void) =>
  (x: Exchange): Exchange => {
    const headers = { ...x.request.headers };
    edit(headers);
    return { ...x, request: { ...x.request, headers } };
  };
const renameHeader = (from: string, to: string) =>
  requestHeaders((h) => {
    h[to] = h[from]!;
    delete h[from];
  });

type Want = Pick<Drift, 'kind' | 'path'> & Partial<Pick<Drift, 'ledgerKey' | 'observed' | 'side'>>;
type Row = [name: string, guide: Guide, base: string, change: (x: Exchange) => Exchange, want: Want[]];

const rows: Row[] = [
  // REST, contract
  [
    'expiration as a string',
    'current',
    'generate-token',
    answer((b) => {
      b.data.expiration = String(b.data.expiration);
    }),
    [{ kind: 'contract', path: 'data.expiration' }],
  ],
  [
    'status "OK" on a token pair',
    'current',
    'refresh-token',
    answer((b) => {
      b.status = 'OK';
    }),
    [{ kind: 'contract', path: 'status' }],
  ],
  [
    'refresh_token missing from the pair',
    'legacy',
    'generate-token',
    answer((b) => {
      delete b.data.refresh_token;
    }),
    [{ kind: 'contract', path: 'data.refresh_token' }],
  ],
  [
    '7.1 error without its message',
    'current',
    'auth error: wrong API key',
    answer((b) => {
      delete b.message;
    }),
    [{ kind: 'contract', path: 'message' }],
  ],
  [
    'token endpoint answering 403',
    'current',
    'auth error: wrong API key',
    status(403),
    [{ kind: 'contract', path: '(http)' }],
  ],
  [
    'token answer as HTML',
    'current',
    'generate-token',
    responseHeaders((h) => {
      h['content-type'] = 'text/html';
    }),
    [{ kind: 'contract', path: '(http)' }],
  ],
  // REST, assumption
  [
    'expiration in milliseconds',
    'current',
    'generate-token',
    answer((b) => {
      b.data.expiration *= 1000;
    }),
    [{ kind: 'assumption', path: 'data.expiration', ledgerKey: 'expirationUnit', observed: 'milliseconds' }],
  ],
  // `data` is the mock's account of what it revoked: a service that leaves it out still answers the ledger's body.
  [
    "revoke body without the mock's data",
    'current',
    'revoke-token',
    answer((b) => {
      delete b.data;
    }),
    [],
  ],
  [
    'revoke body without a message',
    'legacy',
    'revoke-token',
    answer((b) => {
      delete b.message;
    }),
    [{ kind: 'assumption', path: '(body)', ledgerKey: 'revokeTokenBody' }],
  ],
  [
    'revoke body with another message',
    'current',
    'revoke-token',
    answer((b) => {
      b.message = 'Revoked';
    }),
    [
      {
        kind: 'assumption',
        path: '(body)',
        ledgerKey: 'revokeTokenBody',
        observed: { status: 'SUCCESS', message: 'Revoked' },
      },
    ],
  ],
  // REST, consumer
  [
    'refresh without refresh_token',
    'current',
    'refresh-token',
    request((b) => {
      delete b.refresh_token;
    }),
    [{ kind: 'consumer', path: 'refresh_token', side: 'request' }],
  ],
  [
    'generate-token without x-api-key',
    'current',
    'generate-token',
    requestHeaders((h) => {
      delete h['x-api-key'];
    }),
    [{ kind: 'consumer', path: '(header) x-api-key' }],
  ],
  // GraphQL, contract
  [
    'fee entry without fees',
    'current',
    'fee list',
    answer((b) => {
      delete b.data.paymentGatewayFeesCalc[0].fees;
    }),
    [{ kind: 'contract', path: 'data.paymentGatewayFeesCalc[0].fees' }],
  ],
  [
    'fee entry with an unselected field',
    'current',
    'fee list',
    answer((b) => {
      b.data.paymentGatewayFeesCalc[1].currency = 'AUD';
    }),
    [{ kind: 'contract', path: 'data.paymentGatewayFeesCalc[1].currency' }],
  ],
  [
    'fees as a string',
    'current',
    'card fee (visa)',
    answer((b) => {
      b.data.paymentCreditCardFeeCalc.fees = '1.80';
    }),
    [{ kind: 'contract', path: 'data.paymentCreditCardFeeCalc.fees' }],
  ],
  [
    'paid_at as a number',
    'current',
    'payment by card',
    answer((b) => {
      b.data.processPaymentRequest.paid_at = 1700000000;
    }),
    [{ kind: 'contract', path: 'data.processPaymentRequest.paid_at' }],
  ],
  [
    'status null on a payment',
    'legacy',
    'payment by card',
    answer((b) => {
      b.data.processPaymentRequest.status = null;
    }),
    [{ kind: 'contract', path: 'data.processPaymentRequest.status' }],
  ],
  [
    'legacy fee entry without card_location',
    'legacy',
    'fee list',
    answer((b) => {
      delete b.data.paymentGatewayFeesCalc[2].card_location;
    }),
    [{ kind: 'contract', path: 'data.paymentGatewayFeesCalc[2].card_location' }],
  ],
  [
    'legacy fee entry with the current total name',
    'legacy',
    'fee list',
    answer((b) => {
      const e = b.data.paymentGatewayFeesCalc[0];
      e.total_settlement_amount = e.total;
      delete e.total;
    }),
    [
      { kind: 'contract', path: 'data.paymentGatewayFeesCalc[0].total_settlement_amount' },
      { kind: 'contract', path: 'data.paymentGatewayFeesCalc[0].total' },
    ],
  ],
  [
    '7.3 messages not a list',
    'current',
    'validation error: expiry year in the past',
    answer((b) => {
      b.errors[0].extensions.validation['input.credit_card.expiry_year'] = 'too old';
    }),
    [{ kind: 'contract', path: "errors[0].extensions.validation['input.credit_card.expiry_year']" }],
  ],
  [
    '7.2 error without extensions',
    'legacy',
    'auth error: invalid token',
    answer((b) => {
      delete b.errors[0].extensions;
    }),
    [{ kind: 'contract', path: 'errors[0].extensions' }],
  ],
  ['data answered with HTTP 201', 'current', 'fee list', status(201), [{ kind: 'contract', path: '(http)' }]],
  // GraphQL, assumption
  [
    'GraphQL errors with HTTP 400',
    'current',
    'validation error: contact missing',
    status(400),
    [{ kind: 'assumption', path: '(http)', ledgerKey: 'graphqlErrorHttpStatus', observed: 400 }],
  ],
  [
    'GraphQL auth error with HTTP 401',
    'legacy',
    'auth error: revoked token',
    status(401),
    [{ kind: 'assumption', path: '(http)', ledgerKey: 'graphqlErrorHttpStatus', observed: 401 }],
  ],
  [
    'another reason code',
    'current',
    'auth error: invalid token',
    answer((b) => {
      b.errors[0].extensions.reason = 'UNAUTHENTICATED';
    }),
    [
      {
        kind: 'assumption',
        path: 'errors[0].extensions.reason',
        ledgerKey: 'reasonCodes',
        observed: 'UNAUTHENTICATED',
      },
    ],
  ],
  [
    'card type named in capitals',
    'current',
    'fee list',
    answer((b) => {
      b.data.paymentGatewayFeesCalc[0].card_type = 'VISA';
    }),
    [
      {
        kind: 'assumption',
        path: 'data.paymentGatewayFeesCalc[0].card_type',
        ledgerKey: 'feeTable',
        observed: { card_type: 'VISA', amount: 100 },
      },
    ],
  ],
  [
    'card type of a card',
    'legacy',
    'card fee (visa)',
    answer((b) => {
      b.data.paymentCreditCardFeeCalc.card_type = 'credit';
    }),
    [
      {
        kind: 'assumption',
        path: 'data.paymentCreditCardFeeCalc.card_type',
        ledgerKey: 'cardTypes',
        observed: { card_type: 'credit', bin: '411111' },
      },
    ],
  ],
  [
    'another fee',
    'current',
    'fee list',
    answer((b) => {
      const e = b.data.paymentGatewayFeesCalc[0];
      e.fees = 2.5;
      e.total_settlement_amount = 102.5;
    }),
    [
      {
        kind: 'assumption',
        path: 'data.paymentGatewayFeesCalc[0].fees',
        ledgerKey: 'feeTable',
        observed: { amount: 100, card_type: 'visa', fees: 2.5 },
      },
    ],
  ],
  [
    'total less the fee',
    'legacy',
    'fee list',
    answer((b) => {
      const e = b.data.paymentGatewayFeesCalc[1];
      e.total = e.amount - e.fees;
    }),
    [
      {
        kind: 'assumption',
        path: 'data.paymentGatewayFeesCalc[1].total',
        ledgerKey: 'totalSettlement',
        observed: 'amount-minus-fees',
      },
    ],
  ],
  [
    'status name after the payment',
    'current',
    'payment by card_account_uid',
    answer((b) => {
      b.data.processPaymentRequest.status.name = 'PENDING';
    }),
    [
      {
        kind: 'assumption',
        path: 'data.processPaymentRequest.status.name',
        ledgerKey: 'statusNames',
        observed: { processing: 'PENDING' },
      },
    ],
  ],
  [
    'legacy status name after the payment',
    'legacy',
    'payment by card',
    answer((b) => {
      b.data.processPaymentRequest.status.name = 'initiated';
    }),
    [
      {
        kind: 'assumption',
        path: 'data.processPaymentRequest.status.name',
        ledgerKey: 'statusNames',
        observed: { processing: 'initiated' },
      },
    ],
  ],
  // GraphQL, consumer and upstream
  [
    'GraphQL without x-jwt-token',
    'current',
    'fee list',
    requestHeaders((h) => {
      delete h['x-jwt-token'];
    }),
    [{ kind: 'consumer', path: '(header) x-jwt-token' }],
  ],
  [
    'amount sent as text',
    'legacy',
    'fee list',
    request((b) => {
      b.variables.amount = 'ten';
    }),
    [{ kind: 'consumer', path: 'variables.amount' }],
  ],
  ['GraphQL failing with 503', 'current', 'fee list', status(503), [{ kind: 'upstream', path: '(http)' }]],
  // Webhooks
  [
    'signing key under another header',
    'current',
    'webhook',
    renameHeader('x-webhook-signing-key', 'x-signature'),
    [
      {
        kind: 'assumption',
        path: '(header) x-webhook-signing-key',
        ledgerKey: 'webhook',
        observed: { signingKeyHeader: 'x-signature' },
      },
    ],
  ],
  [
    'client id under another header',
    'legacy',
    'webhook',
    renameHeader('x-client-id', 'x-merchant-client'),
    [
      {
        kind: 'assumption',
        path: '(header) x-client-id',
        ledgerKey: 'webhook',
        observed: { clientIdHeader: 'x-merchant-client' },
      },
    ],
  ],
  [
    'no client id header at all',
    'current',
    'webhook',
    requestHeaders((h) => {
      delete h['x-client-id'];
    }),
    [{ kind: 'contract', path: '(header) x-client-id', side: 'request' }],
  ],
  [
    'no delivery id',
    'current',
    'webhook',
    requestHeaders((h) => {
      delete h['x-webhook-delivery-id'];
    }),
    [{ kind: 'assumption', path: '(header) x-webhook-delivery-id', ledgerKey: 'webhook' }],
  ],
  [
    'final status named otherwise',
    'legacy',
    'webhook',
    request((b) => {
      b.status = 'SUCCEEDED';
    }),
    [{ kind: 'assumption', path: 'status', ledgerKey: 'statusNames', observed: { success: 'SUCCEEDED' } }],
  ],
  [
    'webhook amount as a string',
    'current',
    'webhook',
    request((b) => {
      b.amount = '100.00';
    }),
    [{ kind: 'contract', path: 'amount' }],
  ],
  [
    'paid_at not ISO 8601',
    'current',
    'webhook',
    request((b) => {
      b.paid_at = '25/11/2026 10:00';
    }),
    [{ kind: 'contract', path: 'paid_at' }],
  ],
];

describe('planted deviations', () => {
  it('plants at least 20, of every kind, in REST, GraphQL and webhooks, in both guides', () => {
    expect(rows.length).toBeGreaterThanOrEqual(20);
    const kinds = new Set(rows.flatMap(([, , , , want]) => want.map((w) => w.kind)));
    expect(kinds).toEqual(new Set(['contract', 'assumption', 'consumer', 'upstream']));
    expect(new Set(rows.map(([, guide]) => guide))).toEqual(new Set(['current', 'legacy']));
  });

  it.each(rows)('%s (%s guide)', (_name, guide, base, change, want) => {
    const clean = recorded(guide, base);
    expect(checkExchange(clean).drifts).toEqual([]);
    const result = checkExchange(change(clean));
    expect(
      result.drifts.map(({ kind, path, side, ledgerKey, observed }) => ({ kind, path, side, ledgerKey, observed })),
    ).toEqual(want.map((w) => ({ side: expect.any(String), ledgerKey: undefined, observed: undefined, ...w })));
    for (const drift of result.drifts) expect(drift.message).toMatch(/^\[payment-contract-kit\] .*[^.]\.$/s);
    if (clean.kind !== 'webhook' && clean.request.url.endsWith('/graphql')) expect(result.guide).toBe(guide);
  });
});
