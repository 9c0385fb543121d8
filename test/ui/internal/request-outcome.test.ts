// The dashboard's outcome column: what it makes of each kind of journal outcome, and the data it gets for a payment
// refused for its fee (HTTP 200, a 7.3 refusal) from GET /__pck/requests, in process.
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProcessPaymentRequestDocument } from '../../../src/index.ts';
import { createMockApp, type MockApp } from '../../../src/mock/index.ts';
import { outcomeCell } from '../../../src/ui/internal/request-outcome.ts';
import { credentials, payInput, tokenPaths } from '../../mock/helpers.ts';

describe('outcomeCell', () => {
  it.each([
    ['ok', { given: ['ok', 200], want: { text: 'ok', refused: false } }],
    [
      'a 7.3 refusal answered 200',
      { given: ['validation: input.fees', 200], want: { text: 'refused: validation: input.fees', refused: true } },
    ],
    ['a refused token', { given: ['TOKEN_EXPIRED', 200], want: { text: 'refused: TOKEN_EXPIRED', refused: true } }],
    ['a REST refusal', { given: ['HTTP 401', 401], want: { text: 'refused: HTTP 401', refused: true } }],
    ['no outcome, a success status', { given: [undefined, 200], want: { text: 'ok', refused: false } }],
    ['no outcome, an error status', { given: [undefined, 404], want: { text: 'refused: HTTP 404', refused: true } }],
  ] as const)('%s', (_name, { given, want }) => {
    expect(outcomeCell(given[0], given[1])).toEqual(want);
  });
});

describe('the request list the dashboard reads', () => {
  let app: MockApp;
  const call = (path: string, init: RequestInit = {}) => app.fetch(new Request(`http://mock.test${path}`, init));
  beforeAll(() => {
    app = createMockApp({ log: false });
  });
  afterAll(async () => {
    await app.close();
  });

  it('carries the outcome of a payment refused for its fee, which the page marks as refused', async () => {
    const token = (await (await call(tokenPaths.generate, { method: 'POST', headers: credentials })).json()).data.token;
    const paid = await call('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-jwt-token': token },
      body: JSON.stringify({
        query: print(ProcessPaymentRequestDocument),
        variables: { input: { ...payInput(), fees: 5 } },
      }),
    });
    expect(paid.status).toBe(200);
    const { requests } = (await (await call('/__pck/requests?limit=1')).json()) as {
      requests: { path: string; status: number; outcome?: string }[];
    };
    expect(requests[0]).toMatchObject({ path: '/graphql', status: 200, outcome: 'validation: input.fees' });
    expect(outcomeCell(requests[0]!.outcome, requests[0]!.status)).toEqual({
      text: 'refused: validation: input.fees',
      refused: true,
    });
  });
});
