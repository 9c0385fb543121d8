// Drift messages quote text written elsewhere (graphql-js's validation and coercion messages, a finding of the
// answer walk, the value the service sent) inside a sentence of their own, which ends with a full stop: a quoted
// sentence that ends with one must not leave two. One row per builder that quotes, through the checker and through
// the proxy's log line, with inputs whose quoted text ends with a full stop.
import { describe, expect, it } from 'vitest';
import { checkExchange, type Exchange } from '../../../src/contract/check/index.ts';
import type { ReportDrift } from '../../../src/proxy/drift-report.ts';
import { driftText } from '../../../src/proxy/proxy-log.ts';

const json = { 'content-type': 'application/json' };

/** A GraphQL call of the current guide with `query` and `variables`, answered with `answer`. */
function graphql(query: string, variables: Record<string, unknown> = {}, answer: unknown = { data: null }): Exchange {
  return {
    request: {
      method: 'POST',
      url: '/graphql',
      headers: { ...json, 'x-jwt-token': 'token' },
      body: JSON.stringify({ query, variables }),
    },
    response: { status: 200, headers: json, body: JSON.stringify(answer) },
  };
}

const rows: [name: string, exchange: Exchange, quoted: RegExp][] = [
  ['an unknown field (graphql-js validation)', graphql('{ nope }'), /Cannot query field "nope" on type "Query"/],
  [
    "a name of the other guide (validation and the guide's hint)",
    graphql('{ paymentGatewayFeesCalc(amount: 10) { total } }', {}, { data: { paymentGatewayFeesCalc: [] } }),
    /"total" is a name of the legacy guide/,
  ],
  [
    'a variable graphql-js cannot coerce (its message, the value cut off)',
    graphql('query Fees($amount: Float!) { paymentGatewayFeesCalc(amount: $amount) { fees } }', { amount: 'ten' }),
    /Float cannot represent/,
  ],
  ['a query that does not parse (the parse error)', graphql('{ x'), /Syntax Error/],
  [
    "a field the answer has and the query did not select (the answer's walk)",
    graphql(
      '{ paymentGatewayFeesCalc(amount: 10) { fees } }',
      {},
      { data: { paymentGatewayFeesCalc: [{ fees: 1, more: 'Done.' }] } },
    ),
    /unknown field "more"/,
  ],
];

/** A sentence that ends with two full stops (an ellipsis `…` is one character and is not one). */
const doubleStop = /(?<!\.)\.\.(?!\.)/;

describe('drift messages end their sentences with one full stop', () => {
  it.each(rows)('%s', (_, exchange, quoted) => {
    const { drifts } = checkExchange(exchange, { guide: 'current' });
    const mentioning = drifts.filter((d) => quoted.test(d.message));
    expect(mentioning.length, JSON.stringify(drifts.map((d) => d.message))).toBeGreaterThan(0);
    for (const drift of drifts) {
      expect(drift.message).toMatch(/[^.]\.$/);
      expect(drift.message).not.toMatch(doubleStop);
      const reported: ReportDrift = {
        ...drift,
        exchange: { seq: 1, method: 'POST', path: '/graphql', operationName: null, status: 200 },
      };
      const line = driftText(reported);
      expect(line).not.toMatch(doubleStop);
      // The log line gets the kit's prefix once, when it is written; the quoted message must not bring a second.
      expect(line).not.toContain('[payment-contract-kit]');
    }
  });
});
