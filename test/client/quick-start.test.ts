// The README's quick start runs here, against the mock over real HTTP, with its webhook endpoint behind a real
// server: quick-start.ts is the code, type-checked with the repository's strict tsconfig, and README.md must show
// it verbatim (with the package's import paths in place of the repository's).
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { defaultAssumptions } from '../../src/assumptions.ts';
import { type MockServer, startMockServer } from '../../src/mock/index.ts';
import { buildTestWebhookRequest } from '../../src/webhook/index.ts';
import { onWebhook, pay } from './quick-start.ts';

let mock: MockServer;
let receiver: Server;
const answered: number[] = [];

beforeAll(async () => {
  // A node:http server handing each delivery to the quick start's Fetch-style handler.
  receiver = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = Object.entries(req.headers).map(([k, v]) => [k, String(v)] as [string, string]);
    const response = await onWebhook(
      new Request(`http://receiver${req.url}`, { method: 'POST', headers, body: Buffer.concat(chunks) }),
    );
    answered.push(response.status);
    res.writeHead(response.status).end(await response.text());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  mock = await startMockServer({ port: 0, log: false, webhookUrls: [`http://127.0.0.1:${port}/webhooks`] });
});

afterAll(async () => {
  await mock?.close();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

describe('README quick start', () => {
  it('pays with the client and receives the verified webhook', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const { feeList, payment } = await pay(mock.url);
      expect(feeList).toHaveLength(defaultAssumptions.feeTable.length);
      expect(payment.status.name).toBe(defaultAssumptions.statusNames.processing);
      mock.control.advanceClock(defaultAssumptions.settleDelayMs);
      const delivery = await mock.control.waitForDelivery(
        (d) => d.paymentUuid === payment.uuid && d.state === 'delivered',
        { timeoutMs: 10_000 },
      );
      expect(delivery.attempts.map((a) => a.status)).toEqual([204]);
      expect(answered).toEqual([204]);
      expect(log).toHaveBeenCalledWith(payment.uuid, defaultAssumptions.statusNames.success);
      const tokenPaths = (await mock.control.requests()).filter((r) => r.path.includes('/token/'));
      expect(tokenPaths.map((r) => r.path.split('/').pop())).toEqual(['generate-token', 'revoke-token']);
    } finally {
      log.mockRestore();
    }
  });

  it('the webhook endpoint refuses a request signed with another key', async () => {
    const { headers, body } = buildTestWebhookRequest({ signingKey: 'another-key', clientId: 'test-client' });
    const request = new Request('http://receiver/webhooks', { method: 'POST', headers, body });
    expect((await onWebhook(request)).status).toBe(401);
  });

  it('is shown verbatim in README.md, in under 30 lines', async () => {
    const source = await readFile(new URL('./quick-start.ts', import.meta.url), 'utf8');
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
    const published = source
      .replace("'../../src/client/index.ts'", "'payment-contract-kit/client'")
      .replace("'../../src/webhook/index.ts'", "'payment-contract-kit/webhook'");
    expect(published).not.toContain('../');
    expect(source.trimEnd().split('\n').length).toBeLessThan(30);
    expect(readme).toContain(`\`\`\`ts\n${published}\`\`\``);
  });
});
