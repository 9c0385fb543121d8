// Reference (a″) as the benchmark runs it: built by buildReferences, started as a child process, its answer held to
// the check every process-payment server passes before its rounds.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ServerProcess, startServer } from '../../../bench/processes.ts';
import { buildReferences, serverCommand } from '../../../bench/servers.ts';
import { GRAPHQL_PATH, openSession, paymentVariables, queries, workloads } from '../../../bench/workloads.ts';

let server: ServerProcess;

beforeAll(async () => {
  await buildReferences();
  server = await startServer(await serverCommand('payment-floor', { steady: true }));
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

it("passes the payment workload's answer check", async () => {
  const workload = workloads.find((w) => w.id === 'process-payment')!;
  expect(workload.servers).toContain('payment-floor');
  await workload.check('payment-floor', server.url, await openSession('payment-floor', server.url));
});

it("answers a payment of the mock's shape from the request's amount and fee, with a fresh uuid each time", async () => {
  const send = async () => {
    const res = await fetch(server.url + GRAPHQL_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: queries.payment, variables: paymentVariables(1.8) }),
    });
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    return {
      status: res.status,
      body: (await res.json()) as { data: { processPaymentRequest: Record<string, unknown> } },
    };
  };
  const first = await send();
  const second = await send();
  expect(first.status).toBe(200);
  const payment = first.body.data.processPaymentRequest;
  expect(Object.keys(payment)).toEqual(['amount', 'payment_gateway_fee', 'paid_at', 'status', 'uuid']);
  expect(payment).toMatchObject({ amount: 100, payment_gateway_fee: 1.8, status: { name: 'processing' } });
  expect(payment.uuid).toMatch(/^[0-9a-f-]{36}$/);
  expect(second.body.data.processPaymentRequest.uuid).not.toBe(payment.uuid);
});

it('refuses a body that is not JSON with 400', async () => {
  const res = await fetch(server.url + GRAPHQL_PATH, { method: 'POST', body: '{not json' });
  expect(res.status).toBe(400);
  expect(await res.json()).toEqual({ errors: [{ message: 'body is not JSON' }] });
});
