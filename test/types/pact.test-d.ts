// The public types of payment-contract-kit/pact and payment-contract-kit/webhook after their surfaces were trimmed:
// what a consumer writes still compiles, and the names that went are gone from the types too, not only from the
// values (test/exports.test.ts pins those).
import { describe, expectTypeOf, it } from 'vitest';
import type * as pact from '../../src/pact/index.ts';
import type {
  GraphqlRequestOptions,
  ProviderStateName,
  TokenEndpoint,
  TokenRequestOptions,
  WebhookMetadataOptions,
} from '../../src/pact/index.ts';
import type * as webhook from '../../src/webhook/index.ts';

describe('payment-contract-kit/pact types', () => {
  it('names the token endpoints a request builder takes', () => {
    expectTypeOf<TokenEndpoint>().toEqualTypeOf<'generate' | 'refresh' | 'revoke'>();
    expectTypeOf<pact.ProviderStateName>().toEqualTypeOf<ProviderStateName>();
  });

  it('takes literals to pin credentials and the refresh token in withTokenRequest', () => {
    expectTypeOf<{ apiKey: 'wrong-api-key'; refreshToken: 'unknown' }>().toExtend<TokenRequestOptions>();
  });

  it('takes the variables of the document in withGraphqlRequest', () => {
    expectTypeOf<{ variables: { amount: number } }>().toExtend<GraphqlRequestOptions<{ amount: number }>>();
  });

  it('takes webhook header names only under headerNames', () => {
    expectTypeOf<{ headerNames: { signingKey: 'x-key' } }>().toExtend<WebhookMetadataOptions>();
    expectTypeOf<WebhookMetadataOptions>().not.toHaveProperty('signingKeyHeader');
    expectTypeOf<WebhookMetadataOptions>().not.toHaveProperty('clientIdHeader');
  });

  it('no longer exports the request internals, paths and patterns', () => {
    expectTypeOf<typeof pact>().not.toHaveProperty('tokenRequestHeaders');
    expectTypeOf<typeof pact>().not.toHaveProperty('refreshTokenBody');
    expectTypeOf<typeof pact>().not.toHaveProperty('tokenPaths');
    expectTypeOf<typeof pact>().not.toHaveProperty('headerNames');
    expectTypeOf<typeof pact>().not.toHaveProperty('acceptHeaderPattern');
    expectTypeOf<typeof pact>().not.toHaveProperty('operationOf');
  });
});

describe('payment-contract-kit/webhook types', () => {
  it('has the signature checks under their own names only', () => {
    expectTypeOf<typeof webhook>().toHaveProperty('checkWebhookSignature');
    expectTypeOf<typeof webhook>().toHaveProperty('checkStandardWebhookSignature');
    expectTypeOf<typeof webhook>().not.toHaveProperty('verifyWebhook');
    expectTypeOf<typeof webhook>().not.toHaveProperty('verifyStandardWebhook');
  });
});
