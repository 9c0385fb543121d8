import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readHar } from '../../src/contract/check/har.ts';
import { checkExchange } from '../../src/contract/check/index.ts';
import { startMockServer } from '../../src/mock/index.ts';
import { type Har, startProxy } from '../../src/proxy/index.ts';
import { rawRequest, runFlows, startStandIn } from './support.ts';

// --record writes a HAR 1.2 file of every exchange, webhooks included, that the checker reads back offline (what
// `payment-contract-kit check` does) and finds the same drifts in as the live proxy did.
const dir = mkdtempSync(join(tmpdir(), 'pck-proxy-record-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each(['current', 'legacy'] as const)('--record (%s guide)', (guide) => {
  it('writes every exchange and webhook as HAR 1.2, and checking it offline finds what the proxy found live', async () => {
    const mock = await startMockServer({ port: 0, guide, log: false });
    const receiver = await startStandIn((_req, _body, res) => res.writeHead(204).end());
    const recordFile = join(dir, `${guide}.har`);
    const proxy = await startProxy({
      upstream: mock.url,
      guide,
      log: false,
      recordFile,
      forwardWebhooks: [receiver.url],
      creatorVersion: '9.9.9',
    });
    const answers = await runFlows((req) => rawRequest(proxy.url, req), guide);
    const webhook = JSON.stringify({
      amount: 100,
      payment_gateway_fee: 1.8,
      paid_at: '2026-11-25T12:00:00.000Z',
      status: 'success',
      uuid: '0b7f3f3e-6c1a-4a52-9d55-2f0b3f2c9e11',
      metadata: {},
    });
    await rawRequest(proxy.url, {
      path: '/webhooks',
      headers: {
        'content-type': 'application/json',
        'x-webhook-signing-key': 'test-signing-key',
        'x-client-id': 'test-client',
        'x-webhook-delivery-id': 'whd_1',
      },
      body: webhook,
    });
    const live = proxy.report();
    await proxy.close();
    await Promise.all([mock.close(), receiver.close()]);

    const har = JSON.parse(readFileSync(recordFile, 'utf8')) as Har;
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator).toEqual({ name: 'payment-contract-kit proxy', version: '9.9.9' });
    expect(har.log.entries).toHaveLength(answers.length + 1);
    const last = har.log.entries.at(-1)!;
    expect(last._kind).toBe('webhook');
    expect(last.request).toMatchObject({ method: 'POST', postData: { mimeType: 'application/json', text: webhook } });
    expect(last.response).toMatchObject({ status: 204 });
    har.log.entries.forEach((entry, i) => {
      expect(entry.response.status).toBe(i < answers.length ? answers[i]!.status : 204);
      expect(entry.request.url).toMatch(i < answers.length ? mock.url : proxy.url);
    });

    const reading = readHar(har);
    expect(reading.unreadable).toEqual([]);
    const offline = reading.exchanges.flatMap(({ exchange }) =>
      checkExchange(exchange, { guide }).drifts.map((d) => [d.kind, d.path]),
    );
    expect(offline).toEqual(live.drifts.map((d) => [d.kind, d.path]));
  });
});
