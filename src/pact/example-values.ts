/**
 * The example values the kit's matchers and request builders put in pact files. Pact matches by type or pattern
 * where the spec gives only a type, so these only have to be plausible; a consumer test can assert on them, since
 * the Pact mock server answers with exactly these values.
 *
 * @module
 */
import { defaultAssumptions } from '../assumptions.ts';
import { defaultCredentials } from '../contract/service-names.ts';
import { exampleCardAccountUid } from '../test-values.ts';

/**
 * Example values, in one place. The credentials and signing key are the mock's defaults (decision 0001).
 *
 * @example
 * expect(pair.token).toBe(exampleValues.token);
 */
export const exampleValues = {
  clientId: defaultCredentials.clientId,
  apiKey: defaultCredentials.apiKey,
  /** An HS256 JWT for `test-client` (the kit's token format; any string passes the contract). */
  token:
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ0ZXN0LWNsaWVudCIsImp0aSI6ImV4YW1wbGUiLCJpYXQiOjE3NjcyNjAwMDAsImV4cCI6MTc2NzI2MDYwMH0.example-signature',
  refreshToken: 'rt_3b7f0d9c2a4e4f1b8c6d5e4f3a2b1c0d',
  /** 2026-01-01T09:50:00Z in Unix seconds (the kit's assumed unit). */
  expiration: 1_767_261_000,
  paidAt: '2026-01-01T09:40:00.000Z',
  paymentUuid: '0b9e3c1a-5d2f-4e8b-9a7c-6f1d2e3b4a5c',
  cardAccountUid: exampleCardAccountUid,
  signingKey: defaultCredentials.webhookSigningKey,
  cardType: 'visa',
  cardLocation: 'domestic',
  statusProcessing: defaultAssumptions.statusNames.processing,
  statusSuccess: defaultAssumptions.statusNames.success,
  statusFailure: defaultAssumptions.statusNames.failure,
} as const;
