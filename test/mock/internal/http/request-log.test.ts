/**
 * The request log in both formats, through the app in process: JSON lines carry time, level, method, path,
 * operation, status, ms, client id and reason, and mask card numbers exactly as the text lines do.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../../../src/assumptions.ts';
import { maskDigits } from '../../../../src/contract/card-masking.ts';
import { createMockApp, type MockApp, type MockLogFormat, servicePaths } from '../../../../src/mock/index.ts';
import { serviceHeaders } from '../../../../src/spec-names.ts';
import { credentials } from '../../helpers.ts';

const base = 'http://mock.test';
const at = Date.UTC(2026, 0, 1, 12, 0, 0);
const cardNumber = '4111111111111111';
let app: MockApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** Runs a token call, a GraphQL call that fails validation, and an unknown path holding a card number. */
async function logOf(logFormat: MockLogFormat): Promise<string> {
  let logged = '';
  app = createMockApp({ log: (chunk) => (logged += chunk), logFormat, realNow: () => at });
  const token = await app.fetch(
    new Request(`${base}${servicePaths.generateToken}`, { method: 'POST', headers: credentials }),
  );
  const { data } = (await token.json()) as { data: { token: string } };
  await app.fetch(
    new Request(`${base}${servicePaths.graphql}`, {
      method: 'POST',
      headers: { ...credentials, [serviceHeaders.jwt]: data.token, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ noSuchField }' }),
    }),
  );
  await app.fetch(new Request(`${base}/cards/${cardNumber}`));
  app.flushLog();
  return logged;
}

describe('request log', () => {
  it('json: one object per line, every key on every line, in a fixed order', async () => {
    const lines = (await logOf('json'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toEqual([
      {
        time: new Date(at).toISOString(),
        level: 'info',
        method: 'POST',
        path: servicePaths.generateToken,
        operation: null,
        status: 200,
        ms: expect.any(Number),
        client_id: credentials['x-client-id'],
        reason: null,
        outcome: 'ok',
        validation: null,
      },
      expect.objectContaining({
        path: servicePaths.graphql,
        status: defaultAssumptions.graphqlErrorHttpStatus,
        client_id: credentials['x-client-id'],
        reason: defaultAssumptions.reasonCodes.graphqlValidationFailed,
        outcome: defaultAssumptions.reasonCodes.graphqlValidationFailed,
      }),
      expect.objectContaining({ level: 'warn', method: 'GET', status: 404, client_id: null, reason: null }),
    ]);
    for (const line of lines)
      expect(Object.keys(line)).toEqual([
        'time',
        'level',
        'method',
        'path',
        'operation',
        'status',
        'ms',
        'client_id',
        'reason',
        'outcome',
        'validation',
      ]);
  });

  it('masks a card number in both formats alike', async () => {
    const json = await logOf('json');
    await app?.close();
    const text = await logOf('text');
    for (const log of [json, text]) {
      expect(log).not.toContain(cardNumber);
      expect(log).toContain(`/cards/${maskDigits(cardNumber)}`);
    }
    expect(maskDigits(cardNumber)).toBe('411111******1111');
    expect(text).toMatch(/^POST \/api\/v2\/accounting\/token\/generate-token - 200 \d+\.\dms ok$/m);
  });

  it('json: free-form lines carry a level and the masked message', async () => {
    let logged = '';
    app = createMockApp({ log: (chunk) => (logged += chunk), logFormat: 'json', realNow: () => at });
    app.logLine(`card ${cardNumber} seen (a bug in the mock)`);
    app.logLine('a webhook could not be delivered');
    app.flushLog();
    expect(
      logged
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { time: new Date(at).toISOString(), level: 'error', message: 'card 411111******1111 seen (a bug in the mock)' },
      { time: new Date(at).toISOString(), level: 'warn', message: 'a webhook could not be delivered' },
    ]);
  });

  it('rejects an unknown format with the option named', () => {
    expect(() => createMockApp({ log: false, logFormat: 'xml' as MockLogFormat })).toThrow(
      /\[payment-contract-kit\] mock option "logFormat" must be "text" or "json"; got xml/,
    );
  });
});
