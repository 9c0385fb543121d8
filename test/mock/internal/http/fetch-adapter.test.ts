/**
 * The in-process transport records no socket address it never had: a request's address is what the caller names,
 * else `in-process`, never a made-up 127.0.0.1.
 */
import { print } from 'graphql';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProcessPaymentRequestDocument } from '../../../../src/index.ts';
import { createMockApp, type MockApp } from '../../../../src/mock/index.ts';
import { servicePaths } from '../../../../src/spec-names.ts';
import { inProcessAddress } from '../../../support/mock-internals/http.ts';
import { payInput } from '../../helpers.ts';

const query = print(ProcessPaymentRequestDocument);
let app: MockApp;

beforeEach(() => {
  app = createMockApp({ log: () => {}, realNow: () => Date.UTC(2026, 0, 1) });
});
afterEach(async () => {
  await app.close();
});

/** Creates a payment without `ip_address` in process and returns what the mock stored as its payer IP. */
async function storedIp(options?: { remoteAddress?: string }, headers: Record<string, string> = {}): Promise<string> {
  const { token } = app.control.issueToken('test-client');
  const request = new Request(`http://mock.test${servicePaths.graphql}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-jwt-token': token, ...headers },
    body: JSON.stringify({ query, variables: { input: payInput() } }),
  });
  const res = await app.fetch(request, options);
  const body = await res.json();
  expect(res.status).toBe(200);
  const payment = (await app.control.payments()).find((p) => p.uuid === body.data.processPaymentRequest.uuid);
  return payment!.ip_address;
}

describe('fetch adapter: the requester address', () => {
  it('records in-process, not a socket address, when the caller names none', async () => {
    expect(inProcessAddress).toBe('in-process');
    expect(await storedIp()).toBe('in-process');
  });

  it('records the address the caller names', async () => {
    expect(await storedIp({ remoteAddress: '203.0.113.7' })).toBe('203.0.113.7');
  });

  it('does not take the address from x-forwarded-for', async () => {
    expect(await storedIp(undefined, { 'x-forwarded-for': '198.51.100.1' })).toBe('in-process');
  });
});
