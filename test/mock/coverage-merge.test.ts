/**
 * Ten in-process mocks each running a part of a suite, their reports merged, equal one mock running all of it (a
 * property over random suites and random splits): what `coverage merge` of ten CI workers says is what one worker
 * doing everything would have said.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeCoverageReports } from '../../src/contract/coverage/report.ts';
import { operationText } from '../../src/contract/operations.ts';
import { createMockApp } from '../../src/mock/index.ts';
import { serviceHeaders, servicePaths } from '../../src/spec-names.ts';
import { testCardNumbers } from '../../src/test-values.ts';
import { credentials, legacyPayInput, payInput, requestsVia } from './helpers.ts';

const base = 'http://mock.test';
type App = ReturnType<typeof createMockApp>;

/** One step of a suite; each gets its own token, so steps do not depend on the ones before. */
const steps: Record<string, (app: App) => Promise<unknown>> = {
  generate: (app) => via(app).post(`${base}${servicePaths.generateToken}`, credentials),
  badKey: (app) => via(app).post(`${base}${servicePaths.generateToken}`, { ...credentials, 'x-api-key': 'no' }),
  refreshTwice: async (app) => {
    const pair = await token(app);
    for (let i = 0; i < 2; i++)
      await via(app).post(`${base}${servicePaths.refreshToken}`, credentials, { refresh_token: pair.refresh_token });
  },
  feeList: async (app) =>
    gql(app, (await token(app)).token, operationText('current', 'PaymentGatewayFeesCalc'), { amount: 10 }),
  legacyFeeList: async (app) =>
    gql(app, (await token(app)).token, operationText('legacy', 'PaymentGatewayFeesCalc'), { amount: 10 }),
  pay: async (app) =>
    gql(app, (await token(app)).token, operationText('current', 'ProcessPaymentRequest'), { input: payInput() }),
  payFailing: async (app) =>
    gql(app, (await token(app)).token, operationText('current', 'ProcessPaymentRequest'), {
      input: payInput(testCardNumbers.visaSettlesAsFailure),
    }),
  legacyPay: async (app) =>
    gql(app, (await token(app)).token, operationText('legacy', 'ProcessPaymentRequest'), { input: legacyPayInput() }),
  refusedCard: async (app) =>
    gql(app, (await token(app)).token, operationText('current', 'ProcessPaymentRequest'), {
      input: payInput(testCardNumbers.visaRejectedAsInvalid),
    }),
  noToken: (app) => gql(app, undefined, operationText('current', 'PaymentGatewayFeesCalc'), { amount: 10 }),
  expired: async (app) => {
    const pair = await token(app);
    app.control.advanceClock(11 * 60 * 1000);
    return gql(app, pair.token, operationText('current', 'PaymentGatewayFeesCalc'), { amount: 10 });
  },
  parseError: async (app) => gql(app, (await token(app)).token, '{', {}),
};

const via = (app: App) => requestsVia((r) => app.fetch(r));
const token = async (app: App) => (await via(app).post(`${base}${servicePaths.generateToken}`, credentials)).body.data;
const gql = (app: App, jwt: string | undefined, query: string, variables: unknown) =>
  via(app).post(`${base}${servicePaths.graphql}`, jwt === undefined ? {} : { [serviceHeaders.jwt]: jwt }, {
    query,
    variables,
  });

async function run(names: readonly string[]) {
  const app = createMockApp({ log: false, guide: 'both' });
  try {
    for (const name of names) await steps[name]!(app);
    // Every accepted payment settles (and its webhooks finish) on the sandbox clock, the same in each run.
    app.control.advanceClock(60_000);
    return app.control.coverage();
  } finally {
    await app.close();
  }
}

describe('coverage of ten runs, merged', () => {
  it('equals the coverage of one run doing all of it', async () => {
    const suite = fc.array(fc.constantFrom(...Object.keys(steps)), { minLength: 1, maxLength: 24 });
    const split = (n: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n });
    await fc.assert(
      fc.asyncProperty(
        suite.chain((names) => fc.tuple(fc.constant(names), split(names.length))),
        async ([names, workers]) => {
          const parts = Array.from({ length: 10 }, (_, w) => names.filter((_, i) => workers[i] === w));
          const merged = mergeCoverageReports(await Promise.all(parts.map(run)));
          expect(merged).toEqual(await run(names));
        },
      ),
      { numRuns: 8 },
    );
  }, 120_000);
});
