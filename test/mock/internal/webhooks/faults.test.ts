// Webhook delivery against real receivers that misbehave in every way the issue lists, 120 events per fault (60
// payments × 2 events), over real HTTP. Retries and attempt timeouts run on the virtual clock. For each fault: every
// event ends in a final state, each is acknowledged exactly once by delivery id when the receiver recovers, the two
// events of a payment arrive in order, and the counts are printed.
import { afterEach, describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../../../src/assumptions.ts';
import { createChanges } from '../../../support/changes.ts';
import { type Clock, createClock, createSeededRandom } from '../../../support/mock-internals/foundations.ts';
import { nodeCrypto } from '../../../support/mock-internals/platform.ts';
import {
  createHttpTransport,
  createWebhookDispatcher,
  type DeliveryRecord,
  paymentStatusPayload,
  type WebhookDispatcher,
} from '../../../support/mock-internals/webhooks.ts';
import { type Received, type Reply, startReceiver, type TestReceiver } from './receiver.ts';

const policy = defaultAssumptions.webhook.retry;
const PAYMENTS = 60;
const EVENTS = PAYMENTS * 2;
const cleanups: (() => Promise<unknown> | undefined)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * What the waits below wait on: each receiver tells of every request it takes and every answer it finishes, and each
 * dispatcher of every attempt once its outcome is recorded.
 */
const changes = createChanges();
const until = changes.until;

async function receiver(): Promise<TestReceiver> {
  const r = await startReceiver(0, changes.notify);
  cleanups.push(() => r.close());
  return r;
}

function setup(
  url: string,
  onProblem?: (line: string) => void,
  realNow?: () => number,
): { dispatcher: WebhookDispatcher; clock: Clock } {
  const clock = createClock(realNow ? { realNow } : {});
  const random = createSeededRandom('webhook-faults', nodeCrypto.sha512Hex);
  const dispatcher = createWebhookDispatcher({
    clock,
    urls: [url],
    signingKey: 'test-signing-key',
    headers: {
      signingKey: defaultAssumptions.webhook.signingKeyHeader,
      clientId: defaultAssumptions.webhook.clientIdHeader,
    },
    retry: policy,
    random: () => random.next(),
    transport: createHttpTransport(),
    onAttempt: changes.notify,
    ...(onProblem ? { onProblem } : {}),
  });
  cleanups.push(async () => {
    await dispatcher.close();
    clock.dispose();
  });
  return { dispatcher, clock };
}

/** Two events per payment (seq 1 then 2), payments interleaved. */
function enqueueAll(dispatcher: WebhookDispatcher): void {
  for (const seq of [1, 2])
    for (let p = 0; p < PAYMENTS; p++) {
      const uuid = `pay-${p}`;
      const payload = paymentStatusPayload({
        amount: 100 + p,
        payment_gateway_fee: 1.8,
        paid_at: '2026-01-01T00:00:00.000Z',
        uuid,
        status: seq === 1 ? 'processing' : 'success',
        metadata: { seq },
      });
      dispatcher.enqueue({ clientId: 'test-client', paymentUuid: uuid, payload });
    }
}

/**
 * Walks the retry schedule on the virtual clock until every delivery is final: lets attempts in flight reach an
 * answer (or a hanging receiver), times hanging ones out by advancing the attempt timeout, and advances to the
 * latest due retry otherwise.
 */
async function drain(dispatcher: WebhookDispatcher, clock: Clock, receivers: readonly TestReceiver[]): Promise<void> {
  const sending = () => dispatcher.deliveries().filter((d) => d.state === 'sending');
  const attempts = () => dispatcher.deliveries().reduce((n, d) => n + d.attempts.length, 0);
  /** The current attempt of `d` reached a receiver, which chose to hang it. */
  const hangingAt = (d: DeliveryRecord) => {
    const contacts = receivers.flatMap((r) => r.received.filter((x) => x.deliveryId === d.id));
    return contacts.length > d.attempts.length && contacts.at(-1)!.answer === 'hang';
  };
  for (let step = 0; step < 1_000; step++) {
    await until(() => sending().every(hangingAt));
    const hung = sending().length;
    if (hung > 0) {
      // Every attempt in flight waits on a hanging receiver: time them out, and wait until each is recorded.
      const before = attempts();
      clock.advance(policy.attemptTimeoutMs);
      await until(() => attempts() >= before + hung);
      continue;
    }
    const due = dispatcher
      .deliveries()
      .filter((d) => d.state === 'retry-scheduled')
      .map((d) => d.nextAttemptAt!);
    if (due.length === 0) return;
    clock.advance(Math.max(0, Math.max(...due) - clock.now()));
  }
  throw new Error('drain did not finish');
}

/** Fails the first `times` contacts of each delivery with `fault`, then answers 200. */
function failFirst(times: number, fault: (got: Received) => Reply): (got: Received) => Reply {
  const contacts = new Map<string, number>();
  return (got) => {
    const n = contacts.get(got.deliveryId) ?? 0;
    contacts.set(got.deliveryId, n + 1);
    return n < times ? fault(got) : { status: 200 };
  };
}

/** Checks the outcome every fault must give, prints the counts, and returns them. */
function expectAllDeliveredOnce(name: string, list: readonly DeliveryRecord[], r: TestReceiver) {
  const ids = new Set(list.map((d) => d.id));
  const acked = new Map<string, number>();
  for (const got of r.acknowledged) acked.set(got.deliveryId, (acked.get(got.deliveryId) ?? 0) + 1);
  const lost = [...ids].filter((id) => !acked.has(id)).length;
  const duplicates = [...acked.values()].filter((n) => n > 1).length;
  const attempts = list.reduce((n, d) => n + d.attempts.length, 0);
  console.info(
    `[webhook faults] ${name}: events=${list.length} delivered=${list.filter((d) => d.state === 'delivered').length} acknowledged=${acked.size} lost=${lost} acknowledged-twice=${duplicates} attempts=${attempts}`,
  );
  expect(list).toHaveLength(EVENTS);
  expect(ids.size).toBe(EVENTS);
  expect(list.filter((d) => d.state !== 'delivered')).toEqual([]);
  expect(lost).toBe(0);
  expect(duplicates).toBe(0);
  expect(new Set(acked.keys())).toEqual(ids);
  // Order per payment at the receiver: seq 1 acknowledged before seq 2.
  const order = new Map<string, unknown[]>();
  for (const got of r.acknowledged)
    order.set(got.json.uuid, [...(order.get(got.json.uuid) ?? []), got.json.metadata?.seq]);
  expect(order.size).toBe(PAYMENTS);
  for (const seqs of order.values()) expect(seqs).toEqual([1, 2]);
  return { attempts };
}

describe('webhook faults: 120 events per fault kind, 0 lost', () => {
  it.each<[string, (got: Received) => Reply, (number | string)[]]>([
    ['500 Internal Server Error', () => ({ status: 500 }), [500, 500, 200]],
    ['503 Service Unavailable', () => ({ status: 503 }), [503, 503, 200]],
    ['429 with Retry-After', () => ({ status: 429, headers: { 'retry-after': '30' } }), [429, 429, 200]],
    ['hanging past the attempt timeout', () => 'hang', ['timeout', 'timeout', 200]],
    ['reset mid-response', () => 'reset', ['ECONNRESET', 'ECONNRESET', 200]],
  ])('%s, twice per event, then recovering', async (name, fault, wantAttempts) => {
    const r = await receiver();
    r.reply = failFirst(2, fault);
    const { dispatcher, clock } = setup(r.url);
    enqueueAll(dispatcher);
    await drain(dispatcher, clock, [r]);
    const list = dispatcher.deliveries();
    const { attempts } = expectAllDeliveredOnce(name, list, r);
    expect(attempts).toBe(EVENTS * 3);
    for (const d of list) expect(d.attempts.map((a) => a.error ?? a.status)).toEqual(wantAttempts);
  });

  it('429 Retry-After is honoured on the virtual clock: no retry before the asked time', async () => {
    const r = await receiver();
    r.reply = failFirst(1, () => ({ status: 429, headers: { 'retry-after': '120' } }));
    // Real time stands still: only the advances below move the clock, so a loaded host's slow second between the
    // retries' scheduling and the advance cannot bring them due.
    const real = Date.now();
    const { dispatcher, clock } = setup(r.url, undefined, () => real);
    enqueueAll(dispatcher);
    await until(() => dispatcher.deliveries().every((d) => d.state === 'retry-scheduled' || d.state === 'queued'));
    for (const d of dispatcher.deliveries().filter((x) => x.state === 'retry-scheduled'))
      expect(d.nextAttemptAt! - d.attempts[0]!.at).toBeGreaterThanOrEqual(120_000);
    const scheduled = dispatcher.deliveries().filter((d) => d.state === 'retry-scheduled').length;
    expect(scheduled).toBeGreaterThan(0);
    clock.advance(119_000);
    // A retry starts in the clock task that is due, marking its delivery `sending` before anything goes out: none
    // may have left `retry-scheduled` a second early.
    expect(dispatcher.deliveries().filter((d) => d.state === 'retry-scheduled')).toHaveLength(scheduled);
    expect(r.received).toHaveLength(PAYMENTS);
    await drain(dispatcher, clock, [r]);
    expectAllDeliveredOnce('429 Retry-After: 120', dispatcher.deliveries(), r);
  });

  it.each([301, 302, 307])('%s redirect: not followed, counted as a failed attempt', async (status) => {
    const trap = await receiver();
    const r = await receiver();
    r.reply = failFirst(2, () => ({ status, headers: { location: trap.url } }));
    const { dispatcher, clock } = setup(r.url);
    enqueueAll(dispatcher);
    await drain(dispatcher, clock, [r]);
    const list = dispatcher.deliveries();
    expectAllDeliveredOnce(`${status} redirect`, list, r);
    for (const d of list) expect(d.attempts.map((a) => a.status)).toEqual([status, status, 200]);
    expect(trap.received).toHaveLength(0);
  });

  it('refusing connections, then listening again', async () => {
    const r = await receiver();
    await r.stop();
    const { dispatcher, clock } = setup(r.url);
    enqueueAll(dispatcher);
    await until(() => dispatcher.deliveries().every((d) => d.state === 'retry-scheduled' || d.state === 'queued'));
    // One more round of refusals, then the receiver comes back.
    const due = dispatcher.deliveries().flatMap((d) => (d.nextAttemptAt === undefined ? [] : [d.nextAttemptAt]));
    clock.advance(Math.max(...due) - clock.now());
    await until(() => dispatcher.deliveries().every((d) => d.attempts.length === 2 || d.state === 'queued'));
    await r.start();
    await drain(dispatcher, clock, [r]);
    const list = dispatcher.deliveries();
    expectAllDeliveredOnce('connection refused', list, r);
    // The first event of each payment met the refusals; the second waited behind it (ordering), then went through.
    for (const d of list)
      expect(d.attempts.map((a) => a.error ?? a.status)).toEqual(
        d.payload.status === 'processing' ? ['ECONNREFUSED', 'ECONNREFUSED', 200] : [200],
      );
  });

  it('410 Gone: every event is visible as gone, none sent after the first; redelivery delivers them all in order', async () => {
    const r = await receiver();
    r.reply = () => ({ status: 410 });
    const { dispatcher } = setup(r.url);
    enqueueAll(dispatcher);
    await until(() => dispatcher.deliveries().every((d) => d.state === 'gone'));
    const gone = dispatcher.deliveries();
    // The first events of different payments went out together; each answered 410. Nothing was sent after that.
    const answered = gone.filter((d) => d.reason === 'receiver-gone');
    expect(answered.length).toBe(r.received.length);
    expect(answered.length).toBeGreaterThanOrEqual(1);
    expect(gone.filter((d) => d.reason === 'url-gone')).toHaveLength(EVENTS - answered.length);
    expect(gone.filter((d) => d.payload.status === 'success' && d.reason !== 'url-gone')).toEqual([]);
    console.info(`[webhook faults] 410 Gone: events=${gone.length} gone=${gone.length} sent=${r.received.length}`);
    r.reply = () => ({ status: 200 });
    for (const d of gone) expect(dispatcher.redeliver(d.id)).toEqual({ ok: true });
    await until(() => dispatcher.deliveries().every((d) => d.state === 'delivered'));
    expectAllDeliveredOnce('410 Gone, then redelivered', dispatcher.deliveries(), r);
  });

  it('down past the whole retry schedule: every event visible as failed; redelivery delivers them all', async () => {
    const r = await receiver();
    await r.stop();
    const { dispatcher, clock } = setup(r.url);
    enqueueAll(dispatcher);
    await drain(dispatcher, clock, [r]);
    const failed = dispatcher.deliveries();
    expect(failed.filter((d) => d.state === 'failed' && d.reason === 'retries-exhausted')).toHaveLength(EVENTS);
    // The first event of each payment used the whole schedule; the second waited for it, then used its own.
    for (const d of failed) expect(d.attempts).toHaveLength(policy.maxAttempts);
    console.info(
      `[webhook faults] down past the schedule: events=${failed.length} failed=${failed.length} attempts=${failed.length * policy.maxAttempts}`,
    );
    await r.start();
    for (const d of failed) expect(dispatcher.redeliver(d.id)).toEqual({ ok: true });
    await drain(dispatcher, clock, [r]);
    expectAllDeliveredOnce('down past the schedule, then redelivered', dispatcher.deliveries(), r);
  });
});
