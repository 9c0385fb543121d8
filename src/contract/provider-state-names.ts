/**
 * The names of the kit's Pact provider states, with their parameters and the values a provider injects for
 * `fromProviderState` expressions. One list in the contract layer: the mock sets the states up
 * (`src/mock/internal/provider-states/setup.ts`), the Pact entry names them in consumer tests and `verify`, and
 * consumer teams use it in their own contracts, so a state name cannot drift between the two sides.
 *
 * @module
 */

/**
 * State names. Each takes the parameters of {@link ProviderStateParams} and injects the values of
 * {@link ProviderStateValues}.
 *
 * @example
 * pact.addInteraction().given(providerStates.accessToken, { clientId: 'test-client' });
 */
export const providerStates = {
  /** The client is registered and has an API key. Injects `clientId`, `apiKey`. */
  clientCredentials: 'the client has API credentials',
  /** The client obtained a token pair from generate-token. Injects `clientId`, `apiKey`, `token`, `refreshToken`. */
  tokenPair: 'the client holds a token pair',
  /** The client holds an access token that is still valid. Injects `token`. */
  accessToken: 'the client holds a valid access token',
  /** The client holds an access token older than its lifetime (10 minutes). Injects `token`. */
  expiredAccessToken: 'the client holds an expired access token',
  /** The client priced a card before and holds its `card_account_uid`. Injects `token`, `cardAccountUid`. */
  cardAccount: 'the client holds a card account',
  /** The token endpoints fail with an internal error. Injects `clientId`, `apiKey`. */
  tokenServiceFailing: 'the token service is failing',
  /** A payment of the client has reached its final status; the webhook for it is due. Injects nothing. */
  paymentFinalised: 'a payment has reached its final status',
} as const;

/**
 * A provider state name.
 *
 * @example
 * const state: ProviderStateName = providerStates.expiredAccessToken;
 */
export type ProviderStateName = (typeof providerStates)[keyof typeof providerStates];

/**
 * Parameters each state takes (recorded in the pact file; never a card number or CVV).
 *
 * @example
 * const params: ProviderStateParams[typeof providerStates.cardAccount] = { clientId: 'test-client', cardType: 'visa' };
 * pact.addInteraction().given(providerStates.cardAccount, params);
 */
export interface ProviderStateParams {
  [providerStates.clientCredentials]: { clientId: string };
  [providerStates.tokenPair]: { clientId: string };
  [providerStates.accessToken]: { clientId: string };
  [providerStates.expiredAccessToken]: { clientId: string };
  /** `cardType` picks the card (a card type of the fee table, such as `visa`); the provider chooses a test card. */
  [providerStates.cardAccount]: { clientId: string; cardType: string };
  [providerStates.tokenServiceFailing]: { clientId: string };
  /** `outcome` is `success` or `failure`; `metadata` is the object given at payment time, echoed in the webhook. */
  [providerStates.paymentFinalised]: {
    clientId: string;
    outcome: 'success' | 'failure';
    amount: number;
    metadata: Record<string, string>;
  };
}

/**
 * Values a provider returns from a state's setup, for `fromProviderState` expressions.
 *
 * @example
 * // Provider side: a Verifier state handler hands back a fresh token.
 * const stateHandlers = {
 *   [providerStates.accessToken]: async (params) => {
 *     const { clientId } = params as ProviderStateParams[typeof providerStates.accessToken];
 *     return { token: await issueTokenFor(clientId) } satisfies Partial<ProviderStateValues>;
 *   },
 * };
 */
export interface ProviderStateValues {
  clientId: string;
  apiKey: string;
  token: string;
  refreshToken: string;
  cardAccountUid: string;
}

/**
 * `fromProviderState` expressions, one per injected value.
 *
 * @example
 * MatchersV3.fromProviderState(injected.token, exampleValues.token)
 */
// biome-ignore-start lint/suspicious/noTemplateCurlyInString: Pact provider-state expressions, not JS templates.
export const injected = {
  clientId: '${clientId}',
  apiKey: '${apiKey}',
  token: '${token}',
  refreshToken: '${refreshToken}',
  cardAccountUid: '${cardAccountUid}',
} as const satisfies Record<keyof ProviderStateValues, string>;
// biome-ignore-end lint/suspicious/noTemplateCurlyInString: Pact provider-state expressions.
