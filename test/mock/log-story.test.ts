// The log tells the story (issue 25 item 3), read as a team debugging its integration reads it: every request's
// outcome in the text and JSON logs and in the journal, including a GraphQL refusal answered with HTTP 200, and one
// line per webhook attempt (payment, URL, attempt, result, next retry), with card numbers masked throughout.
import { print } from 'graphql';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../src/assumptions.ts';
import * as current from '../../src/index.ts';
import { buildNodeMockApp } from '../../src/mock/app.ts';
import type { MockApp, MockLogFormat } from '../../src/mock/index.ts';
import { testCardNumbers } from '../../src/test-values.ts';
import { safeUrl } from '../support/mock-internals/http.ts';
import { credentials, payInput, requestsVia, tokenPaths } from './helpers.ts';

const base = 'http://mock.test';
const reasons = defaultAssumptions.reasonCodes;
let app: MockApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** A mock whose in-process webhook receiver answers `answers` in turn (then 204), with the log collected. */
function mockWith(logFormat: MockLogFormat, answers: number[] = []) {
  const log: string[] = [];
  const receiver = () => new Response(null, { status: answers.shift() ?? 204 });
  app = buildNodeMockApp(
    { log: (chunk) => log.push(chunk), logFormat, realNow: () => Date.UTC(2026, 0, 1, 12) },
    { webhookReceivers: [receiver] },
  );
  const { post } = requestsVia(app.fetch);
  const lines = () => {
    app?.flushLog();
    return log.join('').trimEnd().split('\n');
  };
  return { app, post, lines };
}

const pay = (input: unknown) => ({
  query: print(current.ProcessPaymentRequestDocument),
  variables: { input },
});

/** Token, a 7.3 refusal (HTTP 200), a 7.2 refusal without a token, a REST refusal, then a payment. */
async function story(post: ReturnType<typeof mockWith>['post']) {
  const token = (await post(`${base}${tokenPaths.generate}`, credentials)).body.data.token as string;
  const jwt = { 'x-jwt-token': token };
  const refused = await post(`${base}/graphql`, jwt, pay({ ...payInput(), contact: undefined }));
  expect(refused.status).toBe(200); // the status alone would not tell
  await post(`${base}/graphql`, {}, pay(payInput()));
  await post(`${base}${tokenPaths.generate}`, { ...credentials, 'x-api-key': 'wrong' });
  const paid = await post(`${base}/graphql`, jwt, pay(payInput()));
  return paid.body.data.processPaymentRequest.uuid as string;
}

describe('request outcomes', () => {
  it('text: each line ends with the outcome, 7.3 paths included when the status is 200', async () => {
    const { post, lines } = mockWith('text');
    await story(post);
    expect(lines()).toEqual([
      expect.stringMatching(/^POST \/api\/v2\/accounting\/token\/generate-token - 200 \d+\.\dms ok$/),
      expect.stringMatching(/^POST \/graphql ProcessPaymentRequest 200 \d+\.\dms validation: input\.contact$/),
      expect.stringMatching(new RegExp(`^POST /graphql - 200 \\d+\\.\\dms ${reasons.missingToken}$`)),
      expect.stringMatching(/^POST \/api\/v2\/accounting\/token\/generate-token - 401 \d+\.\dms HTTP 401$/),
      expect.stringMatching(/^POST \/graphql ProcessPaymentRequest 200 \d+\.\dms ok$/),
    ]);
  });

  it('json and the journal carry the same outcome; json adds reason and the 7.3 paths', async () => {
    const { app, post, lines } = mockWith('json');
    await story(post);
    const json = lines().map((l) => JSON.parse(l));
    const outcomes = ['ok', 'validation: input.contact', reasons.missingToken, 'HTTP 401', 'ok'];
    expect(json.map((l) => l.outcome)).toEqual(outcomes);
    expect((await app.control.requests()).map((r) => r.outcome)).toEqual(outcomes);
    expect(json[1]).toMatchObject({ status: 200, reason: null, validation: ['input.contact'] });
    expect(json[2]).toMatchObject({ reason: reasons.missingToken, validation: null });
    expect(json[3]).toMatchObject({ status: 401, level: 'warn', reason: null, validation: null });
  });

  it('a guide mismatch shows its reason beside the 7.3 path', async () => {
    const { app, post } = mockWith('text');
    const token = (await post(`${base}${tokenPaths.generate}`, credentials)).body.data.token as string;
    const { card_number, ...rest } = payInput().credit_card;
    await post(
      `${base}/graphql`,
      { 'x-jwt-token': token },
      pay({ ...payInput(), credit_card: { ...rest, number: card_number } }),
    );
    expect((await app.control.requests()).at(-1)?.outcome).toBe(
      `validation: input.credit_card.number (${reasons.guideMismatch})`,
    );
  });
});

/** Settles the payments and moves the mock clock to each retry until every delivery has finished. */
async function settleAndDeliver(app: MockApp): Promise<void> {
  app.control.advanceClock(app.control.assumptions.settleDelayMs);
  for (;;) {
    const d = await app.control.waitForDelivery((x) => x.state !== 'sending' && x.state !== 'queued');
    if (d.state !== 'retry-scheduled' || d.nextAttemptAt === undefined) return;
    app.control.advanceClock(d.nextAttemptAt - app.control.now());
  }
}

const receiverUrl = 'http://in-process.invalid/webhook-receivers/1';

describe('webhook attempts', () => {
  it('text: one line per attempt with payment uuid, URL, attempt, result and next retry time', async () => {
    const { app, post, lines } = mockWith('text', [503]);
    const uuid = await story(post);
    await settleAndDeliver(app);
    const attempts = lines().filter((l) => l.startsWith('WEBHOOK'));
    const url = receiverUrl;
    expect(attempts).toEqual([
      expect.stringMatching(
        new RegExp(`^WEBHOOK payment ${uuid} -> ${url} attempt 1: 503 retry-scheduled \\d+ms, next attempt at 2026-`),
      ),
      expect.stringMatching(new RegExp(`^WEBHOOK payment ${uuid} -> ${url} attempt 2: 204 delivered \\d+ms$`)),
    ]);
    const [delivery] = await app.control.deliveries();
    const next = new Date(delivery?.attempts[1]?.at ?? 0).toISOString();
    expect(attempts[0]).toContain(`next attempt at ${next}`);
  });

  it('json: one object per attempt, the final failure with its reason', async () => {
    const max = defaultAssumptions.webhook.retry.maxAttempts;
    const { app, post, lines } = mockWith('json', Array(max).fill(500));
    const uuid = await story(post);
    await settleAndDeliver(app);
    const attempts = lines()
      .map((l) => JSON.parse(l))
      .filter((l) => l.event === 'webhook-attempt');
    expect(attempts.map((a) => a.attempt)).toEqual(Array.from({ length: max }, (_, i) => i + 1));
    expect(attempts[0]).toEqual({
      time: expect.any(String),
      level: 'warn',
      event: 'webhook-attempt',
      delivery_id: expect.stringMatching(/^whd_/),
      payment_uuid: uuid,
      url: receiverUrl,
      attempt: 1,
      status: 500,
      error: null,
      ms: expect.any(Number),
      result: 'retry-scheduled',
      reason: null,
      next_attempt_at: expect.stringMatching(/^2026-/),
    });
    expect(attempts.at(-1)).toMatchObject({
      level: 'error',
      result: 'failed',
      reason: 'retries-exhausted',
      next_attempt_at: null,
    });
  });

  it('shows a webhook URL without its user info or query, digits masked', () => {
    expect(safeUrl(`https://user:pw@hooks.test/in/${testCardNumbers.visaSuccess}?token=abc#x`)).toBe(
      'https://hooks.test/in/411111******1111',
    );
  });
});

describe('a payment settled with no webhook URL', () => {
  it('says once that no webhook was sent, and names the flag and the option that set one', async () => {
    const log: string[] = [];
    app = buildNodeMockApp({ log: (chunk) => log.push(chunk), realNow: () => Date.UTC(2026, 0, 1, 12) }, {});
    const { post } = requestsVia(app.fetch);
    const first = await story(post);
    app.control.advanceClock(app.control.assumptions.settleDelayMs);
    await story(post);
    app.control.advanceClock(app.control.assumptions.settleDelayMs);
    expect((await app.control.payments()).filter((p) => p.settledAt !== undefined)).toHaveLength(2);
    app.flushLog();
    const hints = log
      .join('')
      .split('\n')
      .filter((l) => l.includes('no webhook was sent'));
    expect(hints).toEqual([
      `[payment-contract-kit] payment ${first} of client test-client settled and no webhook was sent: no webhook URL is set. Give one with --webhook-url <url> (PCK_WEBHOOK_URL; webhookUrls in code or the --config file, or the client's own webhookUrls), e.g. --webhook-url http://127.0.0.1:4011/webhooks with "payment-contract-kit webhook listen" running to see each delivery. Said once; GET /__pck/payments shows every outcome.`,
    ]);
  });

  it('says nothing of the kind when a URL is set', async () => {
    const { app, post, lines } = mockWith('text');
    await story(post);
    await settleAndDeliver(app);
    expect(lines().filter((l) => l.includes('no webhook was sent'))).toEqual([]);
  });
});
