import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startMockServer } from '../../src/mock/index.ts';
import { type Har, startProxy } from '../../src/proxy/index.ts';
import { serviceHeaders, servicePaths } from '../../src/spec-names.ts';
import { testCardNumbers } from '../../src/test-values.ts';
import { editJson, startDeviatingService } from './stand-in-service.ts';
import { gql, json, jsonHeaders, payInput, queries, rawRequest, startStandIn } from './support.ts';

// Secrets planted in every place they can travel: API key and client credentials, access and refresh tokens (also
// echoed by the service into a field where the checker quotes them), card numbers and CVVs in variables and inline
// in the query text, and the webhook signing key. None may be in the report, the HAR file, the log or the summary;
// the forwarded traffic keeps them all.
const dir = mkdtempSync(join(tmpdir(), 'pck-proxy-secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const apiKey = 'planted-api-key-7f3a9c';
const signingKey = 'planted-signing-key-51bd';
const cvv = '739';
const cards = [testCardNumbers.visaSuccess, testCardNumbers.mastercardSuccess];

describe('nothing secret leaves the proxy', () => {
  it('redacts keys, tokens, card numbers and CVVs in the report, the HAR file, the log and the summary', async () => {
    const mock = await startMockServer({ port: 0, log: false, clients: [{ clientId: 'acme', apiKey }] });
    // The service echoes the access token into expiration, so the checker's drift quotes it.
    const service = await startDeviatingService(mock.url, {
      when: (req) => req.path === servicePaths.generateToken,
      alter: (a) =>
        editJson(a, (v) => {
          v.data.expiration = v.data.token;
        }),
    });
    const receiver = await startStandIn((_req, body, res) => res.writeHead(200).end(body));
    const lines: string[] = [];
    const reportFile = join(dir, 'report.json');
    const recordFile = join(dir, 'traffic.har');
    const proxy = await startProxy({
      upstream: service.url,
      log: (line) => lines.push(line),
      reportFile,
      recordFile,
      forwardWebhooks: [receiver.url],
    });
    const credentials = { [serviceHeaders.clientId]: 'acme', [serviceHeaders.apiKey]: apiKey };
    const generated = await rawRequest(proxy.url, { path: servicePaths.generateToken, headers: credentials });
    const token: string = json(generated).data.token;
    const refreshToken: string = json(generated).data.refresh_token;
    const refreshed = json(
      await rawRequest(proxy.url, {
        path: servicePaths.refreshToken,
        headers: { ...credentials, ...jsonHeaders },
        body: JSON.stringify({ refresh_token: refreshToken }),
      }),
    );
    const graph = (body: string) =>
      rawRequest(proxy.url, {
        path: servicePaths.graphql,
        headers: { ...jsonHeaders, [serviceHeaders.jwt]: refreshed.data.token },
        body,
      });
    const input = payInput('current', { card_number: cards[0], cvv });
    const paid = await graph(gql(queries.pay, { input }));
    // The forwarded traffic is untouched: the mock saw the full card and answered.
    expect(json(paid).data.processPaymentRequest.amount).toBe(100);
    // Inline literals, and a variable of the wrong type that the service's message may quote.
    await graph(
      JSON.stringify({
        query: `mutation { processPaymentRequest(input: { amount: 100, fees: 1.8, credit_card: { full_name: "A", card_number: "${cards[1]}", expiry_month: "12", expiry_year: "39", cvv: "${cvv}" }, contact: { first_name: "A", last_name: "B", email: "a@b.co" }, payment_reference: { description: "d", reference_no: "r" } }) { uuid } }`,
      }),
    );
    await graph(gql(queries.pay, { input: { ...input, credit_card: { ...input.credit_card, cvv: 739 } } }));
    const hook = await rawRequest(proxy.url, {
      path: '/webhooks',
      headers: { 'content-type': 'application/json', 'x-webhook-signing-key': signingKey, 'x-client-id': 'acme' },
      body: JSON.stringify({ amount: 1, payment_gateway_fee: 1, paid_at: 'x', status: 'success', uuid: 'u' }),
    });
    expect(hook.status).toBe(200);
    expect(receiver.received[0]!.headers['x-webhook-signing-key']).toBe(signingKey);
    const live = JSON.stringify(proxy.report());
    await proxy.close();
    await Promise.all([service.close(), receiver.close(), mock.close()]);

    const written = {
      live,
      report: readFileSync(reportFile, 'utf8'),
      har: readFileSync(recordFile, 'utf8'),
      log: lines.join('\n'),
    };
    // The checker did find the echoed token (so the test plants what it means to), and the HAR is complete.
    expect(JSON.parse(written.report).drifts.some((d: { path: string }) => d.path === 'data.expiration')).toBe(true);
    expect((JSON.parse(written.har) as Har).log.entries).toHaveLength(6);
    for (const [where, text] of Object.entries(written)) {
      for (const secret of [apiKey, signingKey, token, refreshToken, refreshed.data.token, ...cards])
        expect(text.includes(secret), `${secret} in ${where}`).toBe(false);
      expect(text, where).not.toMatch(/"?cvv"?\s*:\s*"?739/);
    }
    expect(written.har).toContain('411111******1111');
    expect(written.har).toContain('[redacted]');
  });
});
