// The dashboard's coverage section: its summary and filters, and the signal it reloads on, held in process against
// the mock's own answers: every change of a count moves the signal, so the page never shows a stale report while it
// reads nothing but the health counters on an idle mock.
import { afterEach, describe, expect, it } from 'vitest';
import { operationText } from '../../../src/contract/operations.ts';
import { buildMockApp } from '../../../src/mock/core-app.ts';
import { nodePlatform } from '../../../src/mock/node-platform.ts';
import { serviceHeaders, servicePaths } from '../../../src/spec-names.ts';
import {
  type CoverageView,
  coverageRows,
  coverageSignal,
  coverageSummary,
} from '../../../src/ui/internal/coverage-view.ts';
import { credentials, payInput, requestsVia } from '../../mock/helpers.ts';

const report: CoverageView = {
  behaviours: [
    { id: 'token.generate', title: 'generate-token answered a token pair', spec: '4.1', covered: true, count: 2 },
    { id: 'token.expired', title: 'a token that expired', spec: '5', covered: false, count: 0 },
    { id: 'card.refused', title: 'a card refused before processing', spec: '4.6', covered: false, count: 0 },
  ],
  covered: 1,
  total: 3,
};

describe('the coverage section', () => {
  it.each([
    ['every behaviour', { given: 'all', want: ['token.generate', 'token.expired', 'card.refused'] }],
    ['those never exercised', { given: 'never', want: ['token.expired', 'card.refused'] }],
    ['those exercised', { given: 'covered', want: ['token.generate'] }],
  ] as const)('lists %s, in the report order', (_name, { given, want }) => {
    expect(coverageRows(report, given).map((b) => b.id)).toEqual(want);
  });

  it.each([
    ['part', { given: { covered: 9, total: 53 }, want: '9 of 53 behaviours exercised (17.0%)' }],
    ['none', { given: { covered: 0, total: 53 }, want: '0 of 53 behaviours exercised (0.0%)' }],
    ['an empty catalogue', { given: { covered: 0, total: 0 }, want: '0 of 0 behaviours exercised (100.0%)' }],
  ] as const)('sums up %s', (_name, { given, want }) => {
    expect(coverageSummary(given)).toBe(`${want} since the mock started; a reset keeps the counts.`);
  });
});

const apps: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

describe('the signal the section reloads on', () => {
  it('moves with every count: answered requests, an acceptance, a settlement, a finished delivery, a reset', async () => {
    // The receiver accepts each webhook at once, in process.
    const { app } = buildMockApp(
      { log: false, settleDelayMs: 1000 },
      { platform: nodePlatform, webhookReceivers: [() => new Response(null, { status: 204 })] },
    );
    apps.push(app);
    const http = requestsVia((r) => app.fetch(r));
    const base = 'http://mock.test';
    const counts = () => JSON.stringify(app.control.coverage().behaviours.map((b) => b.count));
    const readings: { step: string; counts: string; signal: string }[] = [];
    const read = async (step: string) =>
      readings.push({ step, counts: counts(), signal: coverageSignal(await app.control.history()) });
    await read('start');

    const { token } = (await http.post(`${base}${servicePaths.generateToken}`, credentials)).body.data;
    await read('token');
    const jwt = { [serviceHeaders.jwt]: token };
    const gql = (query: string, variables: unknown, headers: Record<string, string> = jwt) =>
      http.post(`${base}${servicePaths.graphql}`, headers, { query, variables });
    await gql(operationText('current', 'PaymentGatewayFeesCalc'), { amount: 100 });
    await read('fee list');
    await gql(operationText('current', 'PaymentGatewayFeesCalc'), { amount: 100 }, {});
    await read('a missing token');
    await gql(operationText('current', 'ProcessPaymentRequest'), { input: payInput() });
    await read('payment');
    // Settled at once; its webhook is on its way (the receiver answers only after an await).
    app.control.advanceClock(1000);
    await read('settled');
    await app.control.waitForDelivery((d) => d.state === 'delivered');
    await read('delivered');
    app.control.reset();
    await read('reset');
    await http.post(`${base}${servicePaths.generateToken}`, credentials);
    await read('token after the reset');

    for (const [before, after] of readings.slice(0, -1).map((r, i) => [r, readings[i + 1]!] as const)) {
      if (before.counts !== after.counts)
        expect(after.signal, `${before.step} -> ${after.step}`).not.toBe(before.signal);
    }
    // Each step but the reset moved a count, so the check above covered them all.
    const moved = readings.slice(1).filter((r, i) => r.counts !== readings[i]!.counts);
    expect(moved.map((r) => r.step)).toEqual(
      readings
        .slice(1)
        .map((r) => r.step)
        .filter((s) => s !== 'reset'),
    );
    // And no signal repeats: a reset starts the journal's cursor again, but the versions only go up.
    expect(new Set(readings.map((r) => r.signal)).size).toBe(readings.length);
  });

  it('reads the counters GET /__pck/health answers', async () => {
    const { app } = buildMockApp({ log: false }, { platform: nodePlatform });
    apps.push(app);
    const health = (await (await app.fetch(new Request('http://mock.test/__pck/health'))).json()) as {
      history: Parameters<typeof coverageSignal>[0];
    };
    expect(coverageSignal(health.history)).toMatch(/^\d+\/\d+\/\d+$/);
  });
});
