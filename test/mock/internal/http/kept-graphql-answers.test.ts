/**
 * Kept /graphql answers by body (service-routes.ts): a fee list body answered before is answered again without
 * parsing it, with the same bytes, verdict and journal entry; the token is still checked on every request; a changed
 * body, a refusal, the other guide and a reset each get their own answer.
 */
import { print } from 'graphql';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultAssumptions } from '../../../../src/assumptions.ts';
import * as current from '../../../../src/index.ts';
import * as legacy from '../../../../src/legacy.ts';
import { serviceHeaders, servicePaths } from '../../../../src/spec-names.ts';
import { maxKeptBodyBytes } from '../../../support/mock-internals/http.ts';
import { inProcessSuite, startInProcess } from '../in-process.ts';

const reasons = defaultAssumptions.reasonCodes;
const { mock, url } = inProcessSuite();
const feesBody = (amount: unknown, document = print(current.PaymentGatewayFeesCalcDocument)) =>
  JSON.stringify({ query: document, variables: { amount } });
const legacyFeesBody = (amount: number) => feesBody(amount, print(legacy.PaymentGatewayFeesCalcDocument));

/** Posts `body` as it is; answers the status, the body text and how often the mock JSON-parsed that body. */
async function post(body: string, token: string, app = mock) {
  const parse = vi.spyOn(JSON, 'parse');
  try {
    const res = await app.app.fetch(
      new Request(url(servicePaths.graphql), {
        method: 'POST',
        headers: { 'content-type': 'application/json', [serviceHeaders.jwt]: token },
        body,
      }),
    );
    const parsed = parse.mock.calls.filter(([text]) => text === body).length;
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text(), parsed };
  } finally {
    parse.mockRestore();
  }
}

const tokenOf = (app = mock) => app.control.issueToken('test-client').token;

afterEach(() => vi.restoreAllMocks());

describe('/graphql: kept answers by body', () => {
  it('answers a repeated fee list body again without parsing it: same bytes, each request journaled', async () => {
    const token = tokenOf();
    const body = feesBody(100);
    const first = await post(body, token);
    expect(first.status).toBe(200);
    expect(first.type).toBe('application/json; charset=utf-8');
    expect(first.text).toMatch(/^\{"data":\{"paymentGatewayFeesCalc":/);
    const second = await post(body, token);
    expect(second).toEqual({ ...first, parsed: 0 });
    const journaled = (await mock.control.requests()).filter((r) => r.path === servicePaths.graphql);
    expect(journaled).toHaveLength(2);
    for (const entry of journaled)
      expect(entry).toMatchObject({
        operationName: 'PaymentGatewayFeesCalc',
        guide: 'current',
        status: 200,
        outcome: 'ok',
        clientId: 'test-client',
        summary: { amount: 100 },
      });
  });

  it('answers a changed body for itself, as a mock that kept nothing answers it', async () => {
    const token = tokenOf();
    await post(feesBody(100), token);
    await post(feesBody(100), token);
    const changed = await post(feesBody(250.5), token);
    expect(changed.parsed).toBe(1);
    const fresh = startInProcess({ guide: 'both' });
    try {
      await fresh.control.warmUp();
      expect((await post(feesBody(250.5), tokenOf(fresh), fresh)).text).toBe(changed.text);
      expect(changed.text).not.toBe((await post(feesBody(100), token)).text);
    } finally {
      await fresh.close();
    }
  });

  it('still checks the token on every request: an expired or revoked token is refused for a kept body', async () => {
    const body = feesBody(100);
    const expiring = tokenOf();
    expect((await post(body, expiring)).status).toBe(200);
    expect((await post(body, expiring)).parsed).toBe(0);
    mock.control.advanceClock(defaultAssumptions.tokenTtlSeconds * 1000);
    const expired = await post(body, expiring);
    expect(JSON.parse(expired.text).errors[0].extensions).toEqual({ reason: reasons.expiredToken });

    const revoked = tokenOf();
    expect((await post(body, revoked)).parsed).toBe(0);
    const answer = await mock.post(url(servicePaths.revokeToken), {
      'x-client-id': 'test-client',
      'x-api-key': 'test-api-key',
      [serviceHeaders.jwt]: revoked,
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse((await post(body, revoked)).text).errors[0].extensions).toEqual({
      reason: reasons.revokedToken,
    });
    expect(JSON.parse((await post(body, 'not-a-token')).text).errors[0].extensions).toEqual({
      reason: reasons.invalidToken,
    });
  });

  it('keeps each guide its own answer: the legacy fee list never gets the current one', async () => {
    const token = tokenOf();
    const currentAnswer = (await post(feesBody(10), token)).text;
    const legacyFirst = await post(legacyFeesBody(10), token);
    expect(legacyFirst.parsed).toBe(1);
    expect(legacyFirst.text).not.toBe(currentAnswer);
    const legacyAgain = await post(legacyFeesBody(10), token);
    expect(legacyAgain).toEqual({ ...legacyFirst, parsed: 0 });
    expect((await post(feesBody(10), token)).text).toBe(currentAnswer);
    const guides = (await mock.control.requests()).map((r) => r.guide);
    expect(guides).toEqual(['current', 'legacy', 'legacy', 'current']);
  });

  it('keeps no refusal, and forgets kept answers on reset', async () => {
    const token = tokenOf();
    const bad = feesBody(-1);
    const refused = await post(bad, token);
    expect(refused.text).toContain('"validation"');
    expect((await post(bad, token)).parsed).toBe(1);

    const body = feesBody(7);
    const first = await post(body, token);
    expect((await post(body, token)).parsed).toBe(0);
    mock.control.reset();
    const afterReset = await post(body, tokenOf());
    expect(afterReset).toEqual({ ...first, parsed: 1 });
  });

  it('keys no body over maxKeptBodyBytes: a long one is parsed on every request', async () => {
    const token = tokenOf();
    const body = feesBody(3).padEnd(maxKeptBodyBytes + 1, ' ');
    const first = await post(body, token);
    expect(first).toMatchObject({ status: 200, parsed: 1 });
    expect(await post(body, token)).toEqual(first);
    const atLimit = feesBody(3).padEnd(maxKeptBodyBytes, ' ');
    expect((await post(atLimit, token)).parsed).toBe(1);
    expect(await post(atLimit, token)).toEqual({ ...first, parsed: 0 });
  });
});
