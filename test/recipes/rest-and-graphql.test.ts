// The openapi-fetch and graphql-request recipes against the mock over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../src/assumptions.ts';
import { type MockServer, startMockServer } from '../../src/mock/index.ts';
import { credentials, loadRecipe } from './support.ts';

type OpenapiFetchRecipe = typeof import('../../recipes/openapi-fetch.ts');
type GraphqlRequestRecipe = typeof import('../../recipes/graphql-request.ts');

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, log: false });
}, 120_000);
afterAll(async () => {
  await mock?.close();
});

describe('openapi-fetch recipe', () => {
  it('generates, refreshes and revokes a token through the typed REST client', async () => {
    const { tokenLifecycle } = await loadRecipe<OpenapiFetchRecipe>('openapi-fetch');
    const { generated, refreshed, revoked } = await tokenLifecycle(mock.url, credentials);
    expect(generated.token).not.toBe(refreshed.token);
    expect(revoked).toEqual({ ...defaultAssumptions.revokeTokenBody, data: { revoked: 'token', refresh_tokens: 0 } });
    const paths = (await mock.control.requests()).map((r) => `${r.status} ${r.path}`);
    expect(paths).toEqual([
      '200 /api/v2/accounting/token/generate-token',
      '200 /api/v2/accounting/token/refresh-token',
      '200 /api/v2/accounting/token/revoke-token',
    ]);
  });

  it('surfaces a 7.1 error body as a typed error', async () => {
    const { tokenLifecycle } = await loadRecipe<OpenapiFetchRecipe>('openapi-fetch');
    await expect(tokenLifecycle(mock.url, { ...credentials, apiKey: 'wrong' })).rejects.toThrow(
      /^generate-token failed: \[payment-contract-kit\] /,
    );
  });
});

describe('graphql-request recipe', () => {
  it('pays from a card account with the typed documents', async () => {
    const { payWithGraphqlRequest } = await loadRecipe<GraphqlRequestRecipe>('graphql-request');
    const { feeList, cardFee, payment } = await payWithGraphqlRequest(mock.url, credentials);
    expect(feeList).toHaveLength(defaultAssumptions.feeTable.length);
    expect(cardFee).toMatchObject({ amount: 100, card_type: 'visa' });
    expect(payment).toMatchObject({ amount: 100, status: { name: defaultAssumptions.statusNames.processing } });
    expect((await mock.control.requests()).at(-1)).toMatchObject({
      operationName: 'ProcessPaymentRequest',
      status: 200,
    });
  });
});
