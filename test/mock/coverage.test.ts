/**
 * The mock's coverage report, collected in process from its events: each request a suite sends moves exactly its
 * behaviours to covered, and `GET /__pck/coverage` answers what `control.coverage()` does.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { operationText } from '../../src/contract/operations.ts';
import { buildMockApp } from '../../src/mock/core-app.ts';
import { createMockApp } from '../../src/mock/index.ts';
import { nodePlatform } from '../../src/mock/node-platform.ts';
import { serviceHeaders, servicePaths } from '../../src/spec-names.ts';
import { testCardNumbers } from '../../src/test-values.ts';
import { credentials, legacyPayInput, payInput, requestsVia } from './helpers.ts';
import { untilDeliveries } from './payments-over-http.ts';

const base = 'http://mock.test';
const apps: ReturnType<typeof createMockApp>[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

function mockWith(options: Parameters<typeof createMockApp>[0] = {}) {
  // Payments settle only when a test moves the sandbox clock, never on a timer of their own.
  const app = createMockApp({ log: false, settleDelayMs: 3_600_000, ...options });
  apps.push(app);
  const http = requestsVia((r) => app.fetch(r));
  const covered = () =>
    app.control
      .coverage()
      .behaviours.filter((b) => b.covered)
      .map((b) => b.id);
  const token = async () => (await http.post(`${base}${servicePaths.generateToken}`, credentials)).body.data;
  const gql = (jwt: string | undefined, query: string, variables?: unknown) =>
    http.post(`${base}${servicePaths.graphql}`, jwt === undefined ? {} : { [serviceHeaders.jwt]: jwt }, {
      query,
      variables,
    });
  return { app, http, covered, token, gql };
}

describe('the coverage report of an in-process mock', () => {
  it('starts with nothing covered and lists the whole catalogue', () => {
    const { app, covered } = mockWith();
    const report = app.control.coverage();
    expect(covered()).toEqual([]);
    expect(report.total).toBe(report.behaviours.length);
    expect(report.covered).toBe(0);
  });

  it('counts a token pair, a fee list and a payment by card details, and nothing else', async () => {
    const { covered, token, gql } = mockWith();
    const pair = await token();
    await gql(pair.token, operationText('current', 'PaymentGatewayFeesCalc'), { amount: 100 });
    await gql(pair.token, operationText('current', 'ProcessPaymentRequest'), { input: payInput() });
    expect(covered().sort()).toEqual(
      [
        'token.generate',
        'graphql.current.paymentGatewayFeesCalc',
        'graphql.current.processPaymentRequest',
        'card.accepted',
        'payment.by-card-details',
      ].sort(),
    );
  });

  it('tells a refused card, a missing contact, an expired and a missing token apart', async () => {
    const { app, covered, token, gql } = mockWith();
    const pair = await token();
    const pay = operationText('current', 'ProcessPaymentRequest');
    await gql(pair.token, pay, { input: payInput(testCardNumbers.visaRejectedAsInvalid) });
    const { contact: _left, ...noContact } = payInput();
    await gql(pair.token, pay, { input: noContact });
    await gql(undefined, pay, { input: payInput() });
    app.control.advanceClock(11 * 60 * 1000);
    await gql(pair.token, pay, { input: payInput() });
    expect(covered().sort()).toEqual(
      ['token.generate', 'card.refused', 'validation.contact', 'token.missing', 'token.expired'].sort(),
    );
  });

  it('tells bad credentials from a refused refresh token, and counts each time', async () => {
    const { app, http, covered, token } = mockWith();
    const pair = await token();
    const refresh = `${base}${servicePaths.refreshToken}`;
    await http.post(refresh, credentials, { refresh_token: pair.refresh_token });
    await http.post(refresh, credentials, { refresh_token: pair.refresh_token });
    await http.post(`${base}${servicePaths.generateToken}`, { ...credentials, [serviceHeaders.apiKey]: 'wrong' });
    await http.post(`${base}${servicePaths.generateToken}`, credentials);
    expect(covered().sort()).toEqual(
      ['token.generate', 'token.refresh', 'token.refresh-refused', 'token.bad-credentials'].sort(),
    );
    expect(app.control.coverage().behaviours.find((b) => b.id === 'token.generate')?.count).toBe(2);
  });

  it("counts the older guide's names from a legacy fee list and payment", async () => {
    const { covered, token, gql } = mockWith({ guide: 'legacy' });
    const pair = await token();
    await gql(pair.token, operationText('legacy', 'PaymentGatewayFeesCalc'), { amount: 100 });
    await gql(pair.token, operationText('legacy', 'ProcessPaymentRequest'), { input: legacyPayInput() });
    expect(covered()).toEqual(
      expect.arrayContaining([
        'graphql.legacy.paymentGatewayFeesCalc',
        'legacy.total',
        'legacy.card-location',
        'legacy.payment-input',
        'legacy.contact-reference',
      ]),
    );
    expect(covered()).not.toContain('graphql.current.paymentGatewayFeesCalc');
  });

  it('keeps counting across a sandbox reset, and leaves control calls out', async () => {
    const { app, http, covered, token } = mockWith();
    await token();
    app.control.reset();
    await http.get(`${base}/__pck/health`);
    await http.post(`${base}/__pck/tokens`, {}, { clientId: 'test-client' });
    expect(covered()).toEqual(['token.generate']);
  });

  it('answers the same report at GET /__pck/coverage, as text and JUnit too', async () => {
    const { app, http, token } = mockWith();
    await token();
    const answer = await http.get(`${base}/__pck/coverage`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(app.control.coverage());
    expect(Object.keys(answer.body).sort()).toEqual(['behaviours', 'covered', 'total']);
    expect(Object.keys(answer.body.behaviours[0]).sort()).toEqual(
      ['count', 'covered', 'guides', 'id', 'spec', 'title'].sort(),
    );
    const text = await (await app.fetch(new Request(`${base}/__pck/coverage?format=text`))).text();
    expect(text).toMatch(/^Service behaviours exercised: 1 of \d+/);
    expect(text).toContain('to cover it: pay with test card 4000000000000069.');
    const junit = await (await app.fetch(new Request(`${base}/__pck/coverage?format=junit`))).text();
    expect(junit).toContain('<testcase classname="coverage.token" name="token.generate: ');
    const bad = await http.get(`${base}/__pck/coverage?format=pdf`);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ status: 'ERROR', message: expect.stringContaining('json, text or junit') });
  });

  it('asks for the control token like the other control routes', async () => {
    const { http } = mockWith({ controlToken: 'secret-control-token' });
    expect((await http.get(`${base}/__pck/coverage`)).status).toBe(401);
  });
});

describe('the coverage of payments and webhooks, from the state events', () => {
  /** An in-process mock whose webhook receiver answers `answers` in turn (then 204). */
  function withReceiver(answers: number[]) {
    const receiver = () => new Response(null, { status: answers.shift() ?? 204 });
    const built = buildMockApp(
      { log: false, settleDelayMs: 1000 },
      { platform: nodePlatform, webhookReceivers: [receiver] },
    );
    apps.push(built.app as ReturnType<typeof createMockApp>);
    const http = requestsVia((r) => built.app.fetch(r));
    return { app: built.app, http };
  }

  it('counts a payment by card_account_uid, both settlements, and each final webhook at the first attempt or retried', async () => {
    const { app, http } = withReceiver([204, 503, 204]);
    const { token } = (await http.post(`${base}${servicePaths.generateToken}`, credentials)).body.data;
    const jwt = { [serviceHeaders.jwt]: token };
    const fee = await http.post(`${base}${servicePaths.graphql}`, jwt, {
      query: operationText('current', 'PaymentCreditCardFeeCalc'),
      variables: { amount: 100, credit_card: payInput().credit_card, contact: payInput().contact },
    });
    const uid = fee.body.data.paymentCreditCardFeeCalc.card_account_uid;
    const pay = operationText('current', 'ProcessPaymentRequest');
    await http.post(`${base}${servicePaths.graphql}`, jwt, {
      query: pay,
      variables: { input: { ...payInput(), credit_card: { card_account_uid: uid } } },
    });
    app.control.advanceClock(1000);
    await app.control.waitForDelivery((d) => d.state === 'delivered');
    await http.post(`${base}${servicePaths.graphql}`, jwt, {
      query: pay,
      variables: { input: payInput(testCardNumbers.visaSettlesAsFailure) },
    });
    app.control.advanceClock(1000);
    await untilDeliveries(app.control, async () => (await app.control.deliveries())[1]?.attempts.length === 1);
    app.control.advanceClock(60_000);
    await app.control.waitForDelivery((d) => d.state === 'delivered' && d.attempts.length === 2);
    const counts = Object.fromEntries(
      app.control
        .coverage()
        .behaviours.filter((b) => b.covered)
        .map((b) => [b.id, b.count]),
    );
    expect(counts).toMatchObject({
      'payment.by-card-account': 1,
      'payment.by-card-details': 1,
      'card.accepted': 2,
      'card.settled-success': 1,
      'card.settled-failure': 1,
      'webhook.first-attempt': 1,
      'webhook.retried': 1,
      'webhook.success': 1,
      'webhook.failure': 1,
    });
    expect(counts['webhook.given-up']).toBeUndefined();
  });

  it('counts a webhook given up after its last attempt', async () => {
    const { app, http } = withReceiver(Array(20).fill(500));
    const { token } = (await http.post(`${base}${servicePaths.generateToken}`, credentials)).body.data;
    await http.post(
      `${base}${servicePaths.graphql}`,
      { [serviceHeaders.jwt]: token },
      {
        query: operationText('current', 'ProcessPaymentRequest'),
        variables: { input: payInput() },
      },
    );
    app.control.advanceClock(1000);
    for (let i = 0; i < 8 && (await app.control.deliveries())[0]?.state !== 'failed'; i++) {
      await untilDeliveries(app.control, async () => (await app.control.deliveries())[0]?.attempts.length === i + 1);
      app.control.advanceClock(7 * 60 * 60 * 1000);
    }
    await app.control.waitForDelivery((d) => d.state === 'failed');
    const given = app.control.coverage().behaviours.find((b) => b.id === 'webhook.given-up');
    expect(given).toMatchObject({ covered: true, count: 1 });
    expect(app.control.coverage().behaviours.find((b) => b.id === 'webhook.success')?.covered).toBe(false);
  });
});
