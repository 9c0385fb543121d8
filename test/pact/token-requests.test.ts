// biome-ignore-all lint/suspicious/noTemplateCurlyInString: Pact provider-state expressions, not JS templates.
import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { exampleValues } from '../../src/pact/example-values.ts';
import { tokenPaths } from '../../src/pact/names.ts';
import { acceptHeaderPattern, contentTypeJsonPattern } from '../../src/pact/request-header-matchers.ts';
import { refreshTokenBody, tokenRequestHeaders, withTokenRequest } from '../../src/pact/token-requests.ts';
import { recordInteraction } from './support/record-interaction.ts';

const post = (url: string, headers: Record<string, string>, body?: unknown) =>
  fetch(url, { method: 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) });
const exampleHeaders = { 'x-client-id': exampleValues.clientId, 'x-api-key': exampleValues.apiKey };

describe('tokenRequestHeaders', () => {
  it('takes the credentials from the provider state by default', () => {
    const headers = tokenRequestHeaders();
    expect(headers['x-client-id']).toMatchObject({ 'pact:generator:type': 'ProviderState', expression: '${clientId}' });
    expect(headers['x-api-key']).toMatchObject({ 'pact:generator:type': 'ProviderState', expression: '${apiKey}' });
    expect(MatchersV3.reify(headers)).toEqual(exampleHeaders);
  });

  it('pins a literal when given one', () => {
    expect(tokenRequestHeaders({ apiKey: 'wrong-api-key' })['x-api-key']).toBe('wrong-api-key');
  });
});

describe('refreshTokenBody', () => {
  it('injects the refresh token, or pins a literal', () => {
    expect((refreshTokenBody() as { refresh_token: unknown }).refresh_token).toMatchObject({
      expression: '${refreshToken}',
    });
    expect(refreshTokenBody('unknown')).toEqual({ refresh_token: 'unknown' });
  });
});

describe('withTokenRequest', () => {
  it.each([
    ['generate', undefined],
    ['revoke', undefined],
    ['refresh', { refresh_token: exampleValues.refreshToken }],
  ] as const)('records POST %s with injected credentials', async (endpoint, body) => {
    const recorded = await recordInteraction(
      (pact) =>
        withTokenRequest(
          pact.addInteraction().given('s').uponReceiving(`a ${endpoint} request`),
          endpoint,
        ).willRespondWith(200),
      (server) =>
        post(
          server.url + tokenPaths[endpoint],
          body ? { ...exampleHeaders, 'Content-Type': 'application/json' } : exampleHeaders,
          body,
        ),
    );
    expect(recorded.request.method).toBe('POST');
    expect(recorded.request.path).toBe(tokenPaths[endpoint]);
    expect(recorded.request.generators?.header).toEqual({
      'x-client-id': { expression: '${clientId}', type: 'ProviderState' },
      'x-api-key': { expression: '${apiKey}', type: 'ProviderState' },
    });
    if (body) {
      expect(recorded.request.body?.content).toEqual(body);
      expect(recorded.request.generators?.body).toEqual({
        '$.refresh_token': { expression: '${refreshToken}', type: 'ProviderState' },
      });
      // A JSON body: Content-Type and Accept matched as any client sends them, replayed as the spec's literals.
      expect(recorded.request.matchingRules?.header).toMatchObject({
        Accept: { matchers: [{ match: 'regex', regex: acceptHeaderPattern }] },
        'Content-Type': { matchers: [{ match: 'regex', regex: contentTypeJsonPattern }] },
      });
    } else {
      // Bodyless: nothing but the credentials is demanded.
      expect(recorded.request.body).toBeUndefined();
      expect(Object.keys(recorded.request.headers ?? {}).sort()).toEqual(['x-api-key', 'x-client-id']);
    }
  });
});
