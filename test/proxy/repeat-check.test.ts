import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExchangeCheck } from '../../src/contract/check/exchange.ts';
import { type MockServer, startMockServer } from '../../src/mock/index.ts';
import { startProxy } from '../../src/proxy/index.ts';
import { createRepeatMemo, type RawExchange } from '../../src/proxy/repeat-check.ts';
import { servicePaths } from '../../src/spec-names.ts';
import { editJson, startDeviatingService } from './stand-in-service.ts';
import { credentials, gql, json, jsonHeaders, queries, rawRequest } from './support.ts';

const base: RawExchange = {
  kind: 'http',
  method: 'POST',
  path: '/graphql',
  requestHeaders: ['Content-Type', 'application/json', 'x-jwt-token', 't0ken-value'],
  requestBody: Buffer.from('{"query":"{ a }"}'),
  answered: true,
  status: 200,
  responseHeaders: ['content-type', 'application/json'],
  responseBody: Buffer.from('{"data":{"a":1}}'),
};
const verdict = { check: { drifts: [], operationName: 'A' } as ExchangeCheck, operationName: 'A' };

describe('createRepeatMemo', () => {
  it('hands out the verdict of an exchange repeated in every part', () => {
    const memo = createRepeatMemo();
    expect(memo.known(base)).toBeUndefined();
    memo.remember(base, verdict);
    // Fresh copies, as every request brings: equal parts, not the same objects.
    const again = {
      ...base,
      requestHeaders: [...base.requestHeaders],
      requestBody: Buffer.from(base.requestBody!),
      responseHeaders: [...base.responseHeaders],
      responseBody: Buffer.from(base.responseBody),
    };
    expect(memo.known(again)).toBe(verdict);
  });

  it.each<[string, Partial<RawExchange>]>([
    ['the kind', { kind: 'webhook' }],
    ['the method', { method: 'GET' }],
    ['whether it was answered', { answered: false }],
    ['the status', { status: 201 }],
    ['a request header value', { requestHeaders: ['Content-Type', 'application/json', 'x-jwt-token', 'other-token'] }],
    [
      'a request header spelling',
      { requestHeaders: ['content-type', 'application/json', 'x-jwt-token', 't0ken-value'] },
    ],
    [
      'the request headers order',
      { requestHeaders: ['x-jwt-token', 't0ken-value', 'Content-Type', 'application/json'] },
    ],
    ['a request body byte', { requestBody: Buffer.from('{"query":"{ b }"}') }],
    ['no request body', { requestBody: undefined }],
    ['an answer header', { responseHeaders: ['content-type', 'text/plain'] }],
    ['one more answer header', { responseHeaders: ['content-type', 'application/json', 'x-more', '1'] }],
    ['an answer body byte', { responseBody: Buffer.from('{"data":{"a":2}}') }],
  ])('checks afresh an exchange that differs in %s', (_what, change) => {
    const memo = createRepeatMemo();
    memo.remember(base, verdict);
    expect(memo.known({ ...base, ...change })).toBeUndefined();
    expect(memo.known(base)).toBe(verdict);
  });

  it('keeps one exchange per path, the last, and no exchange whose bodies are too large to keep', () => {
    const memo = createRepeatMemo();
    const other = { ...base, responseBody: Buffer.from('{"data":{"a":2}}') };
    memo.remember(base, verdict);
    memo.remember(other, verdict);
    expect(memo.known(base)).toBeUndefined();
    expect(memo.known(other)).toBe(verdict);
    expect(memo.known({ ...base, path: '/graphql?x=1' })).toBeUndefined();
    const large = { ...base, responseBody: Buffer.alloc(40 * 1024, 0x20) };
    memo.remember(large, verdict);
    expect(memo.known(large)).toBeUndefined();
    expect(memo.known(other)).toBeUndefined();
  });
});

describe('a repeated exchange through the proxy', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0, log: false });
  });
  afterAll(() => mock.close());

  it('reuses no check for an answer that differs from the last one in a body byte or a header', async () => {
    // The stand-in drops the mock's Date, so clean fee lists repeat byte for byte; it alters the 2nd (a fee as a
    // string) and the 4th (the same body as text/plain) of the five.
    let feeLists = 0;
    const service = await startDeviatingService(mock.url, {
      when: (req) => req.path === servicePaths.graphql && ++feeLists % 2 === 0,
      alter: (answer) =>
        feeLists === 2
          ? editJson(answer, (v) => {
              for (const row of v.data.paymentGatewayFeesCalc) row.fees = String(row.fees);
            })
          : { ...answer, headers: { ...answer.headers, 'content-type': 'text/plain' } },
    });
    const proxy = await startProxy({ upstream: service.url, log: false });
    try {
      const token = json(await rawRequest(proxy.url, { path: servicePaths.generateToken, headers: { ...credentials } }))
        .data.token;
      const body = gql(queries.fees, { amount: 100 });
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const answer = await rawRequest(proxy.url, {
          path: servicePaths.graphql,
          headers: { ...jsonHeaders, 'x-jwt-token': token },
          body,
        });
        statuses.push(answer.status);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
      expect(service.altered).toEqual([3, 5]);
      const report = proxy.report();
      expect(report.exchanges).toBe(6);
      // Only the altered answers drift; the clean ones after them (seq 4 and 6) are as clean as the first.
      expect([...new Set(report.drifts.map((d) => d.exchange.seq))]).toEqual([3, 5]);
      expect(report.drifts.every((d) => d.kind === 'contract')).toBe(true);
    } finally {
      await proxy.close();
      await service.close();
    }
  });
});
