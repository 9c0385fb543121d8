// Nothing a request sends can throw outside a request: what settlement, webhook building, clock tasks and waits do
// when they fail. Failures are injected after the payment was accepted (the arrival checks refuse such input, so
// these stand in for a bug), and the process-level handlers must see nothing.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.ts';
import { createClock } from '../support/mock-internals/foundations.ts';
import { startReceiver, type TestReceiver } from './internal/webhooks/receiver.ts';
import { createPayment, untilDeliveries } from './payments-over-http.ts';

const escaped: unknown[] = [];
const onEscape = (error: unknown) => escaped.push(error);
beforeAll(() => {
  process.on('uncaughtException', onEscape);
  process.on('unhandledRejection', onEscape);
});
afterAll(() => {
  process.off('uncaughtException', onEscape);
  process.off('unhandledRejection', onEscape);
});

let receiver: TestReceiver;
let mock: MockServer;
const logged: string[] = [];
beforeEach(async () => {
  escaped.length = 0;
  logged.length = 0;
  receiver = await startReceiver();
  // Virtual time runs with real time: a settle delay far longer than the test keeps settlement for advanceClock.
  mock = await startMockServer({
    port: 0,
    log: (chunk) => logged.push(chunk),
    webhookUrls: [receiver.url],
    settleDelayMs: 3_600_000,
  });
});
afterEach(async () => {
  await mock.close();
  await receiver.close();
});

/**
 * Lets the event loop finish the turn the work so far ran in, and go once round: Node reports a rejection nobody
 * handled as the microtasks of the callback that made it drain, and throws an uncaught exception from the callback
 * itself, so both have reached the handlers before a later check-phase callback runs. Each test first awaits the
 * event that ends the work (a delivery's final state, a task reported), so nothing is left to come after.
 */
const settleEventLoop = async () => {
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
};

function deep(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true };
  for (let i = 0; i < levels; i++) value = { next: value };
  return value;
}

function circular(): Record<string, unknown> {
  const value: Record<string, unknown> = { order: 'A-1' };
  value.self = value;
  return value;
}

function throwingGetter(): Record<string, unknown> {
  return Object.defineProperty({}, 'order', {
    enumerable: true,
    get() {
      throw new Error('metadata getter exploded');
    },
  });
}

describe('a webhook payload that cannot be built or serialised', () => {
  it.each([
    ['metadata nested 20,000 levels deep', () => deep(20_000), /RangeError/],
    ['circular metadata', circular, /TypeError: Converting circular structure/],
    ['metadata whose getter throws', throwingGetter, /metadata getter exploded/],
  ])('%s: the payment settles, the delivery is failed with its error, the log says so', async (_name, bad, error) => {
    const token = mock.control.issueToken('test-client').token;
    const uuids: string[] = [];
    for (let i = 0; i < 5; i++) uuids.push(await createPayment(mock.url, token, { n: i }));
    // Payment 2 of the batch is poisoned after acceptance; the four around it must not suffer.
    const poisoned = (await mock.control.payments()).find((p) => p.uuid === uuids[2])!;
    (poisoned as { metadata: unknown }).metadata = bad();

    mock.control.advanceClock(mock.control.assumptions.settleDelayMs);
    expect((await mock.control.payments()).every((p) => p.settledOutcome !== undefined)).toBe(true);
    await untilDeliveries(
      mock.control,
      async () => (await mock.control.deliveries()).filter((d) => d.state === 'delivered').length === 4,
    );
    await settleEventLoop();

    const failed = (await mock.control.deliveries()).find((d) => d.paymentUuid === uuids[2])!;
    expect(failed).toMatchObject({ state: 'failed', reason: 'payload-error', attempts: [], body: '' });
    expect(failed.error).toMatch(error);
    expect(failed.payload).toEqual({ ...failed.payload, uuid: uuids[2] });
    expect(failed.payload).not.toHaveProperty('metadata');
    expect(receiver.received.map((r) => r.json.uuid).sort()).toEqual(uuids.filter((u) => u !== uuids[2]).sort());
    // The delivery log stays readable over HTTP.
    const list = await fetch(`${mock.url}/__pck/deliveries`);
    expect(list.status).toBe(200);
    // Redelivery cannot help: 409 naming the cause.
    const again = await fetch(`${mock.url}/__pck/deliveries/redeliver`, {
      method: 'POST',
      body: JSON.stringify({ id: failed.id }),
    });
    expect(again.status).toBe(409);
    expect((await again.json()).message).toMatch(/has no body to send/);

    expect(logged.join('')).toMatch(new RegExp(`webhook of payment ${uuids[2]} not sent: .*payload-error`));
    expect(escaped).toEqual([]);
  });
});

describe('clock tasks and waits', () => {
  it('a task that throws is reported and the tasks after it still run', async () => {
    const reported: unknown[] = [];
    const clock = createClock({ onTaskError: (e) => reported.push(e) });
    const ran: string[] = [];
    clock.schedule(10, () => ran.push('before'));
    clock.schedule(10, () => {
      throw new Error('task exploded');
    });
    clock.schedule(20, () => ran.push('after'));
    clock.advance(20);
    await settleEventLoop();
    expect(ran).toEqual(['before', 'after']);
    expect(reported).toEqual([new Error('task exploded')]);
    expect(escaped).toEqual([]);
    clock.dispose();
  });

  it('a task that throws in the real timer (nobody advancing) is reported too', async () => {
    const reported: unknown[] = [];
    let told: () => void = () => {};
    const once = new Promise<void>((resolve) => (told = resolve));
    const clock = createClock({
      onTaskError: (e) => {
        reported.push(e);
        told();
      },
    });
    clock.schedule(1, () => {
      throw new Error('timer task exploded');
    });
    await once;
    await settleEventLoop();
    expect(reported).toEqual([new Error('timer task exploded')]);
    expect(escaped).toEqual([]);
  });

  it('a waitForDelivery predicate that throws rejects that wait only; the delivery goes on', async () => {
    receiver.reply = () => ({ status: 200 });
    const wait = mock.control.waitForDelivery((d) => {
      if (d.state === 'sending') throw new Error('predicate exploded');
      return false;
    });
    const rejected = expect(wait).rejects.toThrow('predicate exploded');
    const uuid = await createPayment(mock.url, mock.control.issueToken('test-client').token, { n: 1 });
    mock.control.advanceClock(mock.control.assumptions.settleDelayMs);
    await rejected;
    await mock.control.waitForDelivery((d) => d.paymentUuid === uuid && d.state === 'delivered');
    await settleEventLoop();
    expect(escaped).toEqual([]);
  });
});
