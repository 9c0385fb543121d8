/**
 * The request pipeline in process (pipeline.ts through `app.fetch`): HTTP-level mistakes (bad JSON, 404, 405, 413)
 * in the spec's shapes, never a 500, and the request log that masks card data.
 */
import { describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../../../src/assumptions.ts';
import * as current from '../../../../src/index.ts';
import { testCardNumbers } from '../../../../src/test-values.ts';
import { card, credentials, payInput, tokenPaths } from '../../helpers.ts';
import { inProcessSuite } from '../in-process.ts';

const reasons = defaultAssumptions.reasonCodes;
const logged: string[] = [];
const { mock, url } = inProcessSuite({ log: (chunk) => logged.push(chunk), maxBodyBytes: 64 * 1024 });
const tokenOf = async (clientId = 'test-client') => mock.control.issueToken(clientId).token;

describe('HTTP layer errors', () => {
  it('400 on malformed JSON at /graphql, in the 7.2 shape with reason badRequest', async () => {
    const r = await mock.post(url('/graphql'), { 'x-jwt-token': await tokenOf() }, '{"query":');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      errors: [{ message: expect.stringContaining('not valid JSON'), extensions: { reason: reasons.badRequest } }],
    });
  });

  it('400 on a body that is not an object at /graphql', async () => {
    const r = await mock.post(url('/graphql'), { 'x-jwt-token': await tokenOf() }, '[]');
    expect(r.status).toBe(400);
    expect(r.body.errors[0].extensions.reason).toBe(reasons.badRequest);
  });

  it('405 with Allow on a wrong method', async () => {
    // GET serves queries (GraphQL over HTTP); other methods answer 405.
    const g = await mock.app.fetch(new Request(url('/graphql'), { method: 'DELETE' }));
    expect(g.status).toBe(405);
    expect(g.headers.get('allow')).toBe('POST, GET');
    expect((await g.json()).errors[0].extensions.reason).toBe(reasons.badRequest);
    const r = await mock.get(url(tokenPaths.generate));
    expect(r.status).toBe(405);
    expect(r.body).toEqual({ status: 'ERROR', message: expect.stringContaining('use POST') });
  });

  it('404 in the 7.1 shape on an unknown path', async () => {
    const r = await mock.get(url('/api/v1/nothing'));
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ status: 'ERROR', message: expect.stringContaining('No such path: /api/v1/nothing') });
  });

  it('413 on a body over the limit, on REST and GraphQL paths', async () => {
    const big = { refresh_token: 'x'.repeat(70 * 1024) };
    const rest = await mock.post(url(tokenPaths.refresh), credentials, big);
    expect(rest.status).toBe(413);
    expect(rest.body.status).toBe('ERROR');
    const g = await mock.post(url('/graphql'), { 'x-jwt-token': await tokenOf() }, { query: 'x'.repeat(70 * 1024) });
    expect(g.status).toBe(413);
    expect(g.body.errors[0].extensions.reason).toBe(reasons.badRequest);
  });

  it('never answers 500 to any of the mistakes above', async () => {
    // The journal is reset after each test, so the mistakes are sent again here, all against one journal.
    const token = await tokenOf();
    await mock.post(url('/graphql'), { 'x-jwt-token': token }, '{"query":');
    await mock.post(url('/graphql'), { 'x-jwt-token': token }, '[]');
    await mock.app.fetch(new Request(url('/graphql'), { method: 'DELETE' }));
    await mock.get(url('/api/v1/nothing'));
    await mock.post(url(tokenPaths.refresh), credentials, { refresh_token: 'x'.repeat(70 * 1024) });
    const statuses = (await mock.control.requests()).map((r) => r.status);
    expect(statuses).toEqual([400, 400, 405, 404, 413]);
  });
});

describe('request log', () => {
  it('writes one line per request, never a card number or CVV', async () => {
    const client = mock.gql(await tokenOf());
    await client.request(current.ProcessPaymentRequestDocument, { input: payInput() });
    await mock.get(url(`/x/${testCardNumbers.visaSuccess}`));
    await new Promise((r) => setImmediate(r));
    const text = logged.join('');
    expect(text).toMatch(/POST \/graphql ProcessPaymentRequest 200 \d+\.\dms/);
    expect(text).not.toContain(testCardNumbers.visaSuccess);
    expect(text).not.toContain(card.cvv === '123' ? '"cvv"' : card.cvv);
    expect(text).toContain('411111******1111');
    const journal = JSON.stringify(await mock.control.requests());
    expect(journal).not.toContain(testCardNumbers.visaSuccess);
    expect(journal).not.toContain('cvv');
  });
});
