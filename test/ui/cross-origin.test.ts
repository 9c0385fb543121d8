// A web app on another origin, in a real Chromium: it may call the service paths (CORS), and it may not reach the
// control API, neither with a preflighted fetch nor with a "simple" request that needs no preflight (the mock refuses
// it before it runs). The other origin is a page served by a second server on another port.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.ts';
import { defaultCredentials, servicePaths } from '../../src/spec-names.ts';
import { launchBrowser, type TestBrowser } from './support/browser.ts';

let mock: MockServer;
let site: Server;
let siteUrl: string;
let browser: TestBrowser;

beforeAll(async () => {
  mock = await startMockServer({ port: 0, log: false });
  // The other origin serves one empty page; the test runs its script in that page.
  site = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>shop</title>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await mock?.close();
  await new Promise((resolve) => site?.close(resolve));
});

describe('a page on another origin', () => {
  it('generates a token and queries /graphql through CORS, and cannot reset the mock', async () => {
    // Something to lose: a token the mock issued before the page runs. A reset would forget it.
    const before = mock.control.issueToken(defaultCredentials.clientId);
    const { page, problems } = await browser.open();
    await page.goto(siteUrl);
    expect(new URL(page.url()).origin).not.toBe(new URL(mock.url).origin);

    const result = await page.evaluate(
      async ({ base, paths, credentials }) => {
        const generated = await fetch(base + paths.generateToken, {
          method: 'POST',
          headers: { 'x-client-id': credentials.clientId, 'x-api-key': credentials.apiKey },
        });
        const token = (await generated.json()).data.token as string;
        const graphql = await fetch(base + paths.graphql, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-jwt-token': token },
          body: JSON.stringify({ query: '{ paymentGatewayFeesCalc(amount: 100) { card_type fees } }' }),
        });
        const fees = await graphql.json();
        // A preflighted call to the control API: the browser must refuse to send it.
        let preflighted = 'sent';
        try {
          await fetch(`${base}/__pck/reset`, { method: 'POST', headers: { 'content-type': 'application/json' } });
        } catch (error) {
          preflighted = `refused: ${(error as Error).name}`;
        }
        // A simple request (no preflight; the page cannot read the answer): the mock itself must refuse to run it.
        await fetch(`${base}/__pck/reset`, { method: 'POST', mode: 'no-cors' });
        return { tokenStatus: generated.status, graphqlStatus: graphql.status, fees, preflighted };
      },
      { base: mock.url, paths: servicePaths, credentials: defaultCredentials },
    );

    expect(result.tokenStatus).toBe(200);
    expect(result.graphqlStatus).toBe(200);
    expect(result.fees.data.paymentGatewayFeesCalc.length).toBeGreaterThan(0);
    expect(result.preflighted).toBe('refused: TypeError');
    // The token issued before is still known: neither request reset the mock.
    const still = await fetch(`${mock.url}${servicePaths.graphql}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-jwt-token': before.token },
      body: JSON.stringify({ query: '{ paymentGatewayFeesCalc(amount: 100) { card_type } }' }),
    });
    expect((await still.json()).data.paymentGatewayFeesCalc.length).toBeGreaterThan(0);
    // The only console errors are the two refused resets: the browser's CORS refusal of the preflighted one (and its
    // failed load), and the mock's 403 to the simple one, refused before it ran.
    expect(problems).toHaveLength(3);
    expect(problems.filter((p) => p.includes('__pck/reset') && p.includes('blocked by CORS policy'))).toHaveLength(1);
    expect(problems.filter((p) => p.includes('net::ERR_FAILED'))).toHaveLength(1);
    expect(problems.filter((p) => p.includes('status of 403'))).toHaveLength(1);
  });
});
