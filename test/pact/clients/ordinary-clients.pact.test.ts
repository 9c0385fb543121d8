// The request builders accept what ordinary clients send (issue 25 item 1): one consumer test per client against a
// real Pact mock server, each client used as its own documentation shows, with nothing set to please the contract.
// Before the fix, the builders demanded `Content-Type: application/json` on the bodyless generate-token and an exact
// `Accept: application/json`, so plain fetch, graphql-request 7, urql and Apollo Client all got Pact's 500. Each test
// function waits until Pact's mock server has recorded what it answered (recordingAnswers): pact-core's server answers
// first and records later, so on a loaded machine pact-js could report a request just answered as never received.
import { ApolloClient, HttpLink, InMemoryCache } from '@apollo/client';
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import { Client, fetchExchange } from '@urql/core';
import { GraphQLClient } from 'graphql-request';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentClient, isTransportError } from '../../../src/client/index.ts';
import { PaymentGatewayFeesCalcDocument, type RestPaths } from '../../../src/index.ts';
import {
  exampleValues,
  feeEntry,
  graphqlData,
  providerName,
  providerStates,
  tokenPairResponse,
  withGraphqlRequest,
  withTokenRequest,
} from '../../../src/pact/index.ts';
import { tokenPaths } from '../../../src/pact/names.ts';
import { recordingAnswers } from '../support/execute-recorded.ts';
import { freshPactDir } from '../support/pact-files.ts';

const clientId = exampleValues.clientId;
const credentials = { 'x-client-id': exampleValues.clientId, 'x-api-key': exampleValues.apiKey };
let out: Awaited<ReturnType<typeof freshPactDir>>;
let pact: PactV4;
beforeAll(async () => {
  out = await freshPactDir();
  pact = new PactV4({ consumer: 'ordinary-clients', provider: providerName, dir: out.dir, logLevel: 'error' });
});
afterAll(() => out?.remove());

/**
 * The fee list interaction every GraphQL client below sends: a GraphQL interaction, or (`http`) a plain HTTP one,
 * whose query matcher also accepts the `__typename` fields Apollo Client adds.
 */
function feeList(description: string, http = false) {
  const given = (i: ReturnType<PactV4['addInteraction']> | ReturnType<PactV4['addGraphQLInteraction']>) =>
    i.given(providerStates.accessToken, { clientId }).uponReceiving(description);
  return withGraphqlRequest(
    http ? given(pact.addInteraction()) : given(pact.addGraphQLInteraction()),
    PaymentGatewayFeesCalcDocument,
    { variables: { amount: 100 } },
  ).willRespondWith(200, (b) =>
    b.jsonBody(
      graphqlData(PaymentGatewayFeesCalcDocument, { paymentGatewayFeesCalc: MatchersV3.eachLike(feeEntry()) }),
    ),
  );
}

describe('token endpoints', () => {
  it.each(['generate', 'revoke'] as const)('fetch: a bodyless %s-token with only the credentials', (endpoint) =>
    withTokenRequest(
      pact.addInteraction().given(providerStates.tokenPair, { clientId }).uponReceiving(`fetch: ${endpoint}-token`),
      endpoint,
    )
      .willRespondWith(200, (b) => b.jsonBody(endpoint === 'generate' ? tokenPairResponse() : {}))
      .executeTest(
        recordingAnswers(async (server) => {
          // What a team writes first: no Content-Type on a request without a body; fetch sends `accept: */*`.
          const res = await fetch(server.url + tokenPaths[endpoint], { method: 'POST', headers: credentials });
          expect(res.status).toBe(200);
        }),
      ),
  );

  it('fetch: refresh-token with a charset on its Content-Type', () =>
    withTokenRequest(
      pact.addInteraction().given(providerStates.tokenPair, { clientId }).uponReceiving('fetch: refresh-token'),
      'refresh',
    )
      .willRespondWith(200, (b) => b.jsonBody(tokenPairResponse()))
      .executeTest(
        recordingAnswers(async (server) => {
          const res = await fetch(server.url + tokenPaths.refresh, {
            method: 'POST',
            headers: { ...credentials, 'content-type': 'application/json; charset=utf-8' },
            body: JSON.stringify({ refresh_token: exampleValues.refreshToken }),
          });
          expect(((await res.json()) as { data: { token: string } }).data.token).toBeTruthy();
        }),
      ));

  it('openapi-fetch: generate-token and refresh-token from the typed paths', async () => {
    await withTokenRequest(
      pact
        .addInteraction()
        .given(providerStates.clientCredentials, { clientId })
        .uponReceiving('openapi-fetch: generate'),
      'generate',
    )
      .willRespondWith(200, (b) => b.jsonBody(tokenPairResponse()))
      .executeTest(
        recordingAnswers(async (server) => {
          const rest = createClient<RestPaths>({ baseUrl: server.url });
          const { data, error } = await rest.POST('/api/v2/accounting/token/generate-token', {
            params: { header: credentials },
          });
          expect(error).toBeUndefined();
          expect(data?.data.token).toBeTruthy();
        }),
      );
    await withTokenRequest(
      pact.addInteraction().given(providerStates.tokenPair, { clientId }).uponReceiving('openapi-fetch: refresh'),
      'refresh',
    )
      .willRespondWith(200, (b) => b.jsonBody(tokenPairResponse()))
      .executeTest(
        recordingAnswers(async (server) => {
          const rest = createClient<RestPaths>({ baseUrl: server.url });
          const { data, error } = await rest.POST('/api/v2/accounting/token/refresh-token', {
            params: { header: credentials },
            body: { refresh_token: exampleValues.refreshToken },
          });
          expect(error).toBeUndefined();
          expect(data?.data.refresh_token).toBeTruthy();
        }),
      );
  });
});

describe('GraphQL clients', () => {
  const headers = { 'x-jwt-token': exampleValues.token };

  it('fetch: JSON body, fetch’s default Accept', () =>
    feeList('fetch: a fee list request').executeTest(
      recordingAnswers(async (server) => {
        const res = await fetch(`${server.url}/graphql`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({
            operationName: 'PaymentGatewayFeesCalc',
            query: (await import('graphql')).print(PaymentGatewayFeesCalcDocument),
            variables: { amount: 100 },
          }),
        });
        expect(((await res.json()) as { data: unknown }).data).toBeTruthy();
      }),
    ));

  it('graphql-request 7 (Accept: application/graphql-response+json, application/json)', () =>
    feeList('graphql-request: a fee list request').executeTest(
      recordingAnswers(async (server) => {
        const client = new GraphQLClient(`${server.url}/graphql`, { headers });
        const data = await client.request(PaymentGatewayFeesCalcDocument, { amount: 100 });
        expect(data.paymentGatewayFeesCalc[0]?.card_type).toBeTruthy();
      }),
    ));

  it('urql with POST for queries (its longer Accept list)', () =>
    feeList('urql: a fee list request').executeTest(
      recordingAnswers(async (server) => {
        const client = new Client({
          url: `${server.url}/graphql`,
          exchanges: [fetchExchange],
          preferGetMethod: false,
          fetchOptions: { headers },
        });
        const result = await client.query(PaymentGatewayFeesCalcDocument, { amount: 100 }).toPromise();
        expect(result.error).toBeUndefined();
        expect(result.data?.paymentGatewayFeesCalc[0]?.card_type).toBeTruthy();
      }),
    ));

  it('Apollo Client 4 (Accept with q-values, __typename added to every selection)', () =>
    feeList('apollo: a fee list request', true).executeTest(
      recordingAnswers(async (server) => {
        const client = new ApolloClient({
          link: new HttpLink({ uri: `${server.url}/graphql`, headers }),
          cache: new InMemoryCache(),
          // Apollo 4 adds `extensions.clientLibrary` to each body by default; a Pact request body has no optional keys.
          enhancedClientAwareness: { transport: false },
        });
        const { data, error } = await client.query({
          query: PaymentGatewayFeesCalcDocument,
          variables: { amount: 100 },
        });
        expect(error).toBeUndefined();
        expect(data?.paymentGatewayFeesCalc[0]?.card_type).toBeTruthy();
      }),
    ));
});

describe('a header mismatch the kit can see', () => {
  it("the kit's client explains Pact's 500 Request-Mismatch in its own words, with the fix", async () => {
    let thrown: unknown;
    const run = withTokenRequest(
      pact.addInteraction().given(providerStates.clientCredentials, { clientId }).uponReceiving('a pinned header'),
      'generate',
      { headers: { Accept: 'application/vnd.pinned+json' } }, // a literal the client does not send
    )
      .willRespondWith(200, (b) => b.jsonBody(tokenPairResponse()))
      .executeTest(
        recordingAnswers(async (server) => {
          const client = createPaymentClient({ baseUrl: server.url, clientId, apiKey: exampleValues.apiKey });
          thrown = await client.feesFor(100).catch((error: unknown) => error);
        }),
      );
    await expect(run).rejects.toThrow(/Mismatch with header 'Accept'/); // Pact's own report, for the record
    expect(isTransportError(thrown)).toBe(true);
    expect((thrown as Error).message).toMatch(
      /^\[payment-contract-kit\] generate-token: Pact's mock server matched no interaction to this request \(500 Request-Mismatch\).*acceptHeader\(\) and contentTypeJson\(\)/,
    );
  });
});
