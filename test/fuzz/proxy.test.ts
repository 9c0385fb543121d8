// Fuzzes the validating proxy in both directions, in this process (servers on port 0, no child process):
// - hostile requests from a client (the mock fuzz's random and hostile cases) through the proxy to the real mock
//   (startMockServer): every answer below 500 (the mock never answers 5xx to a client's mistake, and the proxy adds
//   none of its own), no connection reset;
// - hostile answers from a fake service (deep, huge and odd JSON, wrong statuses and content types) to valid
//   requests: the proxy passes each on with the service's status, or answers 502 in the spec's shape, and never
//   resets the connection.
// After each run the drift report (which settles the checks queued in the background) still answers 200, and no
// promise was left rejected.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.ts';
import { type ProxyServer, startProxy } from '../../src/proxy/index.ts';
import { servicePaths } from '../../src/spec-names.ts';
import { type StandIn, startStandIn } from '../proxy/support.ts';
import { entryTally, problemReport, shortInput, statusClass } from './support/entry-outcomes.ts';
import { fuzzSettings, fuzzTimeout } from './support/fuzz-settings.ts';
import { feeListQuery, oddValue } from './support/hostile-bodies.ts';
import { toJsonText } from './support/json-arbitraries.ts';
import { createClient } from './support/mock-process.ts';
import { CURRENT_TOKEN, fuzzCase, hostileCase } from './support/request-arbitraries.ts';

const settings = fuzzSettings(process.env, 150);
const requests = entryTally('proxy, hostile requests');
const answers = entryTally('proxy, hostile answers');

let mock: MockServer;
let toMock: ProxyServer;
let service: StandIn;
let toService: ProxyServer;
// What the fake service answers next: set by each case before it sends.
let next = { status: 200, contentType: 'application/json', body: '{}' };

beforeAll(async () => {
  mock = await startMockServer({ port: 0, guide: 'both', settleDelayMs: 0, log: false });
  toMock = await startProxy({ upstream: mock.url, port: 0, log: () => undefined });
  service = await startStandIn((_req, _body, res) => {
    res.writeHead(next.status, { 'content-type': next.contentType }).end(next.body);
  });
  toService = await startProxy({ upstream: service.url, port: 0, log: () => undefined });
});
afterAll(async () => {
  await toService?.close();
  await service?.close();
  await toMock?.close();
  await mock?.close();
});

const answerArb = fc.record({
  status: fc.constantFrom(200, 200, 200, 400, 401, 413, 500, 503),
  contentType: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/html', ''),
  body: fc.oneof(
    oddValue.map((v) => `{"data":{"paymentGatewayFeesCalc":${toJsonText(v)}}}`),
    oddValue.map((v) => `{"data":{"paymentGatewayFeesCalc":[{"amount":100,"fees":${toJsonText(v)}}]}}`),
    oddValue.map((v) => `{"errors":[{"message":"x","extensions":${toJsonText(v)}}]}`),
    oddValue.map((v) => `{"status":"SUCCESS","data":${toJsonText(v)}}`),
    oddValue.map(toJsonText),
    fc.constantFrom('', 'not json', '{"data":', '{"data":{"a":1,"a":2}}', '{"__proto__":{"data":{}}}'),
  ),
});
const validRequests = [
  { path: servicePaths.graphql, body: JSON.stringify({ query: feeListQuery, variables: { amount: 100 } }) },
  { path: servicePaths.generateToken, body: '' },
  { path: servicePaths.refreshToken, body: '{"refresh_token":"rt"}' },
];

describe('proxy fuzz', () => {
  it(
    `passes ${settings.runs} hostile requests to the mock without a 5xx or a reset`,
    async () => {
      const client = createClient(toMock.url, 2);
      let token = mock.control.issueToken('test-client').token;
      await fc.assert(
        fc.asyncProperty(fc.oneof(fuzzCase, hostileCase), async (c) => {
          requests.cases++;
          const headers = Object.fromEntries(
            Object.entries(c.headers).map(([k, v]) => [k, v.replace(CURRENT_TOKEN, token)]),
          );
          const out = await client.send(c.method, c.path, headers, c.body, c.encoding);
          const input = `${c.method} ${c.path.slice(0, 200)} body=${shortInput(c.body ?? '')}`;
          if (!out.ok) return requests.problem(`transport error ${out.error}`, input);
          requests.status(statusClass(out.status));
          if (out.status >= 500)
            requests.problem(`${c.label}: status ${out.status}`, `${input}\n    -> ${shortInput(out.body)}`);
          if (requests.cases % 32 === 0) token = mock.control.issueToken('test-client').token;
        }),
        { seed: settings.seed, numRuns: settings.runs, endOnFailure: true },
      );
      const report = await client.send('GET', '/__pck/drift', {});
      client.close();
      console.info(requests.summary(settings));
      expect.soft(report.ok && report.status).toBe(200);
      expect.soft(requests.problems.size, `problems:\n${problemReport(requests)}`).toBe(0);
      expect.soft(requests.unhandled).toBe(0);
    },
    fuzzTimeout(settings.runs, 100),
  );

  it(
    `passes ${settings.runs} hostile answers of a service on without a crash or a reset`,
    async () => {
      const client = createClient(toService.url, 1);
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...validRequests), answerArb, async (request, answer) => {
          answers.cases++;
          next = answer;
          const out = await client.send(
            'POST',
            request.path,
            { 'content-type': 'application/json', 'x-jwt-token': 'tok', 'x-client-id': 'c', 'x-api-key': 'k' },
            request.body,
          );
          const input = `${request.path} <- ${answer.status} ${answer.contentType} ${shortInput(answer.body)}`;
          if (!out.ok) return answers.problem(`transport error ${out.error}`, input);
          answers.status(String(out.status));
          if (out.status !== answer.status && out.status !== 502)
            answers.problem(`answered ${out.status} for the service's ${answer.status}`, input);
        }),
        { seed: settings.seed, numRuns: settings.runs, endOnFailure: true },
      );
      const report = await client.send('GET', '/__pck/drift', {});
      client.close();
      console.info(answers.summary(settings));
      expect.soft(report.ok && report.status).toBe(200);
      expect.soft(answers.problems.size, `problems:\n${problemReport(answers)}`).toBe(0);
      expect.soft(answers.unhandled).toBe(0);
    },
    fuzzTimeout(settings.runs, 100),
  );
});
