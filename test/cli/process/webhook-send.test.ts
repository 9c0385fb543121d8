// `webhook send` as a real process: one smoke test of the CLI entry against a receiver on port 0. Every flag,
// message and exit code is pinned in process by test/cli/commands/webhook-send.test.ts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkWebhookSignature } from '../../../src/webhook/index.ts';
import { cliProcesses } from '../../support/cli-process.ts';

const processes = cliProcesses();
afterEach(() => processes.killAll());
let server: http.Server;
let url: string;
const received: string[] = [];

beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    received.push(body);
    const result = checkWebhookSignature({ headers: req.headers, rawBody: body, signingKey: 'k', clientId: 'c' });
    if (!result.ok) return void res.writeHead(401).end(result.error.code);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ received: result.payload.uuid }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('payment-contract-kit webhook send (process)', () => {
  // Needs a process: the two-word command reached through the CLI entry, and the exit status a script sees.
  it('delivers a signed webhook the receiver verifies, prints its answer, and exits 0', async () => {
    const send = processes.spawnCli([
      'webhook',
      'send',
      '--url',
      `${url}/webhooks`,
      '--signing-key',
      'k',
      '--client-id',
      'c',
      '--uuid',
      'pay-process-1',
    ]);
    expect(await send.exited).toBe(0);
    expect(send.out()).toContain('< 200 OK');
    expect(send.out()).toContain('< {"received":"pay-process-1"}');
    expect(JSON.parse(received.at(-1)!)).toMatchObject({ uuid: 'pay-process-1', status: 'success', amount: 100 });
  });
});
