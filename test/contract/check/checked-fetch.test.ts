// createCheckedFetch in a team's integration test: the mock in process as the "service", every exchange checked, the
// caller's response untouched; a deviating service is caught, and with throwOnContractDrift the call fails there.
import { describe, expect, it } from 'vitest';
import { ContractDriftError, createCheckedFetch } from '../../../src/contract/check/index.ts';
import { createMockApp } from '../../../src/mock/index.ts';
import { defaultCredentials, serviceHeaders, servicePaths } from '../../../src/spec-names.ts';

const base = 'http://127.0.0.1:4010';
const credentials = {
  'content-type': 'application/json',
  [serviceHeaders.clientId]: defaultCredentials.clientId,
  [serviceHeaders.apiKey]: defaultCredentials.apiKey,
};
const feeQuery = 'query Fees($amount: Float!) { paymentGatewayFeesCalc(amount: $amount) { amount fees card_type } }';

async function flow(fetchFn: typeof fetch) {
  const pair = await (
    await fetchFn(`${base}${servicePaths.generateToken}`, { method: 'POST', headers: credentials })
  ).json();
  const fees = await fetchFn(`${base}${servicePaths.graphql}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [serviceHeaders.jwt]: pair.data.token },
    body: JSON.stringify({ query: feeQuery, variables: { amount: 100 } }),
  });
  return { pair, fees: await fees.json() };
}

describe('createCheckedFetch', () => {
  it('checks every exchange with the mock as the service: no drift, the bodies still readable by the caller', async () => {
    const app = createMockApp({ log: false });
    const checked = createCheckedFetch((input, init) => app.fetch(new Request(input, init)));
    const { pair, fees } = await flow(checked.fetch);
    expect(pair.status).toBe('SUCCESS');
    expect(fees.data.paymentGatewayFeesCalc).toHaveLength(4);
    expect(checked.results().map((r) => [r.request, r.status, r.operationName])).toEqual([
      ['POST /api/v2/accounting/token/generate-token', 200, undefined],
      ['POST /graphql', 200, 'Fees'],
    ]);
    expect(checked.drifts()).toEqual([]);
    checked.reset();
    expect(checked.results()).toEqual([]);
    await app.close();
  });

  it('collects the drifts of a service that deviates, and throws ContractDriftError on a contract drift when asked', async () => {
    const app = createMockApp({ log: false });
    // A "service" that names card types in capitals (assumption) and drops `fees` from the first entry (contract).
    const deviating: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const graphql = new URL(request.url).pathname.endsWith('/graphql');
      const response = await app.fetch(request);
      if (!graphql) return response;
      const body = await response.json();
      body.data.paymentGatewayFeesCalc[0].card_type = 'VISA';
      delete body.data.paymentGatewayFeesCalc[1].fees;
      return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    };
    const seen: string[] = [];
    const collecting = createCheckedFetch(deviating, { onCheck: (r) => seen.push(r.request) });
    await flow(collecting.fetch);
    expect(seen).toHaveLength(2);
    expect(collecting.drifts().map((d) => [d.kind, d.path, d.ledgerKey])).toEqual([
      ['contract', 'data.paymentGatewayFeesCalc[1].fees', undefined],
      ['assumption', 'data.paymentGatewayFeesCalc[0].card_type', 'feeTable'],
    ]);
    const throwing = createCheckedFetch(deviating, { throwOnContractDrift: true });
    const failure = await flow(throwing.fetch).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ContractDriftError);
    expect((failure as ContractDriftError).message).toMatch(
      /^\[payment-contract-kit\] POST \/graphql broke the contract: data\.paymentGatewayFeesCalc\[1\]\.fees/,
    );
    expect((failure as ContractDriftError).drifts).toHaveLength(1);
    await app.close();
  });
});
