// The clients verify's in-process mock accepts for one pact file: named by states, request headers and message
// metadata, in the order of the file, the default test client last unless the file names it.
import { describe, expect, it } from 'vitest';
import { pactClients } from '../../../src/pact/verify/pact-clients.ts';
import { defaultCredentials } from '../../../src/spec-names.ts';

const fallback = { clientId: defaultCredentials.clientId, apiKey: defaultCredentials.apiKey };

describe('pactClients', () => {
  it('takes client ids from V3 state params, V2 request headers (any case) and V3/V4 message metadata', () => {
    const pact = {
      interactions: [
        { providerStates: [{ name: 'the client holds a valid access token', params: { clientId: 'jvm-checkout' } }] },
        { request: { headers: { 'X-Client-Id': 'ruby-shop', 'X-API-KEY': 'key-1' } } },
        { type: 'Asynchronous/Messages', metadata: { 'x-client-id': 'go-hooks', 'x-webhook-signing-key': 'sk-go' } },
      ],
      messages: [{ metaData: { 'x-client-id': 'jvm-hooks', 'x-webhook-signing-key': 'sk-jvm' } }],
    };
    expect(pactClients(pact)).toEqual([
      { clientId: 'jvm-checkout', apiKey: defaultCredentials.apiKey },
      { clientId: 'ruby-shop', apiKey: 'key-1' },
      { clientId: 'go-hooks', apiKey: defaultCredentials.apiKey, signingKey: 'sk-go' },
      { clientId: 'jvm-hooks', apiKey: defaultCredentials.apiKey, signingKey: 'sk-jvm' },
      fallback,
    ]);
  });

  it('reads V4 header lists, keeps the first API key a client sends, and adds keys named later', () => {
    const pact = {
      interactions: [
        { providerStates: [{ name: 's', params: { clientId: 'shop' } }] },
        { request: { headers: { 'x-client-id': ['shop'], 'x-api-key': ['first'] } } },
        { request: { headers: { 'x-client-id': 'shop', 'x-api-key': 'second' } } },
      ],
    };
    expect(pactClients(pact)).toEqual([{ clientId: 'shop', apiKey: 'first' }, fallback]);
  });

  it('answers the default test client alone for a pact that names none, or is not a pact', () => {
    for (const pact of [{ interactions: [{ request: { headers: { 'x-client-id': '' } } }] }, null, [], 'x'])
      expect(pactClients(pact)).toEqual([fallback]);
  });

  it('keeps the default test client first when the file names it first', () => {
    const pact = {
      interactions: [{ providerStates: [{ name: 's', params: { clientId: defaultCredentials.clientId } }] }],
    };
    expect(pactClients(pact)).toEqual([fallback]);
  });
});
