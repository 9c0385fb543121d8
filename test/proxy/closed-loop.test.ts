import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMockArgs } from '../../src/cli/commands/mock.ts';
import { type MockServer, startMockServer } from '../../src/mock/index.ts';
import { type DriftReport, startProxy } from '../../src/proxy/index.ts';
import { serviceHeaders, servicePaths } from '../../src/spec-names.ts';
import { createChanges } from '../support/changes.ts';
import { type Deviation, editJson, type SeenRequest, startDeviatingService } from './stand-in-service.ts';
import {
  credentials,
  gql,
  json,
  jsonHeaders,
  payInput,
  queries,
  rawRequest,
  runFlows,
  type StandIn,
  startStandIn,
} from './support.ts';

// The closed loop: a service that differs from the ledger in every key suggestedConfig knows, seen through the
// proxy; the mock started with the report's suggestedConfig (through `mock --config`, as a team would) then answers
// each of those cases as the service did.
const cents = (x: number) => Math.round(x * 100) / 100;
const serviceRates: Record<string, { percent: number; fixed: number }> = {
  VISA: { percent: 2, fixed: 0.25 },
  MASTERCARD: { percent: 2, fixed: 0.25 },
  AMEX: { percent: 3.1, fixed: 0.35 },
  DINERS: { percent: 3.1, fixed: 0.35 },
};
/** The service's fee entry: its own rates, upper-case names, and a total of amount less fees. */
function serviceFee(e: { amount: number; card_type: string; fees: number; total_settlement_amount?: number }) {
  const name = e.card_type.toUpperCase();
  const rate = serviceRates[name]!;
  e.card_type = name;
  e.fees = cents((e.amount * rate.percent) / 100 + rate.fixed);
  e.total_settlement_amount = cents(e.amount - e.fees);
}

const graphql = (req: SeenRequest, text: string) => req.path === servicePaths.graphql && req.body.includes(text);
const deviations: Deviation[] = [
  {
    when: (req) => req.path === servicePaths.generateToken || req.path === servicePaths.refreshToken,
    alter: (a) =>
      editJson(a, (v) => {
        v.data.expiration *= 1000;
      }),
  },
  {
    when: (req) => req.path === servicePaths.revokeToken,
    alter: (a) => ({ ...a, body: JSON.stringify({ status: 'SUCCESS', message: 'Token has been revoked' }) }),
  },
  {
    when: (req) => req.path === servicePaths.graphql && !req.headers[serviceHeaders.jwt],
    alter: (a) =>
      editJson({ ...a, status: 401 }, (v) => {
        v.errors[0].extensions.reason = 'AUTH_TOKEN_MISSING';
      }),
  },
  {
    when: (req) => graphql(req, 'paymentGatewayFeesCalc('),
    alter: (a) =>
      editJson(a, (v) => {
        for (const e of v.data.paymentGatewayFeesCalc) serviceFee(e);
      }),
  },
  {
    when: (req) => graphql(req, 'paymentCreditCardFeeCalc('),
    alter: (a) =>
      editJson(a, (v) => {
        serviceFee(v.data.paymentCreditCardFeeCalc);
      }),
  },
  {
    when: (req) => graphql(req, 'processPaymentRequest('),
    alter: (a) =>
      editJson(a, (v) => {
        v.data.processPaymentRequest.status.name = 'PENDING';
      }),
  },
];
const combined: Deviation = {
  when: (req) => deviations.some((d) => d.when(req)),
  alter: (answer, req) =>
    deviations
      .filter((d) => d.when(req))
      .reduce((a, d) => {
        try {
          return d.alter(a, req);
        } catch {
          return a;
        }
      }, answer),
};

const webhookPayload = {
  amount: 100,
  payment_gateway_fee: 2.25,
  paid_at: '2026-11-25T12:00:00.000Z',
  status: 'COMPLETED',
  uuid: '0b7f3f3e-6c1a-4a52-9d55-2f0b3f2c9e11',
  metadata: { order_id: 'o-1' },
};

let report: DriftReport;
let serviceFees: Record<number, unknown>;
let mock: MockServer;
let receiver: StandIn;
/** What the webhook wait below waits on: the receiver tells of each webhook it took. */
const webhooks = createChanges();
let dir: string;
const closers: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  const base = await startMockServer({ port: 0, log: false });
  closers.push(() => base.close());
  const service = await startDeviatingService(base.url, combined);
  closers.push(() => service.close());
  const proxy = await startProxy({ upstream: service.url, log: false });
  closers.push(() => proxy.close());
  await runFlows((req) => rawRequest(proxy.url, req), 'current');
  // The service's webhook: a final status and a signing key header of its own naming.
  await rawRequest(proxy.url, {
    path: '/webhooks',
    headers: { 'content-type': 'application/json', 'x-signature': 'sk-0123456789', 'x-client-id': 'test-client' },
    body: JSON.stringify(webhookPayload),
  });
  serviceFees = {};
  for (const amount of [100, 250.5, 80]) {
    const token = json(await rawRequest(service.url, { path: servicePaths.generateToken, headers: credentials }));
    const answer = await rawRequest(service.url, {
      path: servicePaths.graphql,
      headers: { ...jsonHeaders, [serviceHeaders.jwt]: token.data.token },
      body: gql(queries.fees, { amount }),
    });
    serviceFees[amount] = json(answer).data.paymentGatewayFeesCalc;
  }
  report = proxy.report();

  receiver = await startStandIn((_req, _body, res) => {
    res.writeHead(204).end();
    webhooks.notify();
  });
  closers.push(() => receiver.close());
  dir = mkdtempSync(join(tmpdir(), 'pck-closed-loop-'));
  const file = join(dir, 'suggested.json');
  writeFileSync(file, JSON.stringify(report.suggestedConfig));
  const parsed = parseMockArgs(['--config', file, '--port', '0', '--webhook-url', receiver.url, '--quiet'], {});
  if (parsed.help) throw new Error('unexpected help');
  mock = await startMockServer(parsed.options);
  closers.push(() => mock.close());
});
afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  rmSync(dir, { recursive: true, force: true });
});

async function token(): Promise<string> {
  return json(await rawRequest(mock.url, { path: servicePaths.generateToken, headers: credentials })).data.token;
}
async function graphqlCall(body: string, jwt?: string) {
  const headers = { ...jsonHeaders, ...(jwt ? { [serviceHeaders.jwt]: jwt } : {}) };
  return rawRequest(mock.url, { path: servicePaths.graphql, headers, body });
}

describe('suggestedConfig', () => {
  it('holds each key the service was seen to differ in, and nothing else', () => {
    const a = report.suggestedConfig.assumptions;
    expect(Object.keys(a).sort()).toEqual(
      [
        'cardTypes',
        'expirationUnit',
        'feeTable',
        'graphqlErrorHttpStatus',
        'reasonCodes',
        'revokeTokenBody',
        'statusNames',
        'totalSettlement',
        'webhook',
      ].sort(),
    );
    expect(a.feeTable).toEqual([
      { card_type: 'VISA', percent: 2, fixed: 0.25, card_location: 'domestic' },
      { card_type: 'MASTERCARD', percent: 2, fixed: 0.25, card_location: 'domestic' },
      { card_type: 'AMEX', percent: 3.1, fixed: 0.35, card_location: 'international' },
      { card_type: 'DINERS', percent: 3.1, fixed: 0.35, card_location: 'international' },
    ]);
  });
});

describe('the mock started with suggestedConfig answers as the service did', () => {
  it('expirationUnit: expiration in milliseconds', async () => {
    const answer = json(await rawRequest(mock.url, { path: servicePaths.generateToken, headers: credentials }));
    expect(answer.data.expiration).toBeGreaterThan(1e12);
  });

  it('graphqlErrorHttpStatus and reasonCodes: a call without a token', async () => {
    const answer = await graphqlCall(gql(queries.fees, { amount: 100 }));
    expect(answer.status).toBe(401);
    expect(json(answer).errors[0].extensions.reason).toBe('AUTH_TOKEN_MISSING');
  });

  it('feeTable, cardTypes and totalSettlement: the fee list, at seen and unseen amounts', async () => {
    const jwt = await token();
    for (const amount of [100, 250.5, 80]) {
      const answer = await graphqlCall(gql(queries.fees, { amount }), jwt);
      expect(json(answer).data.paymentGatewayFeesCalc).toEqual(serviceFees[amount]);
    }
  });

  it('cardTypes: a card fee names the card as the service does', async () => {
    const answer = await graphqlCall(
      gql(queries.cardFee, {
        amount: 100,
        credit_card: payInput('current').credit_card,
        contact: payInput('current').contact,
      }),
      await token(),
    );
    expect(json(answer).data.paymentCreditCardFeeCalc).toMatchObject({ card_type: 'VISA', fees: 2.25 });
  });

  it('statusNames, webhook and revokeTokenBody: payment, webhook and revoke answers', async () => {
    const jwt = await token();
    const pay = await graphqlCall(gql(queries.pay, { input: { ...payInput('current'), fees: 2.25 } }), jwt);
    expect(json(pay).data.processPaymentRequest.status.name).toBe('PENDING');
    mock.control.advanceClock(1000);
    await webhooks.until(() => receiver.received.length >= 1);
    expect(receiver.received).toHaveLength(1);
    const webhook = receiver.received[0]!;
    expect(JSON.parse(webhook.body).status).toBe('COMPLETED');
    expect(webhook.headers['x-signature']).toBeDefined();
    const revoke = await rawRequest(mock.url, { path: servicePaths.revokeToken, headers: credentials });
    // The service's status and message; `data` is the mock's own account of what it revoked (the ledger row).
    expect(json(revoke)).toEqual({
      status: 'SUCCESS',
      message: 'Token has been revoked',
      data: { revoked: 'client', refresh_tokens: expect.any(Number) },
    });
  });
});
