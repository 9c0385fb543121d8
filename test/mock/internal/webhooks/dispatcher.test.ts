// The delivery engine against a real local receiver that fails on purpose. Every wait of the retry schedule is on
// the virtual clock, so the tests advance it instead of sleeping.
import { afterEach, describe, expect, it } from 'vitest';
import { defaultAssumptions, type WebhookRetryPolicy } from '../../../../src/assumptions.ts';
import { checkStandardWebhookSignature } from '../../../../src/webhook/standard-webhooks.ts';
import { createChanges } from '../../../support/changes.ts';
import { createEventBus, type MockEvent } from '../../../support/mock-internals/domain.ts';
import { type Clock, createClock, createSeededRandom } from '../../../support/mock-internals/foundations.ts';
import { nodeCrypto } from '../../../support/mock-internals/platform.ts';
import {
  createHttpTransport,
  createWebhookDispatcher,
  type DeliveryRecord,
  paymentStatusPayload,
  type WebhookDispatcher,
  type WebhookDispatcherOptions,
} from '../../../support/mock-internals/webhooks.ts';
import { examplePaymentStatus } from '../../../webhook/fixtures.ts';
import { type Received, type Reply, startReceiver, type TestReceiver } from './receiver.ts';

const policy: WebhookRetryPolicy = defaultAssumptions.webhook.retry;
const cleanups: (() => Promise<void> | void)[] = [];
/** This test's receivers: `drain` tells a hanging attempt from one still on its way by asking them. */
const receivers: TestReceiver[] = [];
/**
 * What the waits below wait on: each receiver tells of every request it takes and every answer it finishes, and each
 * dispatcher of every attempt once its outcome is recorded.
 */
const changes = createChanges();
const until = changes.until;

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function receiver(): Promise<TestReceiver> {
  const r = await startReceiver(0, changes.notify);
  receivers.push(r);
  cleanups.push(() => {
    receivers.splice(receivers.indexOf(r), 1);
    return r.close();
  });
  return r;
}

function setup(
  urls: readonly string[],
  overrides: Partial<WebhookDispatcherOptions> = {},
  clock: Clock = createClock(),
): { dispatcher: WebhookDispatcher; clock: Clock } {
  const random = createSeededRandom('webhook-test', nodeCrypto.sha512Hex);
  const dispatcher = createWebhookDispatcher({
    clock,
    urls,
    signingKey: 'test-signing-key',
    headers: {
      signingKey: defaultAssumptions.webhook.signingKeyHeader,
      clientId: defaultAssumptions.webhook.clientIdHeader,
    },
    retry: policy,
    random: () => random.next(),
    transport: createHttpTransport(),
    onAttempt: changes.notify,
    ...overrides,
  });
  cleanups.push(async () => {
    await dispatcher.close();
    clock.dispose();
  });
  return { dispatcher, clock };
}

function event(uuid: string, status = 'success', metadata?: Record<string, unknown>) {
  return {
    clientId: 'test-client',
    paymentUuid: uuid,
    payload: paymentStatusPayload({
      amount: 100,
      payment_gateway_fee: 1.8,
      paid_at: '2026-01-01T00:00:00.000Z',
      uuid,
      status,
      metadata,
    }),
  };
}

/**
 * Drives the clock through every retry until nothing is pending. An attempt still sending is waited for until the
 * receiver holds it unanswered ('hang'); only then is it timed out on the clock, so a slow machine never turns an
 * attempt on its way into a time-out.
 */
async function drain(dispatcher: WebhookDispatcher, clock: Clock, retry = policy): Promise<void> {
  const sending = () => dispatcher.deliveries().filter((d) => d.state === 'sending').length;
  const hanging = () => receivers.reduce((n, r) => n + r.hanging.size, 0);
  for (let step = 0; step < 10_000; step++) {
    await until(() => sending() <= hanging());
    if (sending() > 0) {
      clock.advance(retry.attemptTimeoutMs);
      await until(() => hanging() === 0 || sending() === 0);
      continue;
    }
    const list = dispatcher.deliveries();
    const due = list.filter((d) => d.state === 'retry-scheduled').map((d) => d.nextAttemptAt!);
    if (due.length === 0) return;
    clock.advance(Math.max(0, Math.min(...due) - clock.now()));
  }
  throw new Error('drain did not finish');
}

function only(dispatcher: WebhookDispatcher): DeliveryRecord {
  const list = dispatcher.deliveries();
  expect(list).toHaveLength(1);
  return list[0]!;
}

describe('createWebhookDispatcher: one attempt', () => {
  it('POSTs the payload as JSON with the signing key, client id and delivery id headers', async () => {
    const r = await receiver();
    const { dispatcher } = setup([r.url]);
    dispatcher.enqueue(event('pay-1', 'success', { order: 'A-1' }));
    const d = await dispatcher.waitFor((x) => x.state === 'delivered');
    expect(r.received).toHaveLength(1);
    const got = r.received[0]!;
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['x-webhook-signing-key']).toBe('test-signing-key');
    expect(got.headers['x-client-id']).toBe('test-client');
    expect(got.headers['x-webhook-delivery-id']).toBe(d.id);
    expect(JSON.parse(got.body)).toEqual(examplePaymentStatus);
    expect(d.attempts).toEqual([expect.objectContaining({ number: 1, status: 200 })]);
    expect(d.attempts[0]!.ms).toBeGreaterThanOrEqual(0);
    expect(d.eventType).toBe(defaultAssumptions.webhook.eventType);
  });

  it('tells each attempt and the end on the event bus, each event with the same keys in the same order', async () => {
    const r = await receiver();
    const events = createEventBus();
    const told: MockEvent[] = [];
    events.on((e) => told.push(e));
    const { dispatcher, clock } = setup([r.url], { events });
    r.reply = () => ({ status: 500 });
    dispatcher.enqueue(event('pay-1'));
    const first = await dispatcher.waitFor((x) => x.state === 'retry-scheduled');
    r.reply = () => ({ status: 200 });
    clock.advance(first.nextAttemptAt! - clock.now());
    const d = await dispatcher.waitFor((x) => x.state === 'delivered');
    const [a1, a2] = d.attempts;
    const attempted = (a: typeof a1, status: number) => ({
      ...{ kind: 'delivery.attempted', deliveryId: d.id, uuid: 'pay-1', attempt: a!.number, status },
      ...{ error: undefined, url: r.url, at: a!.at },
    });
    expect(told).toEqual([
      attempted(a1, 500),
      attempted(a2, 200),
      {
        ...{ kind: 'delivery.finished', deliveryId: d.id, uuid: 'pay-1', url: r.url, state: 'delivered' },
        ...{ reason: undefined, delivered: true, attempts: 2 },
      },
    ]);
    expect(Object.keys(told[0]!)).toEqual(['kind', 'deliveryId', 'uuid', 'attempt', 'status', 'error', 'url', 'at']);
    expect(Object.keys(told[2]!)).toEqual([
      ...['kind', 'deliveryId', 'uuid', 'url', 'state'],
      ...['reason', 'delivered', 'attempts'],
    ]);
  });

  it('uses the header names it is given', async () => {
    const r = await receiver();
    const { dispatcher } = setup([r.url], { headers: { signingKey: 'x-sig', clientId: 'x-cid', deliveryId: 'x-did' } });
    dispatcher.enqueue(event('pay-1'));
    const d = await dispatcher.waitFor((x) => x.state === 'delivered');
    expect(r.received[0]!.headers).toMatchObject({
      'x-sig': 'test-signing-key',
      'x-cid': 'test-client',
      'x-did': d.id,
    });
  });

  it('sends each event to every registered URL, each with its own delivery', async () => {
    const a = await receiver();
    const b = await receiver();
    const { dispatcher } = setup([a.url, b.url]);
    dispatcher.enqueue(event('pay-1'));
    await until(() => dispatcher.deliveries().every((d) => d.state === 'delivered'));
    expect(a.received).toHaveLength(1);
    expect(b.received).toHaveLength(1);
    expect(new Set(dispatcher.deliveries().map((d) => d.id)).size).toBe(2);
  });

  it('signs with Standard Webhooks when asked, verifiable over the raw body', async () => {
    const r = await receiver();
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const { dispatcher } = setup([r.url], {
      standardWebhooks: { secret, hmacSha256Base64: nodeCrypto.hmacSha256Base64 },
    });
    dispatcher.enqueue(event('pay-1'));
    const d = await dispatcher.waitFor((x) => x.state === 'delivered');
    const got = r.received[0]!;
    expect(got.headers['webhook-id']).toBe(d.id);
    const verified = checkStandardWebhookSignature({ headers: got.headers, rawBody: got.body, secret });
    expect(verified).toEqual({ ok: true, id: d.id, timestamp: Number(got.headers['webhook-timestamp']) });
  });

  it('sends no Standard Webhooks headers by default', async () => {
    const r = await receiver();
    const { dispatcher } = setup([r.url]);
    dispatcher.enqueue(event('pay-1'));
    await dispatcher.waitFor((x) => x.state === 'delivered');
    expect(r.received[0]!.headers['webhook-signature']).toBeUndefined();
  });

  it('rejects a relative URL when created, naming the fix', () => {
    expect(() => setup(['/webhooks'])).toThrow(
      /\[payment-contract-kit\] webhook URL "\/webhooks" is not an absolute URL/,
    );
  });
});

describe('createWebhookDispatcher: retries on the virtual clock', () => {
  it('retries after connection refused until the receiver listens again', async () => {
    const r = await receiver();
    await r.stop();
    const { dispatcher, clock } = setup([r.url]);
    dispatcher.enqueue(event('pay-1'));
    let d = await dispatcher.waitFor((x) => x.state === 'retry-scheduled');
    expect(d.attempts[0]!.error).toBe('ECONNREFUSED');
    // Second attempt, still refused.
    clock.advance(d.nextAttemptAt! - clock.now());
    d = await dispatcher.waitFor((x) => x.attempts.length === 2 && x.state === 'retry-scheduled');
    await r.start();
    clock.advance(d.nextAttemptAt! - clock.now());
    d = await dispatcher.waitFor((x) => x.state === 'delivered');
    expect(d.attempts.map((a) => a.error ?? a.status)).toEqual(['ECONNREFUSED', 'ECONNREFUSED', 200]);
    expect(r.received).toHaveLength(1);
  });

  it('retries on 500 with the same delivery id and body on every attempt', async () => {
    const r = await receiver();
    r.reply = (_, i) => ({ status: i < 2 ? 500 : 204 });
    const { dispatcher, clock } = setup([r.url]);
    dispatcher.enqueue(event('pay-1'));
    await drain(dispatcher, clock);
    const d = only(dispatcher);
    expect(d.state).toBe('delivered');
    expect(d.attempts.map((a) => a.status)).toEqual([500, 500, 204]);
    expect(new Set(r.received.map((x) => x.deliveryId))).toEqual(new Set([d.id]));
    expect(new Set(r.received.map((x) => x.body)).size).toBe(1);
  });

  it('times out an attempt that hangs past attemptTimeoutMs (on the clock) and retries it', async () => {
    const r = await receiver();
    r.reply = (_, i) => (i === 0 ? 'hang' : { status: 200 });
    // Real time frozen: were the timeout a real timer it would need 10 s, past waitFor's 5 s, and the test fails.
    const { dispatcher, clock } = setup([r.url], {}, createClock({ realNow: () => 0 }));
    dispatcher.enqueue(event('pay-1'));
    await until(() => r.received.length === 1);
    expect(only(dispatcher).state).toBe('sending');
    clock.advance(policy.attemptTimeoutMs);
    let d = await dispatcher.waitFor((x) => x.state === 'retry-scheduled');
    expect(d.attempts[0]!.error).toBe('timeout');
    clock.advance(d.nextAttemptAt! - clock.now());
    d = await dispatcher.waitFor((x) => x.state === 'delivered');
    expect(d.attempts.map((a) => a.error ?? a.status)).toEqual(['timeout', 200]);
  });

  it('walks the whole default schedule (hours of virtual time) in real milliseconds, then keeps the delivery as failed', async () => {
    const r = await receiver();
    r.reply = () => ({ status: 500 });
    // Real time frozen, so every gap is exactly what the schedule chose and only the clock's advances move time.
    const { dispatcher, clock } = setup([r.url], {}, createClock({ realNow: () => 0 }));
    const startedVirtual = clock.now();
    dispatcher.enqueue(event('pay-1'));
    await drain(dispatcher, clock);
    const d = only(dispatcher);
    expect(d.state).toBe('failed');
    expect(d.reason).toBe('retries-exhausted');
    expect(d.attempts).toHaveLength(policy.maxAttempts);
    expect(r.received).toHaveLength(policy.maxAttempts);
    // Each gap follows the backoff: base × multiplier^(n-1), capped, within ±jitter.
    for (let n = 1; n < d.attempts.length; n++) {
      const gap = d.attempts[n]!.at - d.attempts[n - 1]!.at;
      const base = Math.min(policy.maxDelayMs, policy.initialDelayMs * policy.multiplier ** (n - 1));
      expect(gap).toBeGreaterThanOrEqual(Math.floor(base * (1 - policy.jitter)));
      expect(gap).toBeLessThanOrEqual(Math.min(policy.maxDelayMs, Math.ceil(base * (1 + policy.jitter))));
    }
    expect(clock.now() - startedVirtual).toBeGreaterThan(5 * 60 * 60 * 1000);
  });

  it('gives the same schedule for the same seed (jitter comes from the injected random)', async () => {
    const gaps: number[][] = [];
    for (let run = 0; run < 2; run++) {
      const r = await receiver();
      r.reply = () => ({ status: 503 });
      // Real time frozen: only the clock's own advances move it, so the gaps are exactly the scheduled delays
      // (a moving real clock added each attempt's real milliseconds, which a loaded machine stretches).
      const frozen = createClock({ realNow: () => 0 });
      const { dispatcher, clock } = setup([r.url], { retry: { ...policy, maxAttempts: 4 } }, frozen);
      dispatcher.enqueue(event('pay-1'));
      await drain(dispatcher, clock);
      const at = only(dispatcher).attempts.map((a) => a.at);
      gaps.push(at.slice(1).map((t, i) => t - at[i]!));
    }
    expect(gaps[0]).toHaveLength(3);
    expect(gaps[1]).toEqual(gaps[0]);
  });

  it('redelivers a failed delivery with the same id and a fresh retry budget', async () => {
    const r = await receiver();
    r.reply = () => ({ status: 500 });
    const retry = { ...policy, maxAttempts: 3 };
    const { dispatcher, clock } = setup([r.url], { retry });
    dispatcher.enqueue(event('pay-1'));
    await drain(dispatcher, clock, retry);
    const failed = only(dispatcher);
    expect(failed.state).toBe('failed');
    r.reply = () => ({ status: 200 });
    dispatcher.redeliver(failed.id);
    const d = await dispatcher.waitFor((x) => x.state === 'delivered');
    expect(d.id).toBe(failed.id);
    expect(d.redeliveries).toBe(1);
    expect(d.attempts.map((a) => a.status)).toEqual([500, 500, 500, 200]);
    expect(r.received.at(-1)!.deliveryId).toBe(failed.id);
  });

  it('refuses to redeliver what is still in progress or unknown', async () => {
    const r = await receiver();
    r.reply = () => ({ status: 500 });
    const { dispatcher } = setup([r.url]);
    dispatcher.enqueue(event('pay-1'));
    const d = await dispatcher.waitFor((x) => x.state === 'retry-scheduled');
    expect(dispatcher.redeliver(d.id)).toEqual({
      ok: false,
      problem: 'in-progress',
      message: expect.stringMatching(
        /is retry-scheduled: only a failed, gone or delivered .* advancing the mock clock/,
      ),
    });
    expect(dispatcher.redeliver('nope')).toMatchObject({
      ok: false,
      problem: 'unknown',
      message: expect.stringContaining('No webhook delivery with id "nope"'),
    });
  });
});

describe('createWebhookDispatcher: 410 and 429', () => {
  it('410 Gone stops retries, retires the URL, records later events as gone, and redeliver re-enables it', async () => {
    const r = await receiver();
    r.reply = () => ({ status: 410 });
    const { dispatcher } = setup([r.url]);
    dispatcher.enqueue(event('pay-1'));
    const gone = await dispatcher.waitFor((x) => x.state === 'gone');
    expect(gone.reason).toBe('receiver-gone');
    expect(gone.attempts).toHaveLength(1);
    dispatcher.enqueue(event('pay-2'));
    const skipped = await dispatcher.waitFor((x) => x.paymentUuid === 'pay-2');
    expect(skipped).toMatchObject({ state: 'gone', reason: 'url-gone', attempts: [] });
    expect(r.received).toHaveLength(1);

    r.reply = () => ({ status: 200 });
    dispatcher.redeliver(gone.id);
    await dispatcher.waitFor((x) => x.id === gone.id && x.state === 'delivered');
    dispatcher.redeliver(skipped.id);
    await dispatcher.waitFor((x) => x.id === skipped.id && x.state === 'delivered');
    expect(r.received.map((x) => x.json.uuid)).toEqual(['pay-1', 'pay-1', 'pay-2']);
  });

  it('429 with Retry-After in seconds schedules the next attempt exactly that far (no jitter)', async () => {
    const r = await receiver();
    r.reply = (_, i) => (i === 0 ? { status: 429, headers: { 'retry-after': '120' } } : { status: 200 });
    const { dispatcher, clock } = setup([r.url]);
    dispatcher.enqueue(event('pay-1'));
    const d = await dispatcher.waitFor((x) => x.state === 'retry-scheduled');
    expect(d.nextAttemptAt! - d.attempts[0]!.at).toBeGreaterThanOrEqual(120_000);
    expect(d.nextAttemptAt! - d.attempts[0]!.at).toBeLessThan(120_000 + 1_000);
    clock.advance(119_000);
    expect(dispatcher.deliveries()[0]!.state).toBe('retry-scheduled');
    clock.advance(d.nextAttemptAt! - clock.now());
    await dispatcher.waitFor((x) => x.state === 'delivered');
  });

  it('429 with Retry-After as an HTTP date waits until that date by the receiver clock', async () => {
    const r = await receiver();
    r.reply = (_, i) =>
      i === 0
        ? { status: 429, headers: { 'retry-after': new Date(Date.now() + 3_600_000).toUTCString() } }
        : { status: 200 };
    const { dispatcher } = setup([r.url]);
    dispatcher.enqueue(event('pay-1'));
    const d = await dispatcher.waitFor((x) => x.state === 'retry-scheduled');
    const wait = d.nextAttemptAt! - d.attempts[0]!.at;
    // HTTP dates have whole seconds.
    expect(wait).toBeGreaterThan(3_600_000 - 2_000);
    expect(wait).toBeLessThan(3_600_000 + 2_000);
  });
});

describe('createWebhookDispatcher: ordering per payment', () => {
  it('holds a later event of the same payment until the earlier one is delivered; other payments go ahead', async () => {
    const r = await receiver();
    r.reply = (got) => (got.json.uuid === 'pay-1' && got.json.status === 'first' ? { status: 500 } : { status: 200 });
    const { dispatcher, clock } = setup([r.url]);
    dispatcher.enqueue(event('pay-1', 'first'));
    dispatcher.enqueue(event('pay-1', 'second'));
    dispatcher.enqueue(event('pay-2', 'first'));
    await dispatcher.waitFor((x) => x.paymentUuid === 'pay-2' && x.state === 'delivered');
    const [first, second] = dispatcher.deliveries();
    expect(first!.state).toBe('retry-scheduled');
    expect(second!.state).toBe('queued');
    expect(r.received.filter((x) => x.json.status === 'second')).toHaveLength(0);
    r.reply = () => ({ status: 200 });
    clock.advance(first!.nextAttemptAt! - clock.now());
    await dispatcher.waitFor((x) => x.id === second!.id && x.state === 'delivered');
    expect(r.received.filter((x) => x.json.uuid === 'pay-1').map((x) => x.json.status)).toEqual([
      'first',
      'first',
      'second',
    ]);
  });

  it('lets the next event go once the earlier one has failed for good', async () => {
    const r = await receiver();
    r.reply = (got) => ({ status: got.json.status === 'first' ? 500 : 200 });
    const retry = { ...policy, maxAttempts: 2 };
    const { dispatcher, clock } = setup([r.url], { retry });
    dispatcher.enqueue(event('pay-1', 'first'));
    dispatcher.enqueue(event('pay-1', 'second'));
    await drain(dispatcher, clock, retry);
    expect(dispatcher.deliveries().map((d) => d.state)).toEqual(['failed', 'delivered']);
  });
});

describe('createWebhookDispatcher: a hostile receiver loses nothing', () => {
  it('every event of every payment is processed once by a deduplicating receiver, in order per payment', async () => {
    const r = await receiver();
    await r.stop(); // connection refused at first
    const { dispatcher, clock } = setup([r.url]);
    const payments = Array.from({ length: 30 }, (_, i) => `pay-${i}`);
    for (const uuid of payments) {
      dispatcher.enqueue(event(uuid, 'success', { seq: 1 }));
      dispatcher.enqueue(event(uuid, 'success', { seq: 2 }));
    }
    await until(() => dispatcher.deliveries().every((d) => d.state === 'retry-scheduled' || d.state === 'queued'));
    await r.start();

    // The receiver's own bookkeeping, as a real one would keep it: processed delivery ids, and order per payment.
    const processed = new Set<string>();
    const order = new Map<string, number[]>();
    let duplicates = 0;
    const seen = new Map<string, number>();
    const behaviours: ((got: Received) => Reply)[] = [
      () => ({ status: 500 }),
      () => ({ status: 429, headers: { 'retry-after': '30' } }),
      () => 'hang',
      () => ({ status: 200 }),
      // Processes the event, then fails to say so: the retry is a duplicate the receiver must recognise.
      (got) => {
        process(got);
        return { status: 502 };
      },
    ];
    function process(got: Received) {
      if (processed.has(got.deliveryId)) {
        duplicates++;
        return;
      }
      processed.add(got.deliveryId);
      order.set(got.json.uuid, [...(order.get(got.json.uuid) ?? []), got.json.metadata?.seq as number]);
    }
    r.reply = (got) => {
      const n = seen.get(got.deliveryId) ?? 0;
      seen.set(got.deliveryId, n + 1);
      // First contact misbehaves in a way chosen by the id; later contacts succeed.
      const pick =
        n === 0 ? behaviours[got.deliveryId.charCodeAt(got.deliveryId.length - 1) % behaviours.length]! : null;
      if (!pick) {
        process(got);
        return { status: 200 };
      }
      const reply = pick(got);
      if (typeof reply === 'object' && reply.status === 200) process(got);
      return reply;
    };

    await drain(dispatcher, clock);

    const list = dispatcher.deliveries();
    expect(list).toHaveLength(60);
    expect(list.filter((d) => d.state !== 'delivered')).toEqual([]);
    expect(processed.size).toBe(60);
    expect(new Set(list.map((d) => d.id))).toEqual(processed);
    for (const uuid of payments) expect(order.get(uuid)).toEqual([1, 2]);
    expect(duplicates).toBeGreaterThan(0);
  });
});

describe('createWebhookDispatcher: failures are recorded, never thrown', () => {
  it('a payload that cannot be serialised is a failed delivery (payload-error), reported, never sent', async () => {
    const r = await receiver();
    const problems: string[] = [];
    const { dispatcher } = setup([r.url], { onProblem: (line) => problems.push(line) });
    const metadata: Record<string, unknown> = { order: 'A-1' };
    metadata.self = metadata;
    expect(() => dispatcher.enqueue(event('pay-1', 'success', metadata))).not.toThrow();
    dispatcher.enqueue(event('pay-2'));
    await dispatcher.waitFor((x) => x.paymentUuid === 'pay-2' && x.state === 'delivered');
    const failed = dispatcher.deliveries()[0]!;
    expect(failed).toMatchObject({ state: 'failed', reason: 'payload-error', attempts: [], body: '' });
    expect(failed.error).toMatch(/^the payload could not be serialised to JSON \(TypeError: Converting circular/);
    expect(failed.payload).not.toHaveProperty('metadata');
    expect(JSON.stringify(dispatcher.deliveries())).toContain('payload-error');
    expect(problems).toEqual([expect.stringMatching(/webhook of payment pay-1 not sent: .*payload-error/)]);
    expect(r.received.map((x) => x.json.uuid)).toEqual(['pay-2']);
    expect(dispatcher.redeliver(failed.id)).toMatchObject({ ok: false, problem: 'unsendable' });
  });

  it("an event whose payload its caller could not build is recorded with the caller's problem", () => {
    const { dispatcher } = setup(['http://127.0.0.1:9/never']);
    dispatcher.enqueue({ ...event('pay-1'), problem: 'the payload could not be built (Error: getter)' });
    expect(dispatcher.deliveries()[0]).toMatchObject({
      state: 'failed',
      reason: 'payload-error',
      error: 'the payload could not be built (Error: getter)',
    });
  });

  it('redeliver of a queued delivery is refused as in progress', async () => {
    const r = await receiver();
    r.reply = () => ({ status: 500 });
    const { dispatcher } = setup([r.url]);
    dispatcher.enqueue(event('pay-1', 'first'));
    dispatcher.enqueue(event('pay-1', 'second'));
    await dispatcher.waitFor((x) => x.state === 'retry-scheduled');
    const queued = dispatcher.deliveries()[1]!;
    expect(queued.state).toBe('queued');
    expect(dispatcher.redeliver(queued.id)).toMatchObject({
      ok: false,
      problem: 'in-progress',
      message: expect.stringContaining('is queued'),
    });
  });

  it('close() resolves with the deliveries it ended, and refuses redelivery afterwards', async () => {
    const r = await receiver();
    r.reply = () => ({ status: 500 });
    const { dispatcher } = setup([r.url]);
    dispatcher.enqueue(event('pay-1'));
    await dispatcher.waitFor((x) => x.state === 'retry-scheduled');
    const ended = await dispatcher.close();
    expect(ended).toEqual([expect.objectContaining({ paymentUuid: 'pay-1', state: 'failed', reason: 'closed' })]);
    expect(await dispatcher.close()).toEqual([]);
    expect(dispatcher.redeliver(ended[0]!.id)).toMatchObject({ ok: false, problem: 'closed' });
  });
});

describe('createWebhookDispatcher: lifecycle', () => {
  it('close() aborts an in-flight attempt and keeps the delivery as failed (closed)', async () => {
    const r = await receiver();
    r.reply = () => 'hang';
    const { dispatcher } = setup([r.url]);
    dispatcher.enqueue(event('pay-1'));
    await until(() => r.received.length === 1);
    await dispatcher.close();
    const d = only(dispatcher);
    expect(d).toMatchObject({ state: 'failed', reason: 'closed' });
    expect(d.attempts.at(-1)!.error).toBe('closed');
    dispatcher.enqueue(event('pay-2'));
    expect(dispatcher.deliveries()[1]).toMatchObject({ state: 'failed', reason: 'closed' });
  });

  it('close() cancels scheduled retries (nothing fires afterwards)', async () => {
    const r = await receiver();
    r.reply = () => ({ status: 500 });
    const { dispatcher, clock } = setup([r.url]);
    dispatcher.enqueue(event('pay-1'));
    await dispatcher.waitFor((x) => x.state === 'retry-scheduled');
    await dispatcher.close();
    // The retry was a task on the virtual clock; none is left, so advancing it cannot start an attempt.
    expect(clock.pending()).toBe(0);
    clock.advance(24 * 60 * 60 * 1000);
    // An attempt marks its delivery `sending` in the clock task that starts it, before anything goes out.
    expect(only(dispatcher)).toMatchObject({ state: 'failed', reason: 'closed' });
    expect(r.received).toHaveLength(1);
  });

  it('reset() forgets every delivery and cancels its retries', async () => {
    const r = await receiver();
    r.reply = () => ({ status: 500 });
    const { dispatcher, clock } = setup([r.url]);
    dispatcher.enqueue(event('pay-1'));
    await dispatcher.waitFor((x) => x.state === 'retry-scheduled');
    dispatcher.reset();
    expect(dispatcher.deliveries()).toEqual([]);
    // The retry was a task on the virtual clock; none is left, so advancing it cannot start an attempt.
    expect(clock.pending()).toBe(0);
    clock.advance(24 * 60 * 60 * 1000);
    expect(r.received).toHaveLength(1);
    r.reply = () => ({ status: 200 });
    dispatcher.enqueue(event('pay-2'));
    await dispatcher.waitFor((x) => x.state === 'delivered');
  });

  it('waitFor rejects after timeoutMs with what it saw and how to move on', async () => {
    const r = await receiver();
    r.reply = () => ({ status: 500 });
    const { dispatcher } = setup([r.url]);
    dispatcher.enqueue(event('pay-1'));
    await expect(dispatcher.waitFor((x) => x.state === 'delivered', { timeoutMs: 50 })).rejects.toThrow(
      /\[payment-contract-kit\] no webhook delivery matched within 50 ms\. Deliveries: .*retry-scheduled.*advance the mock clock/,
    );
  });
});
