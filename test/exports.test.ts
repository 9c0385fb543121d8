// The values each subpath of package.json's `exports` gives a consumer, by name: the kit's API report. A value that
// appears or goes is a visible change (CHANGELOG.md, and VERSIONING.md for what makes it breaking), so the list here
// changes in the same commit as the barrel. Types are pinned by the type tests (test/types).
import { describe, expect, it } from 'vitest';

const surfaces: [subpath: string, load: () => Promise<object>, values: string[]][] = [
  [
    '.',
    () => import('../src/index.ts'),
    ['PaymentCreditCardFeeCalcDocument', 'PaymentGatewayFeesCalcDocument', 'ProcessPaymentRequestDocument'],
  ],
  [
    './legacy',
    () => import('../src/legacy.ts'),
    ['PaymentCreditCardFeeCalcDocument', 'PaymentGatewayFeesCalcDocument', 'ProcessPaymentRequestDocument'],
  ],
  [
    './mock',
    () => import('../src/mock/index.ts'),
    [
      'controlPrefix',
      'createMockApp',
      'defaultMockOptions',
      'feeList',
      'feeTable',
      'resolveMockOptions',
      'roundCents',
      'servicePaths',
      'startMockServer',
      'testCards',
    ],
  ],
  [
    './webhook',
    () => import('../src/webhook/index.ts'),
    [
      'DEFAULT_TOLERANCE_SECONDS',
      'DEFAULT_WEBHOOK_HEADER_NAMES',
      'STANDARD_WEBHOOKS_HEADERS',
      'buildTestWebhookRequest',
      'checkStandardWebhookSignature',
      'checkWebhookSignature',
    ],
  ],
  [
    './pact',
    () => import('../src/pact/index.ts'),
    [
      // Who and in which state.
      'exampleValues',
      'injected',
      'providerName',
      'providerStates',
      // Requests.
      'acceptHeader',
      'contentTypeJson',
      'withGraphqlRequest',
      'withTokenRequest',
      // Answers, and the webhook as a message.
      'authErrorBody',
      'creditCardFee',
      'feeEntry',
      'graphqlData',
      'graphqlErrorStatus',
      'legacyFeeEntry',
      'payment',
      'paymentStatusWebhookPayload',
      'restErrorBody',
      'tokenPairResponse',
      'validationErrorBody',
      'webhookMetadata',
      // Provider verification against the mock.
      'messageProviders',
      'stateHandlers',
    ],
  ],
  [
    './client',
    () => import('../src/client/index.ts'),
    [
      'AuthenticationError',
      'GraphqlError',
      'InvalidCardError',
      'PaymentClientError',
      'TransportError',
      'ValidationError',
      'createMemoryTokenStore',
      'createPaymentClient',
      'isAuthenticationError',
      'isGraphqlError',
      'isInvalidCardError',
      'isPaymentClientError',
      'isTransportError',
      'isValidationError',
    ],
  ],
  ['./msw', () => import('../src/msw/index.ts'), ['createMockHandlers', 'defaultBaseUrl']],
  [
    './coverage',
    () => import('../src/coverage/index.ts'),
    [
      'behaviourCatalogue',
      'coverageAfterAll',
      'coverageHint',
      'coverageJunit',
      'coveragePercent',
      'coverageReport',
      'coverageText',
      'mergeCoverageReports',
      'readCoverageReport',
      'writeCoverageReport',
    ],
  ],
  ['./proxy', () => import('../src/proxy/index.ts'), ['defaultProxyOptions', 'driftReportPath', 'startProxy']],
  [
    './check',
    () => import('../src/contract/check/index.ts'),
    ['ContractDriftError', 'checkExchange', 'createCheckedFetch'],
  ],
];

describe('the values each subpath exports', () => {
  it.each(surfaces)('%s', async (_subpath, load, values) => {
    expect(Object.keys(await load()).sort()).toEqual([...values].sort());
  });

  it('covers every JavaScript subpath of package.json', async () => {
    const { default: pkg } = await import('../package.json', { with: { type: 'json' } });
    const javascript = Object.entries(pkg.exports)
      .filter(([, target]) => typeof target === 'object')
      .map(([subpath]) => subpath);
    expect(surfaces.map(([subpath]) => subpath).sort()).toEqual(javascript.sort());
  });
});
