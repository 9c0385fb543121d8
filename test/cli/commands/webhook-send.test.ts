// `webhook send` in process, through its `run`, against a real local receiver on port 0 (the CLI as a process is
// test/cli/process/webhook-send.test.ts's).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../../src/assumptions.ts';
import { run } from '../../../src/cli/commands/webhook-send.ts';
import { feeList } from '../../../src/mock/index.ts';
import { checkStandardWebhookSignature, checkWebhookSignature } from '../../../src/webhook/index.ts';
import { captureIo } from '../../support/cli-in-process.ts';

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const c = captureIo();
  const code = await run(args, c.io);
  return { code, stdout: c.out(), stderr: c.err() };
}

let server: http.Server;
let url: string;
const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    // One connection per delivery, as from a fresh process: this worker's fetch would otherwise reuse a socket the
    // receiver may be closing at its keep-alive time-out.
    res.setHeader('connection', 'close');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    received.push({ headers: req.headers, body });
    if (req.url === '/gone') return void res.writeHead(410).end('endpoint retired');
    const result = checkWebhookSignature({
      headers: req.headers,
      rawBody: body,
      signingKey: 'my-key',
      clientId: 'my-client',
    });
    if (!result.ok) return void res.writeHead(401, { 'content-type': 'text/plain' }).end(result.error.code);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ received: result.payload.uuid }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('payment-contract-kit webhook send (in process)', () => {
  it('sends a webhook the receiver verifies, and prints its status and body', async () => {
    const { code, stdout } = await cli([
      '--url',
      `${url}/webhooks`,
      '--status',
      'failure',
      '--signing-key',
      'my-key',
      '--client-id',
      'my-client',
      '--metadata',
      '{"order":"A-1"}',
      '--amount',
      '42.5',
      '--uuid',
      'pay-cli-1',
    ]);
    expect(code).toBe(0);
    expect(stdout).toContain('< 200 OK');
    expect(stdout).toContain('< {"received":"pay-cli-1"}');
    const last = received.at(-1)!;
    expect(JSON.parse(last.body)).toMatchObject({
      amount: 42.5,
      // The mock's own fee for 42.5 paid by visa (the default card type), not a fixed sample value.
      payment_gateway_fee: 0.94,
      status: 'failure',
      uuid: 'pay-cli-1',
      metadata: { order: 'A-1' },
    });
  });

  it('defaults --status to success and takes the fee of --card-type from the fee table, as the mock does', async () => {
    const sent = async (args: string[]) => {
      const { code } = await cli([
        '--url',
        `${url}/webhooks`,
        '--signing-key',
        'my-key',
        '--client-id',
        'my-client',
        ...args,
      ]);
      expect(code).toBe(0);
      return JSON.parse(received.at(-1)!.body);
    };
    expect(await sent([])).toMatchObject({ status: 'success', amount: 100, payment_gateway_fee: 1.8 });
    const mockFees = feeList(42.5, defaultAssumptions);
    for (const { card_type, fees } of mockFees) {
      expect(await sent(['--amount', '42.5', '--card-type', card_type])).toMatchObject({
        amount: 42.5,
        payment_gateway_fee: fees,
      });
    }
    // Two fee levels in the default table, so a fee taken from the wrong row would show.
    expect(new Set(mockFees.map((f) => f.fees))).toEqual(new Set([0.94, 1.53]));
  });

  it('signs with Standard Webhooks when given a secret', async () => {
    const { code } = await cli([
      '--url',
      `${url}/webhooks`,
      '--status',
      'success',
      '--signing-key',
      'my-key',
      '--client-id',
      'my-client',
      '--standard-webhooks-secret',
      secret,
    ]);
    expect(code).toBe(0);
    const last = received.at(-1)!;
    expect(checkStandardWebhookSignature({ headers: last.headers, rawBody: last.body, secret }).ok).toBe(true);
  });

  it('exits 1 and prints the answer when the receiver rejects the webhook', async () => {
    const { code, stdout } = await cli(['--url', `${url}/webhooks`, '--status', 'success']);
    expect(code).toBe(1);
    expect(stdout).toContain('< 401 Unauthorized');
    expect(stdout).toContain('< WRONG_SIGNING_KEY');
  });

  it('exits 1 with a fix when nothing listens', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const { code, stderr } = await cli(['--url', `http://127.0.0.1:${port}/`, '--status', 'success']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/\[payment-contract-kit\] webhook send: ECONNREFUSED \(is the receiver running/);
  });

  it('prints help with examples', async () => {
    const { code, stdout } = await cli(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: payment-contract-kit webhook send --url <url> [--status <success|failure>]');
    expect(stdout).toContain('Examples:');
  });

  it.each([
    ['no --url', ['--status', 'success'], /--url is required/],
    ['a relative --url', ['--url', '/webhooks', '--status', 'success'], /--url "\/webhooks" is not an absolute URL/],
    ['a non-HTTP --url', ['--url', 'ftp://x/', '--status', 'success'], /--url must be http or https, got ftp/],
    ['an unknown --status', ['--url', 'http://127.0.0.1:1/', '--status', 'ok'], /got "ok"/],
    [
      '--metadata not JSON',
      ['--url', 'http://127.0.0.1:1/', '--status', 'success', '--metadata', '{a'],
      /--metadata must be a JSON object/,
    ],
    [
      '--metadata an array',
      ['--url', 'http://127.0.0.1:1/', '--status', 'success', '--metadata', '[1]'],
      /--metadata must be a JSON object/,
    ],
    [
      '--amount not a number',
      ['--url', 'http://127.0.0.1:1/', '--status', 'success', '--amount', 'ten'],
      /--amount must be a number greater than 0, got "ten"/,
    ],
    [
      'an unknown flag',
      ['--url', 'http://127.0.0.1:1/', '--status', 'success', '--colour'],
      /Unknown option '--colour'/,
    ],
    [
      'a card type not in the fee table',
      ['--url', 'http://127.0.0.1:1/', '--card-type', 'discover'],
      /--card-type must be one of visa, mastercard, amex, diners \(the fee table\), got "discover"/,
    ],
    [
      'a bad secret',
      ['--url', 'http://127.0.0.1:1/', '--status', 'success', '--standard-webhooks-secret', 'not a secret'],
      /whsec_/,
    ],
  ])('exits 2 on %s, naming the flag', async (_name, args, message) => {
    const { code, stderr } = await cli(args);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^\[payment-contract-kit\] webhook send: /);
    expect(stderr).toMatch(message);
    expect(stderr).toContain('--help');
    // One line, nothing else.
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});
