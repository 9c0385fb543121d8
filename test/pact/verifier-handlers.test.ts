// stateHandlers / messageProviders over real HTTP against a mock on port 0: values for fromProviderState, the
// mock's 400 surfaced with its message, any message description answered, and a clear error for a bad mock URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.ts';
import { messageProviders, providerStates, stateHandlers } from '../../src/pact/index.ts';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, log: false });
});
afterAll(async () => {
  await mock.close();
});

type StateFn = (params?: unknown) => Promise<Record<string, string> | undefined>;

describe('stateHandlers', () => {
  it('has a handler per kit state and one for interactions without a state', () => {
    expect(Object.keys(stateHandlers(mock)).sort()).toEqual(['', ...Object.values(providerStates)].sort());
  });

  it('answers the values of the state from the mock (URL string, URL object or MockServer)', async () => {
    for (const target of [mock, mock.url, new URL(mock.url), `${mock.url}/`]) {
      const handler = stateHandlers(target)[providerStates.cardAccount] as StateFn;
      expect(await handler({ clientId: 'test-client', cardType: 'mastercard' })).toEqual({
        token: expect.any(String),
        cardAccountUid: expect.any(String),
      });
    }
    expect(await (stateHandlers(mock)[''] as StateFn)()).toEqual({});
  });

  it("rejects with the mock's own message when a state cannot be set up", async () => {
    const handler = stateHandlers(mock)[providerStates.accessToken] as StateFn;
    await expect(handler({ clientId: 'nobody' })).rejects.toThrow(
      /^\[payment-contract-kit\] POST .*\/__pck\/provider-states answered 400: \[payment-contract-kit\] provider state .*"nobody" is not configured/,
    );
  });

  it('refuses a mock that is not a base URL', () => {
    expect(() => stateHandlers('localhost:4010')).toThrow(
      /^\[payment-contract-kit\] the mock must be given by its base URL/,
    );
  });
});

describe('messageProviders', () => {
  it('answers any description with the webhook of its states, headers as metadata', async () => {
    const providers = messageProviders(mock);
    const provider = providers['whatever my team calls it'];
    expect(provider).toBeTypeOf('function');
    expect('then' in providers).toBe(false);
    const answer = (await provider!({
      description: 'whatever my team calls it',
      providerStates: [
        {
          name: providerStates.paymentFinalised,
          params: { clientId: 'test-client', outcome: 'success', amount: '100' },
        },
      ],
    })) as { __pactMessageMetadata: Record<string, string>; message: Record<string, unknown> };
    expect(answer.message).toMatchObject({ amount: 100, status: 'success', uuid: expect.any(String) });
    expect(answer.message).not.toHaveProperty('metadata');
    expect(answer.__pactMessageMetadata).toEqual({
      [mock.control.assumptions.webhook.signingKeyHeader]: mock.options.webhookSigningKey,
      [mock.control.assumptions.webhook.clientIdHeader]: 'test-client',
    });
  });
});

describe('a mock with a control token', () => {
  it('sends the token of a MockServer, or the one given for a URL, and names the refusal without it', async () => {
    const guarded = await startMockServer({ port: 0, log: false, controlToken: 'pact-control-secret' });
    try {
      const values = { clientId: 'test-client', cardType: 'mastercard' };
      for (const handlers of [
        stateHandlers(guarded),
        stateHandlers(guarded.url, { controlToken: 'pact-control-secret' }),
      ]) {
        expect(await (handlers[providerStates.cardAccount] as StateFn)(values)).toEqual({
          token: expect.any(String),
          cardAccountUid: expect.any(String),
        });
      }
      await expect((stateHandlers(guarded.url)[providerStates.cardAccount] as StateFn)(values)).rejects.toThrow(
        /answered 401: .*needs the header "Authorization: Bearer <control token>"/,
      );
      const descriptor = {
        description: 'a finished payment',
        providerStates: [
          {
            name: providerStates.paymentFinalised,
            params: { clientId: 'test-client', outcome: 'success', amount: '100' },
          },
        ],
      };
      const answer = (await messageProviders(guarded)['a finished payment']!(descriptor)) as {
        message: Record<string, unknown>;
      };
      expect(answer.message).toMatchObject({ amount: 100, status: 'success' });
      await expect(
        messageProviders(guarded.url, { controlToken: 'wrong-secret' })['a finished payment']!(descriptor),
      ).rejects.toThrow(/answered 401: .*wrong control token/);
    } finally {
      await guarded.close();
    }
  });
});
