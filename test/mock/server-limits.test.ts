/**
 * The input limits over real HTTP: body size on REST and GraphQL routes, GraphQL document limits, subscriptions,
 * metadata, and card data in graphql-js's messages, in both guides.
 */
import { request } from 'node:http';
import { getIntrospectionQuery } from 'graphql/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../src/assumptions.ts';
import { type MockServer, startMockServer } from '../../src/mock/index.ts';
import { limitMessage, validationMessages } from '../support/mock-internals/graphql.ts';
import { card, credentials, legacyPayInput, payInput, post, tokenPaths } from './helpers.ts';

const reasons = defaultAssumptions.reasonCodes;
const { maxAliases } = defaultAssumptions.limits;
const { maxMetadataDepth } = defaultAssumptions.bounds;
const small = 4096;
let mock: MockServer;
let defaults: MockServer;

beforeAll(async () => {
  mock = await startMockServer({ port: 0, guide: 'both', log: false, maxBodyBytes: small });
  defaults = await startMockServer({ port: 0, guide: 'both', log: false });
});
afterAll(async () => {
  await mock.close();
  await defaults.close();
});

/** A JSON body padded with trailing spaces to exactly `bytes` bytes. */
function padded(value: unknown, bytes: number): string {
  const json = JSON.stringify(value);
  if (Buffer.byteLength(json) > bytes) throw new Error('fixture too large for the padding');
  return json + ' '.repeat(bytes - Buffer.byteLength(json));
}

/** POSTs a raw body with chunked transfer encoding (no Content-Length), so the limit is found while reading. */
function postChunked(base: string, path: string, headers: Record<string, string>, body: string) {
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const req = request(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked', ...headers },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        text += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    for (let i = 0; i < body.length; i += 1000) req.write(body.slice(i, i + 1000));
    req.end();
  });
}

describe('request body size (maxBodyBytes): at the limit and one past it', () => {
  const servers = () =>
    [
      ['maxBodyBytes 4096', mock, small],
      ['default 1 MiB', defaults, defaultAssumptions.limits.maxBodyBytes],
    ] as const;

  it.each([0, 1])('REST refresh-token (server %i)', async (i) => {
    const [, server, limit] = servers()[i]!;
    const pair = (await post(`${server.url}${tokenPaths.generate}`, credentials)).body.data;
    const at = await post(
      `${server.url}${tokenPaths.refresh}`,
      credentials,
      padded({ refresh_token: pair.refresh_token }, limit),
    );
    expect(at.status).toBe(200);
    for (const send of [post, postChunked]) {
      const past =
        send === post
          ? await post(`${server.url}${tokenPaths.refresh}`, credentials, padded({ refresh_token: 'x' }, limit + 1))
          : await postChunked(server.url, tokenPaths.refresh, credentials, padded({ refresh_token: 'x' }, limit + 1));
      expect(past.status).toBe(413);
      expect(past.body).toEqual({ status: 'ERROR', message: expect.stringContaining(`limit of ${limit} bytes`) });
      expect((past.body as { message: string }).message).toContain('--max-body-bytes');
    }
  });

  it.each([0, 1])('GraphQL (server %i)', async (i) => {
    const [, server, limit] = servers()[i]!;
    const token = server.control.issueToken('test-client').token;
    const headers = { 'x-jwt-token': token };
    const at = await post(`${server.url}/graphql`, headers, padded({ query: '{ __typename }' }, limit));
    expect(at).toMatchObject({ status: 200, body: { data: { __typename: 'Query' } } });
    const body = padded({ query: '{ __typename }' }, limit + 1);
    for (const past of [
      await post(`${server.url}/graphql`, headers, body),
      await postChunked(server.url, '/graphql', headers, body),
    ]) {
      expect(past.status).toBe(413);
      expect(past.body).toEqual({
        errors: [
          { message: expect.stringContaining(`limit of ${limit} bytes`), extensions: { reason: reasons.badRequest } },
        ],
      });
    }
  });
});

describe('GraphQL limits over HTTP, both guides', () => {
  const aliases = (n: number, field: string) =>
    `{ ${Array.from({ length: n }, (_, i) => `f${i}: paymentGatewayFeesCalc(amount: ${i + 1}) { ${field} }`).join(' ')} }`;
  const gql = async (query: string, variables?: unknown) => {
    const token = defaults.control.issueToken('test-client').token;
    return post(`${defaults.url}/graphql`, { 'x-jwt-token': token }, { query, variables });
  };

  // The legacy guide is told apart by its `total` field (guide detection).
  it.each([
    ['current', 'total_settlement_amount'],
    ['legacy', 'total'],
  ])('%s guide: aliases at the limit are answered, one more is refused', async (_guide, field) => {
    const at = await gql(aliases(maxAliases, field));
    expect(at.status).toBe(200);
    expect(Object.keys(at.body.data)).toHaveLength(maxAliases);
    const past = await gql(aliases(maxAliases + 1, field));
    expect(past).toMatchObject({ status: 200 });
    expect(past.body).toEqual({
      errors: [
        {
          message: limitMessage('maxAliases', maxAliases, String(maxAliases + 1)),
          extensions: { reason: reasons.graphqlValidationFailed },
        },
      ],
    });
  });

  it('answers a subscription with a client error, not a 500', async () => {
    const r = await gql('subscription { __typename }');
    expect(r.status).toBe(defaultAssumptions.graphqlErrorHttpStatus);
    expect(r.body.errors[0].extensions).toEqual({ reason: reasons.graphqlValidationFailed });
  });

  it('answers the full introspection query at the default limits', async () => {
    const r = await gql(getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true, oneOf: true }));
    expect(r.status).toBe(200);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.__schema.queryType.name).toBe('Query');
  });

  /** JSON text of an object nested `depth` levels deep (written out: JSON.stringify would overflow the stack). */
  const nested = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
  const pay = (guide: 'current' | 'legacy', metadataJson: string) => {
    const { metadata: _, ...current } = payInput();
    const input = guide === 'current' ? current : legacyPayInput();
    const query =
      guide === 'current'
        ? 'mutation P($input: ProcessPaymentRequestInput!) { processPaymentRequest(input: $input) { uuid } }'
        : 'mutation P($input: ProcessPaymentInput!) { processPaymentRequest(input: $input) { uuid } }';
    const token = defaults.control.issueToken('test-client').token;
    const body = JSON.stringify({ query, variables: { input: { ...input, metadata: '__METADATA__' } } });
    return post(`${defaults.url}/graphql`, { 'x-jwt-token': token }, body.replace('"__METADATA__"', metadataJson));
  };

  it.each(['current', 'legacy'] as const)(
    '%s guide: metadata at the depth limit is kept; one level deeper is refused on arrival, 50,000 deep at the body',
    async (guide) => {
      const before = (await defaults.control.payments()).length;
      const ok = await pay(guide, nested(maxMetadataDepth));
      expect(ok.status).toBe(200);
      expect(ok.body.data.processPaymentRequest.uuid).toEqual(expect.any(String));
      // Past limits.maxJsonDepth the body is refused before it is parsed (7.2 BAD_REQUEST).
      const tooDeep = await pay(guide, nested(50_000));
      expect(tooDeep.status).toBe(400);
      expect(tooDeep.body.errors[0].extensions).toEqual({ reason: reasons.badRequest });
      for (const depth of [maxMetadataDepth + 1, defaultAssumptions.limits.maxJsonDepth - 3]) {
        const refused = await pay(guide, nested(depth));
        expect(refused.body).toEqual({
          errors: [
            {
              message: 'Validation failed for the field [processPaymentRequest].',
              path: ['processPaymentRequest'],
              extensions: {
                category: 'validation',
                validation: {
                  'input.metadata': [validationMessages.metadataDepth('input.metadata', maxMetadataDepth)],
                },
              },
            },
          ],
        });
      }
      expect((await defaults.control.payments()).length).toBe(before + 1);
      // Settling the accepted payment builds its webhook body; the process is still answering afterwards.
      defaults.control.advanceClock(defaultAssumptions.settleDelayMs);
      expect((await post(`${defaults.url}${tokenPaths.generate}`, credentials)).status).toBe(200);
    },
  );

  it.each(['current', 'legacy'] as const)('%s guide: a coercion error does not echo the card', async (guide) => {
    const input = guide === 'current' ? payInput() : legacyPayInput();
    const query =
      guide === 'current'
        ? 'mutation P($input: ProcessPaymentRequestInput!) { processPaymentRequest(input: $input) { uuid } }'
        : 'mutation P($input: ProcessPaymentInput!) { processPaymentRequest(input: $input) { uuid } }';
    const r = await gql(query, { input: { ...input, unknown_field: 1 } });
    const text = JSON.stringify(r.body);
    expect(r.body.errors[0].message).toContain('unknown_field');
    expect(text).not.toContain(card.card_number);
    expect(text).not.toContain(`"${card.cvv}"`);
    expect(text).not.toMatch(/\d{12,19}/);
  });
});
