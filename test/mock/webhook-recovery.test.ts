// The whole mock over real HTTP with a receiver that is down: 100 payments whose webhooks outlive the retry schedule
// are all visible as failed and all delivered by redelivery through the control API; and a mock closed with
// deliveries pending reports every one of them (state and log), never dropping one silently.
import { afterEach, describe, expect, it } from 'vitest';
import { maskDigits } from '../../src/contract/card-masking.ts';
import { type MockServer, startMockServer } from '../../src/mock/index.ts';
import { createChanges } from '../support/changes.ts';
import { post } from './helpers.ts';
import { startReceiver, type TestReceiver } from './internal/webhooks/receiver.ts';
import { createPayment, pool, untilDeliveries } from './payments-over-http.ts';

const PAYMENTS = 100;
const SETTLE_DELAY_MS = 3_600_000;
const cleanups: (() => Promise<unknown>)[] = [];
/** What the receiver's waits wait on: it tells of every request it takes and every answer it finishes. */
const received = createChanges();
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A mock and its receiver, with PAYMENTS payments accepted; `prepare` sets the receiver up before any settles. */
async function setup(
  prepare: (receiver: TestReceiver) => Promise<void> | void,
  logged: string[] = [],
): Promise<{ mock: MockServer; receiver: TestReceiver; uuids: string[] }> {
  const receiver = await startReceiver(0, received.notify);
  cleanups.push(() => receiver.close());
  await prepare(receiver);
  // Virtual time runs with real time: a settle delay far longer than the test keeps settlement for advanceClock.
  const mock = await startMockServer({
    port: 0,
    log: (chunk) => logged.push(chunk),
    webhookUrls: [receiver.url],
    settleDelayMs: SETTLE_DELAY_MS,
  });
  cleanups.push(() => mock.close());
  const token = mock.control.issueToken('test-client').token;
  const uuids = await pool(PAYMENTS, 16, (i) => createPayment(mock.url, token, { i }));
  return { mock, receiver, uuids };
}

describe('a receiver down past the whole retry schedule', () => {
  it('leaves every event visible as failed; redelivery over the control API delivers them all, once each', async () => {
    const { mock, receiver, uuids } = await setup((r) => r.stop());
    mock.control.advanceClock(SETTLE_DELAY_MS);
    const { maxAttempts } = mock.control.assumptions.webhook.retry;
    for (let step = 0; step < 100; step++) {
      await untilDeliveries(
        mock.control,
        async () => !(await mock.control.deliveries()).some((d) => d.state === 'sending'),
      );
      const due = (await mock.control.deliveries()).flatMap((d) =>
        d.state === 'retry-scheduled' ? [d.nextAttemptAt!] : [],
      );
      if (due.length === 0) break;
      mock.control.advanceClock(Math.max(0, Math.max(...due) - mock.control.now()));
    }
    // One page of the size the test asks for: the default page is for people (20).
    const listed = (await (await fetch(`${mock.url}/__pck/deliveries?limit=${PAYMENTS}`)).json()).deliveries as {
      id: string;
      paymentUuid: string;
      state: string;
      reason: string;
      attempts: unknown[];
    }[];
    expect(listed).toHaveLength(PAYMENTS);
    expect(new Set(listed.map((d) => d.paymentUuid))).toEqual(new Set(uuids));
    for (const d of listed) expect(d).toMatchObject({ state: 'failed', reason: 'retries-exhausted' });
    for (const d of listed) expect(d.attempts).toHaveLength(maxAttempts);

    await receiver.start();
    for (const d of listed)
      expect((await post(`${mock.url}/__pck/deliveries/redeliver`, {}, { id: d.id })).body).toEqual({ ok: true });
    await untilDeliveries(mock.control, async () =>
      (await mock.control.deliveries()).every((d) => d.state === 'delivered'),
    );
    const acked = receiver.acknowledged.map((r) => r.deliveryId);
    console.info(
      `[webhook recovery] down past the schedule: payments=${PAYMENTS} failed=${listed.length} redelivered=${acked.length} distinct=${new Set(acked).size} lost=${PAYMENTS - new Set(acked).size}`,
    );
    expect(acked).toHaveLength(PAYMENTS);
    expect(new Set(acked)).toEqual(new Set(listed.map((d) => d.id)));
  });
});

describe('closing the mock with deliveries pending', () => {
  it('records each as failed (closed) and logs how many and which', async () => {
    const logged: string[] = [];
    // Half hang (an attempt in flight at close), half fail and wait for their retry.
    const { mock, receiver, uuids } = await setup((r) => {
      r.reply = (got) => (Number(got.json.metadata?.i) % 2 === 0 ? 'hang' : { status: 500 });
    }, logged);
    mock.control.advanceClock(SETTLE_DELAY_MS);
    await received.until(() => receiver.received.length === PAYMENTS);
    await untilDeliveries(
      mock.control,
      async () =>
        (await mock.control.deliveries()).filter((d) => d.state === 'retry-scheduled').length === PAYMENTS / 2,
    );
    await mock.close();

    const list = await mock.control.deliveries();
    expect(list).toHaveLength(PAYMENTS);
    expect(new Set(list.map((d) => d.paymentUuid))).toEqual(new Set(uuids));
    for (const d of list) expect(d).toMatchObject({ state: 'failed', reason: 'closed' });
    const inFlight = list.filter((d) => d.attempts.at(-1)?.error === 'closed');
    expect(inFlight).toHaveLength(PAYMENTS / 2);

    const text = logged.join('');
    const line = text.split('\n').find((l) => l.includes('closed with'));
    expect(line).toMatch(
      new RegExp(`closed with ${PAYMENTS} webhook deliveries not delivered, recorded as failed \\(closed\\)`),
    );
    // The log masks any 12+ digit run as it would a card number, random ids included: compare with the masked text.
    // The line names the first 20 and counts the rest, so an outage of thousands still logs one readable line.
    for (const d of list.slice(0, 20))
      expect(line).toContain(maskDigits(`${d.id} (payment ${d.paymentUuid} to ${receiver.url}`));
    expect(line).toContain(`and ${PAYMENTS - 20} more`);
    console.info(`[webhook recovery] closed with pending: deliveries=${list.length} reported=${list.length} lost=0`);
  });

  it('logs nothing about undelivered webhooks when every one was delivered', async () => {
    const logged: string[] = [];
    const { mock } = await setup(() => {}, logged);
    mock.control.advanceClock(SETTLE_DELAY_MS);
    await untilDeliveries(
      mock.control,
      async () => (await mock.control.deliveries()).filter((d) => d.state === 'delivered').length === PAYMENTS,
    );
    await mock.close();
    expect(logged.join('')).not.toContain('closed with');
  });
});
