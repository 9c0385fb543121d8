import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DriftKind } from '../../src/contract/check/exchange.ts';
import { type MockServer, startMockServer } from '../../src/mock/index.ts';
import { startProxy } from '../../src/proxy/index.ts';
import { servicePaths } from '../../src/spec-names.ts';
import { type Deviation, editJson, type SeenRequest, startDeviatingService } from './stand-in-service.ts';
import { rawRequest, runFlows, startStandIn } from './support.ts';

// Each row plants one deviation in an otherwise clean service (a mock behind a stand-in that alters one kind of
// answer), runs every consumer flow of the guide through the proxy, and wants the drift named by kind, path and
// ledger key, with no drift of the service on any exchange the stand-in left alone.
type Guide = 'current' | 'legacy';
interface Row {
  readonly guide: Guide;
  readonly deviation: Deviation;
  readonly want: { kind: DriftKind; path: string; ledgerKey?: string };
}

const at = (path: string) => (req: SeenRequest) => req.path === path;
const generate = at(servicePaths.generateToken);
const refresh = at(servicePaths.refreshToken);
const revokeWithToken = (req: SeenRequest) => req.path === servicePaths.revokeToken && !!req.headers['x-jwt-token'];
const graphqlWith = (text: string) => (req: SeenRequest) =>
  req.path === servicePaths.graphql && req.body.includes(text);
const feeList = graphqlWith('paymentGatewayFeesCalc(');
const cardFee = graphqlWith('paymentCreditCardFeeCalc(');
const payment = (req: SeenRequest) =>
  graphqlWith('processPaymentRequest(')(req) && req.body.includes('"4111111111111111"') && !req.body.includes('"20"');
const noToken = (req: SeenRequest) => req.path === servicePaths.graphql && !req.headers['x-jwt-token'];
const missingContact = (req: SeenRequest) =>
  graphqlWith('processPaymentRequest(')(req) && !req.body.includes('"contact"');

const rows: Record<string, Row> = {
  'generate-token expiration in milliseconds': {
    guide: 'current',
    deviation: {
      when: generate,
      alter: (a) =>
        editJson(a, (v) => {
          v.data.expiration *= 1000;
        }),
    },
    want: { kind: 'assumption', path: 'data.expiration', ledgerKey: 'expirationUnit' },
  },
  'generate-token token as a number': {
    guide: 'current',
    deviation: {
      when: generate,
      alter: (a) =>
        editJson(a, (v) => {
          v.data.token = 12345;
        }),
    },
    want: { kind: 'contract', path: 'data.token' },
  },
  'refresh-token without refresh_token': {
    guide: 'legacy',
    deviation: { when: refresh, alter: (a) => editJson(a, (v) => void delete v.data.refresh_token) },
    want: { kind: 'contract', path: 'data.refresh_token' },
  },
  'refresh-token status "OK"': {
    guide: 'current',
    deviation: {
      when: refresh,
      alter: (a) =>
        editJson(a, (v) => {
          v.status = 'OK';
        }),
    },
    want: { kind: 'contract', path: 'status' },
  },
  'a 401 of generate-token without the 7.1 message': {
    guide: 'current',
    deviation: {
      when: (req) => generate(req) && req.headers['x-client-id'] === 'nobody',
      alter: (a) => ({ ...a, body: JSON.stringify({ error: 'unauthorized' }) }),
    },
    want: { kind: 'contract', path: 'status' },
  },
  'revoke-token answers another body': {
    guide: 'current',
    deviation: {
      when: revokeWithToken,
      alter: (a) => ({ ...a, body: JSON.stringify({ status: 'SUCCESS', message: 'Token has been revoked' }) }),
    },
    want: { kind: 'assumption', path: '(body)', ledgerKey: 'revokeTokenBody' },
  },
  'GraphQL errors answered with HTTP 401': {
    guide: 'current',
    deviation: { when: noToken, alter: (a) => ({ ...a, status: 401 }) },
    want: { kind: 'assumption', path: '(http)', ledgerKey: 'graphqlErrorHttpStatus' },
  },
  'an unknown reason code for a missing token': {
    guide: 'legacy',
    deviation: {
      when: noToken,
      alter: (a) =>
        editJson(a, (v) => {
          v.errors[0].extensions.reason = 'NO_TOKEN';
        }),
    },
    want: { kind: 'assumption', path: 'errors[0].extensions.reason', ledgerKey: 'reasonCodes' },
  },
  'a 7.2 error without extensions.reason': {
    guide: 'current',
    deviation: { when: noToken, alter: (a) => editJson(a, (v) => void delete v.errors[0].extensions.reason) },
    want: { kind: 'contract', path: 'errors[0].extensions.reason' },
  },
  'fees as a string in the fee list': {
    guide: 'current',
    deviation: {
      when: feeList,
      alter: (a) =>
        editJson(a, (v) => {
          v.data.paymentGatewayFeesCalc[0].fees = '1.80';
        }),
    },
    want: { kind: 'contract', path: 'data.paymentGatewayFeesCalc[0].fees' },
  },
  'a field the query did not select': {
    guide: 'current',
    deviation: {
      when: feeList,
      alter: (a) =>
        editJson(a, (v) => {
          v.data.paymentGatewayFeesCalc[1].currency = 'AUD';
        }),
    },
    want: { kind: 'contract', path: 'data.paymentGatewayFeesCalc[1].currency' },
  },
  'a selected field left out (legacy total)': {
    guide: 'legacy',
    deviation: {
      when: feeList,
      alter: (a) => editJson(a, (v) => void delete v.data.paymentGatewayFeesCalc[2].total),
    },
    want: { kind: 'contract', path: 'data.paymentGatewayFeesCalc[2].total' },
  },
  'card type names in upper case': {
    guide: 'current',
    deviation: {
      when: feeList,
      alter: (a) =>
        editJson(a, (v) => {
          for (const e of v.data.paymentGatewayFeesCalc) e.card_type = e.card_type.toUpperCase();
        }),
    },
    want: { kind: 'assumption', path: 'data.paymentGatewayFeesCalc[0].card_type', ledgerKey: 'feeTable' },
  },
  'a card fee naming another card type': {
    guide: 'current',
    deviation: {
      when: cardFee,
      alter: (a) =>
        editJson(a, (v) => {
          v.data.paymentCreditCardFeeCalc.card_type = 'VISA_CREDIT';
        }),
    },
    want: { kind: 'assumption', path: 'data.paymentCreditCardFeeCalc.card_type', ledgerKey: 'cardTypes' },
  },
  'a fee off the ledger': {
    guide: 'legacy',
    deviation: {
      when: feeList,
      alter: (a) =>
        editJson(a, (v) => {
          const e = v.data.paymentGatewayFeesCalc[0];
          e.fees = Math.round((e.amount * 0.02 + 0.25) * 100) / 100;
          e.total = Math.round((e.amount + e.fees) * 100) / 100;
        }),
    },
    want: { kind: 'assumption', path: 'data.paymentGatewayFeesCalc[0].fees', ledgerKey: 'feeTable' },
  },
  'total_settlement_amount as amount less fees': {
    guide: 'current',
    deviation: {
      when: feeList,
      alter: (a) =>
        editJson(a, (v) => {
          for (const e of v.data.paymentGatewayFeesCalc)
            e.total_settlement_amount = Math.round((e.amount - e.fees) * 100) / 100;
        }),
    },
    want: {
      kind: 'assumption',
      path: 'data.paymentGatewayFeesCalc[0].total_settlement_amount',
      ledgerKey: 'totalSettlement',
    },
  },
  'the first status named "PENDING"': {
    guide: 'current',
    deviation: {
      when: payment,
      alter: (a) =>
        editJson(a, (v) => {
          if (v.data?.processPaymentRequest) v.data.processPaymentRequest.status.name = 'PENDING';
        }),
    },
    want: { kind: 'assumption', path: 'data.processPaymentRequest.status.name', ledgerKey: 'statusNames' },
  },
  'a null uuid (non-null field)': {
    guide: 'legacy',
    deviation: {
      when: payment,
      alter: (a) =>
        editJson(a, (v) => {
          if (v.data?.processPaymentRequest) v.data.processPaymentRequest.uuid = null;
        }),
    },
    want: { kind: 'contract', path: 'data.processPaymentRequest.uuid' },
  },
  'a 7.3 error whose validation is a list': {
    guide: 'current',
    deviation: {
      when: missingContact,
      alter: (a) =>
        editJson(a, (v) => {
          v.errors[0].extensions.validation = ['input.contact is required'];
        }),
    },
    want: { kind: 'contract', path: 'errors[0].extensions.validation' },
  },
  'an answer typed text/plain': {
    guide: 'legacy',
    deviation: { when: generate, alter: (a) => ({ ...a, headers: { ...a.headers, 'content-type': 'text/plain' } }) },
    want: { kind: 'contract', path: '(http)' },
  },
};

const mocks: Partial<Record<Guide, MockServer>> = {};
beforeAll(async () => {
  for (const guide of ['current', 'legacy'] as const)
    mocks[guide] = await startMockServer({ port: 0, guide, log: false });
});
afterAll(async () => {
  for (const m of Object.values(mocks)) await m.close();
});

describe('a service that deviates in one way', () => {
  it.each(Object.entries(rows))('%s', async (_name, { guide, deviation, want }) => {
    const service = await startDeviatingService(mocks[guide]!.url, deviation);
    const proxy = await startProxy({ upstream: service.url, guide, log: false });
    try {
      await runFlows((req) => rawRequest(proxy.url, req), guide);
      const { drifts } = proxy.report();
      const ofService = drifts.filter((d) => d.kind !== 'consumer');
      expect(service.altered.length).toBeGreaterThan(0);
      expect(ofService.map((d) => ({ kind: d.kind, path: d.path, ledgerKey: d.ledgerKey }))).toContainEqual(
        want.ledgerKey ? want : { ...want, ledgerKey: undefined },
      );
      // Nothing on the exchanges the stand-in left alone.
      expect(ofService.filter((d) => !service.altered.includes(d.exchange.seq))).toEqual([]);
    } finally {
      await proxy.close();
      await service.close();
    }
  });
});

// Webhooks: the service posts to the proxy's webhook path; a clean webhook goes first, then the deviating one.
const cleanPayload = {
  amount: 100,
  payment_gateway_fee: 1.8,
  paid_at: '2026-11-25T12:00:00.000Z',
  status: 'success',
  uuid: '0b7f3f3e-6c1a-4a52-9d55-2f0b3f2c9e11',
  metadata: { order_id: 'o-1' },
};
const cleanHeaders = {
  'content-type': 'application/json',
  'x-webhook-signing-key': 'whsk-planted-signing-key',
  'x-client-id': 'test-client',
  'x-webhook-delivery-id': 'whd_1',
};
type WebhookRow = {
  readonly payload: Record<string, unknown>;
  readonly headers: Record<string, string>;
  readonly want: Row['want'];
};
const { 'x-webhook-signing-key': signingKey, ...withoutSigningKey } = cleanHeaders;
const webhookRows: Record<string, WebhookRow> = {
  'a final status named "COMPLETED"': {
    payload: { ...cleanPayload, status: 'COMPLETED' },
    headers: cleanHeaders,
    want: { kind: 'assumption', path: 'status', ledgerKey: 'statusNames' },
  },
  'the signing key in another header': {
    payload: cleanPayload,
    headers: { ...withoutSigningKey, 'x-signature': signingKey },
    want: { kind: 'assumption', path: '(header) x-webhook-signing-key', ledgerKey: 'webhook' },
  },
  'no signing key header at all': {
    payload: cleanPayload,
    headers: withoutSigningKey,
    want: { kind: 'contract', path: '(header) x-webhook-signing-key' },
  },
  'the amount as a string': {
    payload: { ...cleanPayload, amount: '100.00' },
    headers: cleanHeaders,
    want: { kind: 'contract', path: 'amount' },
  },
  'paid_at not in ISO 8601 form': {
    payload: { ...cleanPayload, paid_at: '25/11/2026 12:00' },
    headers: cleanHeaders,
    want: { kind: 'contract', path: 'paid_at' },
  },
};

describe('a service whose webhooks deviate in one way', () => {
  it.each(Object.entries(webhookRows))('%s', async (_name, { payload, headers, want }) => {
    const receiver = await startStandIn((_req, _body, res) => res.writeHead(204).end());
    const proxy = await startProxy({
      upstream: mocks.current!.url,
      log: false,
      forwardWebhooks: [receiver.url],
    });
    try {
      const clean = await rawRequest(proxy.url, {
        path: '/webhooks',
        headers: cleanHeaders,
        body: JSON.stringify(cleanPayload),
      });
      const deviating = await rawRequest(proxy.url, { path: '/webhooks', headers, body: JSON.stringify(payload) });
      expect([clean.status, deviating.status]).toEqual([204, 204]);
      expect(receiver.received.map((r) => r.body)).toEqual([JSON.stringify(cleanPayload), JSON.stringify(payload)]);
      const { drifts } = proxy.report();
      expect(drifts.map((d) => ({ kind: d.kind, path: d.path, ledgerKey: d.ledgerKey }))).toContainEqual(
        want.ledgerKey ? want : { ...want, ledgerKey: undefined },
      );
      expect(drifts.filter((d) => d.exchange.seq !== 2)).toEqual([]);
    } finally {
      await proxy.close();
      await receiver.close();
    }
  });
});
