/**
 * The request log in both formats, through the app in process: JSON lines carry time, level, method, path,
 * operation, status, ms, client id and reason, and mask card numbers exactly as the text lines do. During an outage
 * repeated 503s and repeated failed webhook attempts are written once, then summed up once per window with their
 * count, and the first success ends the fold (its summary first, then its own line). With request lines off
 * (`--quiet`), the mock's own warnings of refused work are still written.
 */

import { print } from 'graphql';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultAssumptions } from '../../../../src/assumptions.ts';
import { maskDigits } from '../../../../src/contract/card-masking.ts';
import * as current from '../../../../src/index.ts';
import { buildNodeMockApp } from '../../../../src/mock/app.ts';
import { createMockApp, type MockApp, type MockLogFormat, servicePaths } from '../../../../src/mock/index.ts';
import { serviceHeaders } from '../../../../src/spec-names.ts';
import { verdictOf } from '../../../support/mock-internals/domain.ts';
import {
  createRequestLog,
  type RequestLogEntry,
  type WebhookAttemptReport,
} from '../../../support/mock-internals/http.ts';
import { credentials, payInput, requestsVia } from '../../helpers.ts';
import { untilDeliveries } from '../../payments-over-http.ts';

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

describe('repeats folded during an outage', () => {
  const storeDown = defaultAssumptions.reasonCodes.storeUnavailable;
  const window = 10_000;

  /** A request line's entry: a payment answered `status`, with the store's reason on a 503. */
  function payment(status: number, operationName = 'ProcessPaymentRequest'): RequestLogEntry {
    const body = status === 503 ? { errors: [{ message: 'down', extensions: { reason: storeDown } }] } : {};
    return {
      method: 'POST',
      path: '/graphql',
      operationName,
      status,
      durationMs: 1,
      clientId: 'test-client',
      verdict: verdictOf(status, body),
      at: 0,
    };
  }

  /** One webhook attempt to `url`: refused (retry scheduled), or delivered. */
  function attempt(url: string, n: number, delivered = false): WebhookAttemptReport {
    return {
      deliveryId: `d-${n}`,
      paymentUuid: `p-${n}`,
      url,
      attempt: 1,
      status: delivered ? 204 : undefined,
      error: delivered ? undefined : 'ECONNREFUSED',
      ms: 1,
      state: delivered ? 'delivered' : 'retry-scheduled',
      reason: undefined,
      nextAttemptAt: delivered ? undefined : 1_000,
      at: 0,
    };
  }

  /** A text log collected in memory; one line of a kind before folding unless `options` say otherwise. */
  function collected(options: Parameters<typeof createRequestLog>[3] = { repeatBurst: 1 }) {
    let text = '';
    const log = createRequestLog(
      (chunk) => (text += chunk),
      'text',
      () => 0,
      options,
    );
    const lines = () => {
      log.flush();
      return text.trimEnd().split('\n').filter(Boolean);
    };
    return { log, lines };
  }

  /** The counts of the summary lines, in order. */
  const counts = (lines: string[]) =>
    lines.flatMap((l) => {
      const m = /\] (\d+) more /.exec(l);
      return m ? [Number(m[1])] : [];
    });

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  describe('repeated lines during an outage', () => {
    it('a store outage of 1,000 refused payments writes 4 lines for them, the count of every one kept', () => {
      const { log, lines } = collected();
      // 1,000 refusals over 25 s, then the store's own line, then a payment that succeeds.
      for (let i = 0; i < 1_000; i++) {
        log.request(payment(503));
        if (i % 40 === 39) vi.advanceTimersByTime(1_000);
      }
      log.line(
        '[payment-contract-kit] the state store answers again: state rebuilt from it; requests are served again.',
      );
      log.request(payment(200));
      const written = lines();
      expect(written).toEqual([
        expect.stringMatching(new RegExp(`^POST /graphql ProcessPaymentRequest 503 1\\.0ms ${storeDown}$`)),
        expect.stringContaining(
          `more answers like "POST /graphql ProcessPaymentRequest ${storeDown} 503" in the last 10 s`,
        ),
        expect.stringContaining('more answers like'),
        expect.stringContaining('more answers like'),
        expect.stringContaining('the state store answers again'),
        'POST /graphql ProcessPaymentRequest 200 1.0ms ok',
      ]);
      // Every refusal is the first line or in a count: none is lost from the story.
      expect(counts(written).reduce((a, b) => a + b, 0)).toBe(999);
      expect(written[1]).toMatch(/^\[payment-contract-kit\] 399 more answers /);
    });

    it('a success of another operation does not end the fold; a quiet window does', () => {
      const { log, lines } = collected();
      log.request(payment(503));
      log.request(payment(503));
      log.request(payment(200, 'PaymentGatewayFeesCalc'));
      log.request(payment(503));
      vi.advanceTimersByTime(window);
      expect(counts(lines())).toEqual([2]);
      // A whole window without a repeat: the kind is forgotten, and its next line is written in full.
      vi.advanceTimersByTime(window);
      log.request(payment(503));
      expect(lines().filter((l) => l.startsWith('POST /graphql ProcessPaymentRequest 503'))).toHaveLength(2);
      expect(counts(lines())).toEqual([2]);
    });

    it('a receiver outage: one line per URL and result, summed up, ended by the first delivery to that URL', () => {
      const { log, lines } = collected();
      const down = 'http://127.0.0.1:9/hooks?token=secret';
      const other = 'http://127.0.0.1:8/hooks';
      for (let i = 0; i < 300; i++) log.webhookAttempt(attempt(down, i));
      log.webhookAttempt(attempt(other, 1));
      log.webhookAttempt(attempt(other, 2));
      vi.advanceTimersByTime(window);
      for (let i = 300; i < 400; i++) log.webhookAttempt(attempt(down, i));
      log.webhookAttempt(attempt(down, 400, true));
      log.close();
      const written = lines();
      expect(written).toEqual([
        expect.stringMatching(
          /^WEBHOOK payment p-0 -> http:\/\/127\.0\.0\.1:9\/hooks attempt 1: ECONNREFUSED retry-scheduled/,
        ),
        expect.stringMatching(/^WEBHOOK payment p-1 -> http:\/\/127\.0\.0\.1:8\/hooks attempt 1: ECONNREFUSED/),
        expect.stringContaining(
          '299 more webhook attempts to http://127.0.0.1:9/hooks ended "ECONNREFUSED retry-scheduled"',
        ),
        expect.stringContaining('1 more webhook attempt to http://127.0.0.1:8/hooks ended'),
        expect.stringContaining('100 more webhook attempts to http://127.0.0.1:9/hooks'),
        expect.stringMatching(/^WEBHOOK payment p-400 -> http:\/\/127\.0\.0\.1:9\/hooks attempt 1: 204 delivered/),
      ]);
      expect(written.join('\n')).not.toContain('secret');
    });

    it('by default the first 10 of a kind are written: one delivery retried while debugging reads in full', () => {
      const { log, lines } = collected({});
      const url = 'http://127.0.0.1:9/hooks';
      for (let i = 0; i < 11; i++) log.webhookAttempt({ ...attempt(url, 1), attempt: i + 1 });
      log.webhookAttempt({ ...attempt(url, 1, true), attempt: 12 });
      expect(lines().map((l) => l.replace(/ \d+ms.*$/, ''))).toEqual([
        ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(
          (n) => `WEBHOOK payment p-1 -> ${url} attempt ${n}: ECONNREFUSED retry-scheduled`,
        ),
        expect.stringContaining(`1 more webhook attempt to ${url} ended "ECONNREFUSED retry-scheduled"`),
        `WEBHOOK payment p-1 -> ${url} attempt 12: 204 delivered`,
      ]);
    });

    it('follows at most 256 kinds: a client naming a new operation per request cannot grow memory', () => {
      const { log, lines } = collected();
      for (let i = 0; i < 300; i++) {
        log.request(payment(503, `Op${i}`));
        log.request(payment(503, `Op${i}`));
      }
      const written = lines();
      // 256 kinds folded (their second line counted), the other 44 written in full; close counts the folded ones.
      expect(written).toHaveLength(256 + 44 * 2);
      log.close();
      expect(counts(lines())).toHaveLength(256);
    });

    it('close writes what is still being counted; json summaries are warnings', () => {
      let text = '';
      const log = createRequestLog(
        (chunk) => (text += chunk),
        'json',
        () => Date.UTC(2026, 0, 1),
        { repeatBurst: 1 },
      );
      for (let i = 0; i < 5; i++) log.request(payment(503));
      log.close();
      const json = text
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(json).toHaveLength(2);
      expect(json[0]).toMatchObject({ level: 'error', status: 503, reason: storeDown });
      expect(json[1]).toMatchObject({ level: 'warn', message: expect.stringMatching(/\] 4 more answers like/) });
    });
  });

  describe('request lines off (--quiet)', () => {
    let app: MockApp | undefined;
    afterEach(async () => {
      await app?.close();
      app = undefined;
    });

    it('writes no request or attempt line, but still the pending-cap warnings of refused deliveries', async () => {
      vi.useRealTimers();
      const chunks: string[] = [];
      app = buildNodeMockApp(
        {
          log: (chunk) => chunks.push(chunk),
          requestLog: false,
          settleDelayMs: 1_000,
          assumptions: { history: { ...defaultAssumptions.history, maxPendingDeliveries: 1 } },
        },
        // A receiver that is down: every delivery stays pending, retrying.
        { webhookReceivers: [() => new Response(null, { status: 503 })] },
      );
      const { post } = requestsVia(app.fetch);
      const token = app.control.issueToken('test-client').token;
      const query = print(current.ProcessPaymentRequestDocument);
      for (let i = 0; i < 3; i++) {
        const paid = await post(
          'http://mock.test/graphql',
          { 'x-jwt-token': token },
          { query, variables: { input: payInput() } },
        );
        expect(paid.body.data.processPaymentRequest.uuid).toEqual(expect.any(String));
      }
      app.control.advanceClock(1_000);
      const control = app.control;
      await untilDeliveries(
        control,
        async () => (await control.deliveries()).filter((d) => d.reason === 'pending-cap').length === 2,
      );
      app.flushLog();
      const lines = chunks.join('').trimEnd().split('\n');
      expect(lines).toEqual([expect.stringContaining('webhook deliveries: 1 are pending (the cap')]);
    });
  });
});
