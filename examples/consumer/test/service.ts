/** The mock's default test client, its API key and the webhook signing key it sends. */
export const service = { clientId: 'test-client', apiKey: 'test-api-key', signingKey: 'test-signing-key' } as const;
