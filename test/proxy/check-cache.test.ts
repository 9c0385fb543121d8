import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/contract/check/exchange.ts';
import { cachedCheck } from '../../src/proxy/check-cache.ts';

const graphql = (body: string, date = 'Wed, 25 Nov 2026 12:00:00 GMT'): Exchange => ({
  request: { method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json' }, body },
  response: { status: 200, headers: { 'content-type': 'application/json', date }, body: '{"data":{}}' },
});
const token: Exchange = {
  request: { method: 'POST', url: '/api/v2/accounting/token/generate-token', headers: {} },
  response: { status: 200, headers: {}, body: '{}' },
};

describe('cachedCheck', () => {
  it('checks an exchange once however often it repeats (the Date header aside), and every new one', () => {
    let calls = 0;
    const check = cachedCheck(() => ({ drifts: [], operationName: `call ${++calls}` }));
    expect(check(graphql('{"query":"a"}')).operationName).toBe('call 1');
    expect(check(graphql('{"query":"a"}', 'Wed, 25 Nov 2026 12:00:01 GMT')).operationName).toBe('call 1');
    expect(check(graphql('{"query":"b"}')).operationName).toBe('call 2');
    expect(check({ ...graphql('{"query":"a"}'), response: undefined }).operationName).toBe('call 3');
  });

  it('never caches the token endpoints, whose check reads the answer time', () => {
    let calls = 0;
    const check = cachedCheck(() => ({ drifts: [], operationName: `call ${++calls}` }));
    check(token);
    expect(check(token).operationName).toBe('call 2');
  });
});
