/**
 * The mock's coverage report, collected in process from its events: each request a suite sends moves exactly its
 * behaviours to covered, and `GET /__pck/coverage` answers what `control.coverage()` does.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { operationText } from '../../src/contract/operations.ts';
import { createMockApp } from '../../src/mock/index.ts';
import { serviceHeaders, servicePaths } from '../../src/spec-names.ts';
import { testCardNumbers } from '../../src/test-values.ts';
import { credentials, legacyPayInput, payInput, requestsVia } from './helpers.ts';

const base = 'http://mock.test';
const apps: ReturnType<typeof createMockApp>[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

function mockWith(options: Parameters<typeof createMockApp>[0] = {}) {
  const app = createMockApp({ log: false, settleDelayMs: 0, ...options });
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

  it('counts a token pair, a fee list and a payment answered, and nothing else', async () => {
    const { covered, token, gql } = mockWith();
    const pair = await token();
    await gql(pair.token, operationText('current', 'PaymentGatewayFeesCalc'), { amount: 100 });
    await gql(pair.token, operationText('current', 'ProcessPaymentRequest'), { input: payInput() });
    expect(covered().sort()).toEqual(
      ['token.generate', 'graphql.current.paymentGatewayFeesCalc', 'graphql.current.processPaymentRequest'].sort(),
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
