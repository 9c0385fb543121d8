// The checker reading the mock's own refusals of bad requests: the consumer's mistake is reported, and the answer is
// judged as the answer to a bad request (a ledger status, the path's error shape), never as drift of the service.
import { afterAll, describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../../src/assumptions.ts';
import { checkExchange, type Exchange } from '../../../src/contract/check/index.ts';
import { createMockApp } from '../../../src/mock/index.ts';
import { testCardDetails, testCardNumbers } from '../../../src/test-values.ts';

const app = createMockApp({ log: false });
afterAll(() => app.close());

const credentials = { 'x-client-id': 'test-client', 'x-api-key': 'test-api-key', 'content-type': 'application/json' };

async function exchange(method: string, url: string, headers: Record<string, string>, body?: string) {
  const answer = await app.fetch(new Request(`http://mock${url}`, { method, headers, body: body ?? null }));
  const responseHeaders: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    responseHeaders[name] = value;
  });
  const seen: Exchange = {
    request: { method, url, headers, body },
    response: { status: answer.status, headers: responseHeaders, body: await answer.text() },
  };
  return { status: answer.status, drifts: checkExchange(seen).drifts };
}

async function token(): Promise<string> {
  const answer = await app.fetch(
    new Request('http://mock/api/v2/accounting/token/generate-token', { method: 'POST', headers: credentials }),
  );
  return ((await answer.json()) as { data: { token: string } }).data.token;
}

const kinds = (drifts: readonly { kind: string }[]) => [...new Set(drifts.map((d) => d.kind))];
const feeList = 'query($amount: Float!){ paymentGatewayFeesCalc(amount: $amount) { fees } }';
const payment =
  'mutation($input: ProcessPaymentRequestInput!){ processPaymentRequest(input: $input) { amount payment_gateway_fee paid_at status { name } uuid } }';

describe('the checker on the mock refusing bad requests', () => {
  it('a refresh-token body without refresh_token: the consumer mistake, and 400 read from the ledger', async () => {
    const seen = await exchange('POST', '/api/v2/accounting/token/refresh-token', credentials, '{}');
    expect(seen.status).toBe(400);
    expect(defaultAssumptions.unlistedStatuses.map((s) => s.status)).toContain(400);
    expect(kinds(seen.drifts)).toEqual(['consumer']);
  });

  it('a GET on generate-token: the consumer mistake, and 405 read from the ledger', async () => {
    const seen = await exchange('GET', '/api/v2/accounting/token/generate-token', credentials);
    expect(seen.status).toBe(405);
    expect(kinds(seen.drifts)).toEqual(['consumer']);
  });

  it("a browser's GET on /graphql: the consumer mistake, and the mock's GraphiQL page not judged as a GraphQL answer", () => {
    // The page as the mock serves it (built with the browser pages, so it is written out here, not fetched).
    const seen: Exchange = {
      request: { method: 'GET', url: '/graphql', headers: { accept: 'text/html' } },
      response: {
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: '<!doctype html><html><head><title>GraphiQL</title></head><body></body></html>',
      },
    };
    expect(checkExchange(seen).drifts.map((d) => [d.kind, d.path])).toEqual([
      ['consumer', '(http)'],
      ['consumer', '(header) x-jwt-token'],
      ['consumer', '(body)'],
    ]);
  });

  it('a body past limits.maxBodyBytes: a consumer drift naming the limit, and 413 no graphqlErrorHttpStatus drift', async () => {
    const body = JSON.stringify({ query: `${feeList}${' '.repeat(1_100_000)}`, variables: { amount: 1 } });
    const seen = await exchange('POST', '/graphql', { 'x-jwt-token': await token() }, body);
    expect(seen.status).toBe(413);
    expect(seen.drifts.map((d) => [d.kind, d.path, d.expected])).toEqual([
      ['consumer', '(body)', 'a body of at most 1048576 bytes (ledger limits.maxBodyBytes)'],
    ]);
  });

  it('a legacy card field beside the current guide: its validation key is an input path of a guide the request used', async () => {
    const credit_card = { ...testCardDetails, number: testCardNumbers.visaSuccess };
    const contact = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
    const input = {
      amount: 100,
      fees: 1.8,
      credit_card,
      contact,
      payment_reference: { description: 'd', reference_no: 'r' },
    };
    const body = JSON.stringify({ query: payment, variables: { input } });
    const seen = await exchange('POST', '/graphql', { 'x-jwt-token': await token() }, body);
    expect(seen.status).toBe(200);
    expect(kinds(seen.drifts)).toEqual(['consumer']);
  });

  it('a validation key no guide has is still a contract drift', () => {
    const { drifts } = checkExchange({
      request: {
        method: 'POST',
        url: '/graphql',
        headers: { 'x-jwt-token': 't' },
        body: JSON.stringify({ query: payment, variables: {} }),
      },
      response: {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          errors: [
            {
              message: 'Validation failed',
              extensions: { category: 'validation', validation: { 'input.nope': ['x'] } },
            },
          ],
        }),
      },
    });
    expect(drifts.filter((d) => d.kind === 'contract').map((d) => d.actual)).toEqual([
      '"input.nope" is not an input path of processPaymentRequest',
    ]);
  });

  it('a status neither the interface nor the ledger lists is still a contract drift', () => {
    const { drifts } = checkExchange({
      request: { method: 'POST', url: '/api/v2/accounting/token/generate-token', headers: credentials },
      response: {
        status: 418,
        headers: { 'content-type': 'application/json' },
        body: '{"status":"ERROR","message":"x"}',
      },
    });
    expect(drifts.map((d) => [d.kind, d.actual])).toEqual([['contract', 'HTTP 418']]);
  });
});
