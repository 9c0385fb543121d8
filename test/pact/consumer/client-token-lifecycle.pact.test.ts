// Consumer contract of the typed client (`payment-contract-kit/client`) for its token lifecycle: the requests it
// makes on its own, without the caller asking for them. Each test runs the real client against the Pact mock
// server: generate-token on the first call, refresh-token when its pair has expired, revoke-token with the current
// token on close(), and the TOKEN_EXPIRED answer that starts its one recovery. The provider verification
// (../provider/verify-against-mock.test.ts) checks every interaction against the mock with the existing states.
import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../../src/assumptions.ts';
import {
  createMemoryTokenStore,
  createPaymentClient,
  type FetchLike,
  isAuthenticationError,
  type PaymentClientOptions,
  type TokenPair,
} from '../../../src/client/index.ts';
import { PaymentGatewayFeesCalcDocument } from '../../../src/index.ts';
import {
  authErrorBody,
  exampleValues,
  graphqlErrorStatus,
  injected,
  providerStates,
  tokenPairResponse,
  withGraphqlRequest,
  withTokenRequest,
} from '../../../src/pact/index.ts';
import { tokenPaths } from '../../../src/pact/names.ts';
import { consumerPact } from '../support/consumer-pact.ts';
import { recordingAnswers } from '../support/execute-recorded.ts';
import { amount, clientId } from '../support/fixtures.ts';

const contract = consumerPact('client');
const reasons = defaultAssumptions.reasonCodes;

/** The pair the client holds before a test: the contract's example token and refresh token. */
const heldPair = (expiration: number): TokenPair => ({
  token: exampleValues.token,
  refresh_token: exampleValues.refreshToken,
  expiration,
});
/** 2100-01-01 in Unix seconds: a pair the client considers fresh. */
const farFuture = 4_102_444_800;

const options = (baseUrl: string, extra: Partial<PaymentClientOptions> = {}): PaymentClientOptions => ({
  baseUrl,
  clientId: exampleValues.clientId,
  apiKey: exampleValues.apiKey,
  ...extra,
});

describe('the typed client’s token lifecycle (spec 4.1 to 4.3, 5, 7.2)', () => {
  it('calls generate-token on its first call and stores the pair', () =>
    withTokenRequest(
      contract
        .pact()
        .addInteraction()
        .given(providerStates.clientCredentials, { clientId })
        .uponReceiving('the typed client’s first token request'),
      'generate',
    )
      .willRespondWith(200, (b) => b.jsonBody(tokenPairResponse()))
      .executeTest(
        recordingAnswers(async (server) => {
          const store = createMemoryTokenStore();
          const client = createPaymentClient(options(server.url, { tokenStore: store }));
          expect(await client.accessToken()).toBe(exampleValues.token);
          expect(await store.get()).toEqual(heldPair(exampleValues.expiration));
        }),
      ));

  it('calls refresh-token with its refresh token once the pair has expired', () =>
    withTokenRequest(
      contract
        .pact()
        .addInteraction()
        .given(providerStates.tokenPair, { clientId })
        .uponReceiving('the typed client’s refresh of an expired token pair'),
      'refresh',
    )
      .willRespondWith(200, (b) => b.jsonBody(tokenPairResponse({ token: 'refreshed-access-token' })))
      .executeTest(
        recordingAnswers(async (server) => {
          const store = createMemoryTokenStore(heldPair(0));
          const client = createPaymentClient(options(server.url, { tokenStore: store }));
          expect(await client.accessToken()).toBe('refreshed-access-token');
          expect((await store.get())?.token).toBe('refreshed-access-token');
        }),
      ));

  it('revokes its current token on close()', () =>
    withTokenRequest(
      contract
        .pact()
        .addInteraction()
        .given(providerStates.tokenPair, { clientId })
        .uponReceiving('the typed client’s revocation of its current token on close'),
      'revoke',
      { headers: { 'x-jwt-token': MatchersV3.fromProviderState(injected.token, exampleValues.token) } },
    )
      // Only the status: revoke-token's body is not shown (spec 4.3) and the client does not read it.
      .willRespondWith(200)
      .executeTest(
        recordingAnswers(async (server) => {
          const store = createMemoryTokenStore(heldPair(farFuture));
          await createPaymentClient(options(server.url, { tokenStore: store })).close();
          expect(await store.get()).toBeUndefined();
        }),
      ));

  it('reads TOKEN_EXPIRED as the signal to refresh', () =>
    withGraphqlRequest(
      contract
        .pact()
        .addGraphQLInteraction()
        .given(providerStates.expiredAccessToken, { clientId })
        .uponReceiving('the typed client’s fee list request with an expired access token'),
      PaymentGatewayFeesCalcDocument,
      { variables: { amount } },
    )
      .willRespondWith(graphqlErrorStatus(), (b) =>
        b.jsonBody(
          authErrorBody(reasons.expiredToken, 'The x-jwt-token has expired; get a new one from refresh-token.'),
        ),
      )
      .executeTest(
        recordingAnswers(async (server) => {
          // The refresh that follows is the refresh interaction above. Here a stand-in refuses it, so the client stops
          // after its one recovery attempt and this interaction holds the /graphql request only.
          const refreshes: string[] = [];
          const throughPact: FetchLike = async (url, init) => {
            if (!url.endsWith(tokenPaths.refresh)) return fetch(url, init);
            refreshes.push(String(init.body));
            return new Response(JSON.stringify({ status: 'ERROR', message: 'stand-in' }), { status: 401 });
          };
          const client = createPaymentClient(
            options(server.url, {
              fetch: throughPact,
              tokenStore: createMemoryTokenStore(heldPair(farFuture)),
              refusedRefresh: 'fail',
            }),
          );
          const error = await client.feesFor(amount).then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(refreshes).toEqual([JSON.stringify({ refresh_token: exampleValues.refreshToken })]);
          expect(isAuthenticationError(error)).toBe(true);
        }),
      ));
});

describe('contracts/', () => {
  it(`holds the pact these tests produce (${contract.name})`, () => contract.expectCommittedPact());
});
