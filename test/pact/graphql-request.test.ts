// biome-ignore-all lint/suspicious/noTemplateCurlyInString: Pact provider-state expressions, not JS templates.
import { MatchersV3 } from '@pact-foundation/pact';
import { parse, print } from 'graphql';
import { describe, expect, it } from 'vitest';
import { PaymentGatewayFeesCalcDocument, ProcessPaymentRequestDocument } from '../../src/index.ts';
import { exampleValues } from '../../src/pact/example-values.ts';
import { graphqlQueryPattern, operationOf, withGraphqlRequest } from '../../src/pact/graphql-request.ts';
import { acceptHeaderPattern, contentTypeJsonPattern } from '../../src/pact/request-header-matchers.ts';
import { recordInteraction } from './support/record-interaction.ts';

const gql = (url: string, headers: Record<string, string>, body: unknown) =>
  fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...headers },
    body: JSON.stringify(body),
  });

describe('operationOf', () => {
  it('returns the one named operation', () => {
    expect(operationOf(PaymentGatewayFeesCalcDocument).name.value).toBe('PaymentGatewayFeesCalc');
  });

  it.each([
    [
      'two operations',
      'query A { x } query B { x }',
      "[payment-contract-kit] A Pact GraphQL interaction needs a document with exactly one operation; this one has 2. Pass one of the kit's typed documents, such as PaymentGatewayFeesCalcDocument.",
    ],
    [
      'an anonymous operation',
      '{ x }',
      '[payment-contract-kit] A Pact GraphQL interaction needs a named operation (it is sent as operationName); give the operation a name.',
    ],
    [
      'a subscription',
      'subscription S { x }',
      '[payment-contract-kit] Subscriptions cannot be recorded as Pact HTTP interactions.',
    ],
  ])('refuses %s', (_what, source, message) => {
    expect(() => operationOf(parse(source))).toThrow(message);
  });
});

describe('graphqlQueryPattern', () => {
  it.each([
    ['the printed text', print(PaymentGatewayFeesCalcDocument), true],
    ['other spacing', print(PaymentGatewayFeesCalcDocument).replace(/\s+/g, ' '), true],
    [
      'with __typename (Apollo Client)',
      print(PaymentGatewayFeesCalcDocument).replace(/card_type/, 'card_type __typename'),
      true,
    ],
    ['another field', print(PaymentGatewayFeesCalcDocument).replace(/card_type/, 'card_location'), false],
  ])('%s: %s', (_name, text, want) => {
    expect(new RegExp(graphqlQueryPattern(print(PaymentGatewayFeesCalcDocument))).test(text)).toBe(want);
  });
});

describe('withGraphqlRequest', () => {
  it('records the printed query, operationName, variables and an injected x-jwt-token', async () => {
    const recorded = await recordInteraction(
      (pact) =>
        withGraphqlRequest(
          pact.addGraphQLInteraction().given('s').uponReceiving('a fee list'),
          PaymentGatewayFeesCalcDocument,
          { variables: { amount: 100 } },
        ).willRespondWith(200),
      (server) =>
        gql(
          server.url,
          { 'x-jwt-token': exampleValues.token },
          {
            query: print(PaymentGatewayFeesCalcDocument),
            variables: { amount: 100 },
            operationName: 'PaymentGatewayFeesCalc',
          },
        ),
    );
    expect(recorded.request).toMatchObject({ method: 'POST', path: '/graphql' });
    expect(recorded.request.body?.content).toEqual({
      operationName: 'PaymentGatewayFeesCalc',
      query: print(PaymentGatewayFeesCalcDocument),
      variables: { amount: 100 },
    });
    expect(recorded.request.generators?.header).toEqual({
      'x-jwt-token': { expression: '${token}', type: 'ProviderState' },
    });
    // Replayed by a provider as the spec's literals; matched for the consumer as any client sends them.
    expect(recorded.request.headers?.Accept).toEqual(['application/json']);
    expect(recorded.request.headers?.['Content-Type']).toEqual(['application/json']);
    expect(recorded.request.matchingRules?.header).toMatchObject({
      Accept: { matchers: [{ match: 'regex', regex: acceptHeaderPattern }] },
      'Content-Type': { matchers: [{ match: 'regex', regex: contentTypeJsonPattern }] },
    });
    // The query is matched by a whitespace-insensitive pattern, so any printer's output of the same document passes.
    expect(recorded.request.matchingRules?.body?.['$.query']).toMatchObject({ matchers: [{ match: 'regex' }] });
  });

  it('records a mutation, variable matchers, and no x-jwt-token when token is null', async () => {
    const input = {
      amount: 1,
      fees: 0.32,
      credit_card: { card_account_uid: MatchersV3.fromProviderState('${cardAccountUid}', 'uid-1') },
      contact: { first_name: 'A', last_name: 'B', email: 'a@example.com' },
      payment_reference: { description: 'd', reference_no: 'r' },
    };
    const recorded = await recordInteraction(
      (pact) =>
        withGraphqlRequest(pact.addGraphQLInteraction().uponReceiving('a payment'), ProcessPaymentRequestDocument, {
          variables: { input },
          token: null,
        }).willRespondWith(200),
      (server) =>
        gql(
          server.url,
          {},
          {
            query: print(ProcessPaymentRequestDocument),
            variables: MatchersV3.reify({ input }),
            operationName: 'ProcessPaymentRequest',
          },
        ),
    );
    expect(recorded.request.headers?.['x-jwt-token']).toBeUndefined();
    expect(String(recorded.request.body?.content?.query)).toMatch(/^mutation ProcessPaymentRequest/);
    expect(recorded.request.generators?.body).toEqual({
      '$.variables.input.credit_card.card_account_uid': { expression: '${cardAccountUid}', type: 'ProviderState' },
    });
  });
});
