// The urql and Apollo Client recipes against the mock over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../src/assumptions.ts';
import { type MockServer, startMockServer, testCards } from '../../src/mock/index.ts';
import { defaultCredentials } from '../../src/spec-names.ts';
import { credentials, loadRecipe } from './support.ts';

type UrqlRecipe = typeof import('../../recipes/urql.ts');
type ApolloRecipe = typeof import('../../recipes/apollo-client.ts');
type OpenapiFetchRecipe = typeof import('../../recipes/openapi-fetch.ts');

let mock: MockServer;
let cardAccount: string;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, log: false });
  // A card account as a card fee calculation would have made it; the recipes pay from it.
  cardAccount = mock.control.registerCardAccount(defaultCredentials.clientId, {
    card_number: testCards.visaSuccess.number,
    expiry_month: '12',
    expiry_year: '39',
  });
}, 120_000);
afterAll(async () => {
  await mock?.close();
});

describe('urql recipe', () => {
  it('pays with preferGetMethod: false, every operation a POST', async () => {
    const { payWithUrql } = await loadRecipe<UrqlRecipe>('urql');
    const { fees, payment } = await payWithUrql(mock.url, credentials, cardAccount);
    expect(fees).toHaveLength(defaultAssumptions.feeTable.length);
    expect(payment?.status.name).toBe(defaultAssumptions.statusNames.processing);
    const graphqlCalls = mock.control.requests().filter((r) => r.path === '/graphql');
    expect(graphqlCalls.map((r) => `${r.method} ${r.status}`)).toEqual(['POST 200', 'POST 200']);
  });

  it("urql's default GET for queries: the same fee list where the mock serves GET, else a clear 405", async () => {
    const { createUrqlClient, feesWithUrql } = await loadRecipe<UrqlRecipe>('urql');
    const { generateToken } = await loadRecipe<OpenapiFetchRecipe>('openapi-fetch');
    const token = await generateToken(mock.url, credentials);
    const viaPost = await feesWithUrql(createUrqlClient(mock.url, token), 42.5);
    const viaGet = await feesWithUrql(createUrqlClient(mock.url, token, true), 42.5).catch((e: Error) => e);
    const get = mock.control.requests().findLast((r) => r.path === '/graphql' && r.method === 'GET');
    // Another change adds GET queries to the mock; until then GET is refused with 405 and an Allow header.
    if (viaGet instanceof Error) {
      expect(get?.status).toBe(405);
      expect(viaGet.message).toMatch(/405|Method Not Allowed|not allowed/i);
    } else {
      expect(get?.status).toBe(200);
      expect(viaGet).toEqual(viaPost);
    }
  });
});

describe('Apollo Client recipe', () => {
  it('normalises a Payment under its uuid (keyFields)', async () => {
    const { payWithApollo } = await loadRecipe<ApolloRecipe>('apollo-client');
    const { client, payment, cacheId } = await payWithApollo(mock.url, credentials, cardAccount);
    expect(cacheId).toBe(`Payment:{"uuid":"${payment.uuid}"}`);
    const stored = client.cache.extract() as Record<string, { uuid?: string; __typename?: string }>;
    // The payment is a cache entry of its own, under its uuid, with the fields the mutation selected.
    expect(stored[cacheId ?? '']).toMatchObject({ __typename: 'Payment', uuid: payment.uuid, amount: 100 });
    expect(Object.keys(stored).filter((k) => k.startsWith('Payment:'))).toEqual([cacheId]);
    client.stop();
  });

  it('without keyFields, Apollo could not identify a Payment (why the recipe sets them)', async () => {
    const { InMemoryCache } = await import('@apollo/client');
    const plain = new InMemoryCache();
    expect(plain.identify({ __typename: 'Payment', uuid: 'u-1' })).toBeUndefined();
    const { createPaymentCache } = await loadRecipe<ApolloRecipe>('apollo-client');
    expect(createPaymentCache().identify({ __typename: 'Payment', uuid: 'u-1' })).toBe('Payment:{"uuid":"u-1"}');
  });
});
