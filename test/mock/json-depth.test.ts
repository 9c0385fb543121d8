// A JSON body nested deeper than assumptions.limits.maxJsonDepth is refused with 400 in the route's shape, before it
// is parsed. Without the bound, a fee list whose variable nested 5,000 levels deep answered 500 once graphql-jit had
// compiled the query: the kept answers' key (JSON.stringify of the variables) ran out of stack.
import { describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../src/assumptions.ts';
import { servicePaths } from '../../src/spec-names.ts';
import { credentials, tokenPaths } from './helpers.ts';
import { appsClosedAfterEach, inProcessUrl, startInProcess } from './internal/in-process.ts';

const feeList = 'query($amount: Float!){ paymentGatewayFeesCalc(amount: $amount) { fees } }';
const nestedObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const limit = defaultAssumptions.limits.maxJsonDepth;
const badRequest = defaultAssumptions.reasonCodes.badRequest;

async function tokenOf(m: ReturnType<typeof startInProcess>): Promise<string> {
  return (await m.post(`${inProcessUrl}${tokenPaths.generate}`, credentials)).body.data.token;
}

describe('JSON nesting of request bodies', () => {
  const mockApp = appsClosedAfterEach();

  it('refuses the deep fee-list variable with a 7.2 BAD_REQUEST, before and after the answer is kept', async () => {
    const m = startInProcess({ guide: 'both' });
    await m.control.warmUp();
    const token = await tokenOf(m);
    const gql = (variables: string) =>
      m.post(
        `${inProcessUrl}${servicePaths.graphql}`,
        { 'x-jwt-token': token },
        `{"query":${JSON.stringify(feeList)},"variables":${variables}}`,
      );
    // Warm every cache on the path: the compiled plan, its kept answers and the kept outcomes by body text.
    for (let i = 0; i < 3; i++) expect((await gql('{"amount":100}')).status).toBe(200);
    for (const declared of [true, false])
      for (let i = 0; i < 3; i++) {
        const deep = declared ? `{"amount":${nestedObject(5_000)}}` : `{"amount":1,"x":${nestedObject(5_000)}}`;
        const r = await gql(deep);
        expect(r.status).toBe(400);
        expect(r.body.errors).toHaveLength(1);
        expect(r.body.errors[0].extensions).toEqual({ reason: badRequest });
        expect(r.body.errors[0].message).toMatch(/more than 64 levels deep \(maxJsonDepth\).*--max-json-depth/);
      }
    expect((await gql('{"amount":100}')).status).toBe(200);
    await m.close();
  });

  it('reads a body at the limit and refuses one a level past it', async () => {
    const m = startInProcess();
    const token = await tokenOf(m);
    // The body, variables and amount take three levels; the amount's value the rest.
    const body = (depth: number) =>
      `{"query":${JSON.stringify(feeList)},"variables":{"amount":${nestedObject(depth - 2)}}}`;
    const at = await m.post(`${inProcessUrl}${servicePaths.graphql}`, { 'x-jwt-token': token }, body(limit));
    expect(at.body.errors[0].extensions.reason).not.toBe(badRequest); // parsed: the variable's type is what is wrong
    const past = await m.post(`${inProcessUrl}${servicePaths.graphql}`, { 'x-jwt-token': token }, body(limit + 1));
    expect(past.status).toBe(400);
    expect(past.body.errors[0].extensions.reason).toBe(badRequest);
    await m.close();
  });

  it('answers 7.1 on REST and the control API, and 7.2 for variables over GET', async () => {
    const app = mockApp();
    const m = startInProcess();
    const deep = nestedObject(5_000);
    const refresh = await app.fetch(
      new Request(`${inProcessUrl}${tokenPaths.refresh}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...credentials },
        body: `{"refresh_token":${deep}}`,
      }),
    );
    expect(refresh.status).toBe(400);
    expect(await refresh.json()).toEqual({ status: 'ERROR', message: expect.stringMatching(/maxJsonDepth/) });
    for (const path of ['/__pck/clock/advance', '/__pck/fail-next', '/__pck/provider-states']) {
      const r = await app.fetch(new Request(`${inProcessUrl}${path}`, { method: 'POST', body: `{"ms":${deep}}` }));
      expect(r.status, path).toBe(400);
      expect(await r.json()).toEqual({ status: 'ERROR', message: expect.stringMatching(/maxJsonDepth/) });
    }
    const token = await tokenOf(m);
    const query = new URLSearchParams({ query: feeList, variables: `{"amount":${deep}}` });
    const get = await m.app.fetch(
      new Request(`${inProcessUrl}${servicePaths.graphql}?${query}`, { headers: { 'x-jwt-token': token } }),
    );
    expect(get.status).toBe(400);
    const answer = (await get.json()) as { errors: { message: string; extensions: unknown }[] };
    expect(answer.errors[0]!.extensions).toEqual({ reason: badRequest });
    expect(answer.errors[0]!.message).toMatch(/"variables" in the query string nests .* more than 64 levels/);
    await m.close();
  });

  it('takes a higher limit from assumptions.limits.maxJsonDepth', async () => {
    const m = startInProcess({ assumptions: { limits: { maxJsonDepth: 200 } } });
    const token = await tokenOf(m);
    const r = await m.post(
      `${inProcessUrl}${servicePaths.graphql}`,
      { 'x-jwt-token': token },
      `{"query":${JSON.stringify(feeList)},"variables":{"amount":${nestedObject(150)}}}`,
    );
    expect(r.body.errors[0].extensions.reason).not.toBe(badRequest);
    await m.close();
  });
});
