/**
 * HAR documents for the `check` fuzz: entries to the service's paths (and webhooks, marked as the proxy's --record
 * marks them) whose request and answer bodies are random, mutated or hostile (deep, huge, odd JSON and GraphQL),
 * with random statuses and headers; and whole files that are hostile themselves (nested thousands of levels, entries
 * of the wrong type, duplicate keys, a byte-order mark, lone surrogates).
 *
 * @module
 */
import fc from 'fast-check';
import { tokenPaths } from '../../mock/helpers.ts';
import { feeListQuery, hostileGraphqlBody, hostileJsonBody, oddValue } from './hostile-bodies.ts';
import { hostileValue, jsonText, nest, RawJson, toJsonText } from './json-arbitraries.ts';

const origin = 'https://sandbox.example';

/** Answer bodies: a 7.1 or 7.2 error, data of the fee list with hostile parts, or hostile JSON. */
const answerBody: fc.Arbitrary<string> = fc.oneof(
  oddValue.map((v) => `{"data":{"paymentGatewayFeesCalc":${toJsonText(v)}}}`),
  oddValue.map((v) => `{"data":{"paymentGatewayFeesCalc":[{"fees":${toJsonText(v)},"amount":100}]}}`),
  oddValue.map((v) => `{"errors":[{"message":"x","extensions":${toJsonText(v)}}]}`),
  oddValue.map((v) => `{"status":"ERROR","message":${toJsonText(v)}}`),
  oddValue.map((v) => `{"status":"SUCCESS","data":${toJsonText(v)}}`),
  hostileJsonBody,
  jsonText(hostileValue),
  fc.constantFrom('', 'not json', '{"data":', '{"data":null,"errors":[]}'),
);

const headerPairs = fc.array(
  fc.record({
    name: fc.oneof(
      fc.constantFrom('content-type', 'x-jwt-token', 'date', 'x-webhook-signing-key', ':path'),
      fc.string(),
    ),
    value: fc.oneof(fc.constantFrom('application/json', 'text/html', ''), fc.string({ maxLength: 40 })),
  }),
  { maxLength: 4 },
);

const serviceEntry = fc
  .record({
    path: fc.constantFrom('/graphql', tokenPaths.generate, tokenPaths.refresh, tokenPaths.revoke, '/webhook'),
    method: fc.constantFrom('POST', 'GET', 'PUT', ''),
    requestBody: fc.oneof(
      hostileGraphqlBody,
      hostileJsonBody,
      fc.constant(JSON.stringify({ query: feeListQuery, variables: { amount: 100 } })),
    ),
    status: fc.constantFrom(200, 400, 401, 413, 500, 0, 999, -1),
    answer: answerBody,
    requestHeaders: headerPairs,
    answerHeaders: headerPairs,
    webhook: fc.boolean(),
    base64: fc.boolean(),
  })
  .map((e) => ({
    ...(e.webhook ? { _kind: 'webhook' } : {}),
    startedDateTime: '2026-11-25T10:00:00.000Z',
    time: 1,
    request: {
      method: e.method,
      url: `${origin}${e.path}`,
      httpVersion: 'HTTP/1.1',
      headers: [{ name: 'content-type', value: 'application/json' }, ...e.requestHeaders],
      postData: { mimeType: 'application/json', text: e.requestBody },
    },
    response: {
      status: e.status,
      headers: [{ name: 'content-type', value: 'application/json' }, ...e.answerHeaders],
      content: e.base64
        ? {
            size: e.answer.length,
            mimeType: 'application/json',
            text: Buffer.from(e.answer).toString('base64'),
            encoding: 'base64',
          }
        : { size: e.answer.length, mimeType: 'application/json', text: e.answer },
    },
  }));

/** A HAR file's text. */
export const harText: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .array(serviceEntry, { minLength: 1, maxLength: 3 })
      .map((entries) => JSON.stringify({ log: { version: '1.2', creator: { name: 'fuzz', version: '1' }, entries } })),
  },
  {
    weight: 1,
    arbitrary: oddValue.map(
      (v) => `{"log":{"version":"1.2","creator":{"name":"f","version":"1"},"entries":${toJsonText(v)}}}`,
    ),
  },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc.integer({ min: 1_000, max: 100_000 }).map((d) => toJsonText(nest(d, 1, 'array'))),
      fc.integer({ min: 1_000, max: 100_000 }).map((d) => `{"log":${toJsonText(nest(d, 1, 'object'))}}`),
      fc.constantFrom(
        '\ufeff{"log":{"version":"1.2","entries":[]}}',
        '{"log":{"entries":[]},"log":{"entries":[{}]}}',
        '{"__proto__":{"log":{"entries":[]}}}',
        '{"log":{"version":"1.2","creator":{"name":"\\ud800","version":"1"},"entries":[{"request":{"url":"\\udfff"}}]}}',
        '{"log":{"version":1e400,"entries":[{"request":{"method":"POST","url":"https://sandbox.example/graphql","headers":[]},"response":{"status":1e400,"headers":[],"content":{}}}]}}',
        '',
        'null',
      ),
      jsonText(hostileValue),
    ),
  },
);

export { RawJson };
