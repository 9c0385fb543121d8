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
  it('pays with urql as it comes: the fee list as GET, the payment as POST', async () => {
    const { payWithUrql } = await loadRecipe<UrqlRecipe>('urql');
    const { fees, payment } = await payWithUrql(mock.url, credentials, cardAccount);
    expect(fees).toHaveLength(defaultAssumptions.feeTable.length);
    expect(payment?.status.name).toBe(defaultAssumptions.statusNames.processing);
    const graphqlCalls = (await mock.control.requests()).filter((r) => r.path === '/graphql');
    // urql's default: the fee list query as GET, the payment mutation as POST.
    expect(graphqlCalls.map((r) => `${r.method} ${r.status}`)).toEqual(['GET 200', 'POST 200']);
  });

  it('answers the same fee list to urql over GET (its default) and over POST (preferGetMethod: false)', async () => {
    const { createUrqlClient, feesWithUrql } = await loadRecipe<UrqlRecipe>('urql');
    const { generateToken } = await loadRecipe<OpenapiFetchRecipe>('openapi-fetch');
    const token = await generateToken(mock.url, credentials);
    const viaGet = await feesWithUrql(createUrqlClient(mock.url, token), 42.5);
    const viaPost = await feesWithUrql(createUrqlClient(mock.url, token, false), 42.5);
    expect(viaGet).toHaveLength(defaultAssumptions.feeTable.length);
    expect(viaGet).toEqual(viaPost);
    const calls = (await mock.control.requests()).filter((r) => r.path === '/graphql');
    expect(calls.slice(-2).map((r) => `${r.method} ${r.status}`)).toEqual(['GET 200', 'POST 200']);
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
