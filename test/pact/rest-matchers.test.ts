import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { exampleValues } from '../../src/pact/example-values.ts';
import { restErrorBody, tokenPairResponse } from '../../src/pact/rest-matchers.ts';

describe('tokenPairResponse', () => {
  it('pins status SUCCESS and matches the pair by type', () => {
    const body = tokenPairResponse() as unknown as { status: unknown; data: Record<string, Record<string, unknown>> };
    expect(body.status).toBe('SUCCESS');
    expect(body.data.token?.['pact:matcher:type']).toBe('type');
    expect(body.data.refresh_token?.['pact:matcher:type']).toBe('type');
    expect(body.data.expiration?.['pact:matcher:type']).toBe('integer');
  });

  it('has the example values, overridable', () => {
    expect(MatchersV3.reify(tokenPairResponse())).toEqual({
      status: 'SUCCESS',
      data: {
        token: exampleValues.token,
        refresh_token: exampleValues.refreshToken,
        expiration: exampleValues.expiration,
      },
    });
    expect(MatchersV3.reify(tokenPairResponse({ token: 't', refreshToken: 'r', expiration: 1 }))).toEqual({
      status: 'SUCCESS',
      data: { token: 't', refresh_token: 'r', expiration: 1 },
    });
  });
});

describe('restErrorBody', () => {
  it('pins status ERROR and matches the message by type', () => {
    const body = restErrorBody('Nope.') as unknown as { status: unknown; message: Record<string, unknown> };
    expect(body.status).toBe('ERROR');
    expect(body.message['pact:matcher:type']).toBe('type');
    expect(MatchersV3.reify(body)).toEqual({ status: 'ERROR', message: 'Nope.' });
  });
});
