// verify's request filter in pact-js's proxy: the token a state issued goes to the one request after it, and the
// Content-Length announces the re-serialised JSON body the proxy really sends.
import { describe, expect, it } from 'vitest';
import { createStateTokenRelay } from '../../../src/pact/verify/request-filter.ts';

function request(path: string, headers: Record<string, string>, body?: unknown) {
  return { path, headers: { ...headers } as Record<string, string | string[] | undefined>, body };
}

/** Runs the filter on `req`, checking it hands the request on. */
function pass(filter: ReturnType<typeof createStateTokenRelay>['filter'], req: ReturnType<typeof request>) {
  let next = 0;
  filter(req, {}, () => next++);
  expect(next).toBe(1);
  return req;
}

describe('createStateTokenRelay', () => {
  it("puts the state's token in x-jwt-token of the next request only", () => {
    const { filter, issued } = createStateTokenRelay();
    pass(filter, request('/_pactSetup', {}));
    issued({ token: 'issued-1' });
    expect(pass(filter, request('/graphql', { 'x-jwt-token': 'recorded' })).headers['x-jwt-token']).toBe('issued-1');
    expect(pass(filter, request('/graphql', { 'x-jwt-token': 'recorded' })).headers['x-jwt-token']).toBe('recorded');
  });

  it('adds no token to a request without one, and forgets it there', () => {
    const { filter, issued } = createStateTokenRelay();
    issued({ token: 'issued-1', clientId: 'c' });
    expect(pass(filter, request('/api/v2/accounting/token/generate-token', {})).headers['x-jwt-token']).toBeUndefined();
    expect(pass(filter, request('/graphql', { 'x-jwt-token': 'recorded' })).headers['x-jwt-token']).toBe('recorded');
  });

  it('forgets an earlier token when a later state issues none', () => {
    const { filter, issued } = createStateTokenRelay();
    issued({ token: 'issued-1' });
    issued({});
    expect(pass(filter, request('/graphql', { 'x-jwt-token': 'recorded' })).headers['x-jwt-token']).toBe('recorded');
  });

  it('sets Content-Length to the JSON the proxy sends, not the spaced text the verifier sent', () => {
    const { filter } = createStateTokenRelay();
    const sent = '{"query": "{ a }", "variables": {"amount": 100}}';
    const req = pass(filter, request('/graphql', { 'content-length': String(sent.length) }, JSON.parse(sent)));
    expect(req.headers['content-length']).toBe(String(Buffer.byteLength(JSON.stringify(JSON.parse(sent)))));
    expect(Number(req.headers['content-length'])).toBeLessThan(sent.length);
    const raw = pass(filter, request('/graphql', { 'content-length': '3' }, Buffer.from('abc')));
    expect(raw.headers['content-length']).toBe('3');
  });
});
