// `mock` as a real process: one smoke test of the CLI entry. Every flag, message and exit code is pinned in process
// by test/cli/commands/mock.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { cliProcesses } from '../../support/cli-process.ts';

const processes = cliProcesses();
afterEach(() => processes.killAll());

describe('payment-contract-kit mock (process)', () => {
  // Needs a process: a real SIGTERM reaching the command's handler, the exit code main.ts sets, the request log
  // flushed to the standard error pipe before the process ends, and nothing left holding its event loop.
  it('listens on the printed URL, answers a fee list, and exits 0 on SIGTERM with its log flushed', async () => {
    const mock = processes.spawnCli(['mock', '--port', '0']);
    const url = await mock.url;
    const token = await fetch(`${url}/api/v2/accounting/token/generate-token`, {
      method: 'POST',
      headers: { 'x-client-id': 'test-client', 'x-api-key': 'test-api-key' },
    });
    expect(token.status).toBe(200);
    const { data } = (await token.json()) as { data: { token: string } };
    const fees = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-jwt-token': data.token },
      body: JSON.stringify({ query: '{ paymentGatewayFeesCalc(amount: 100) { amount fees card_type } }' }),
    });
    expect(fees.status).toBe(200);
    expect(await fees.json()).toMatchObject({
      data: { paymentGatewayFeesCalc: expect.arrayContaining([{ amount: 100, fees: 1.8, card_type: 'visa' }]) },
    });
    mock.child.kill('SIGTERM');
    expect(await mock.exited).toBe(0);
    expect(mock.out().trim().split('\n')).toEqual([`payment-contract-kit mock listening on ${url}`]);
    expect(mock.err()).toContain('POST /api/v2/accounting/token/generate-token - 200');
    expect(mock.err()).toContain('POST /graphql');
  });
});
