// The webhooks of a Redis replica on a real redis-server: a settled payment's deliveries are built as the in-process
// dispatcher builds them and, for the same answers, reach the same records; 2xx delivers, the budget fails, 410 ends
// it; two replicas over one sandbox never send one attempt twice; a lapsed claim is taken over and its late outcome
// refused; redelivery, waits, counts, and a store that is down. Real time is passed in and the receiver is scripted,
// so nothing sleeps but a wait that is meant to time out.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../../../src/assumptions.ts';
import { webhookHeaderNamesOf } from '../../../../src/contract/webhook-headers.ts';
import { createEventBus } from '../../../support/mock-internals/domain.ts';
import { type Clock, createClock } from '../../../support/mock-internals/foundations.ts';
import { nodeCrypto } from '../../../support/mock-internals/platform.ts';
import { createRedisStore } from '../../../support/mock-internals/store.ts';
import {
  createSharedDeliveries,
  createWebhookDispatcher,
  type DeliveryRecord,
  PostError,
  type SharedDeliveriesDeps,
  settledEvent,
  storeDeliveryId,
  type WebhookTransport,
} from '../../../support/mock-internals/webhooks.ts';
import { redisPerFile } from '../../../support/redis-per-file.ts';
import { startRedisServer } from '../../../support/redis-server.ts';
import { waitUntil } from '../../../support/wait-until.ts';
import { storedPayment } from '../stored-payment.ts';

const { server, opened } = redisPerFile();
const T0 = 1_900_000_000_000;
const URL_A = 'http://127.0.0.1:9/hooks/a';
const URL_B = 'http://127.0.0.1:9/hooks/b?x=1';
const SECRET = `whsec_${Buffer.from('shared-deliveries-test-secret').toString('base64')}`;
const retry = { ...defaultAssumptions.webhook.retry, maxAttempts: 3 };
const assumptions = { ...defaultAssumptions, webhook: { ...defaultAssumptions.webhook, retry } };
const caps = assumptions.history;
const cleanups: (() => Promise<void> | void)[] = [];
let real = T0;

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  real = T0;
});

interface Sent {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** A receiver answering `answer(url, n)` to the n-th request (from 1) to `url`; `hold` keeps an answer back. */
function receiver(answer: (url: string, n: number) => number = () => 200, hold = false) {
  const sent: Sent[] = [];
  const held: ((status: number) => void)[] = [];
  const transport: WebhookTransport = {
    send(url, headers, body, abort) {
      sent.push({ url: url.href, headers: { ...headers }, body });
      const n = sent.filter((s) => s.url === url.href).length;
      const reply = (status: number) => ({ status, retryAfter: undefined, date: undefined, bodySnippet: `a${status}` });
      if (hold)
        return new Promise((resolve, reject) => {
          held.push((status) => resolve(reply(status)));
          abort.onAbort(() => reject(new PostError(String(abort.reason), 'aborted')));
        });
      return Promise.resolve(reply(answer(url.href, n)));
    },
    release() {},
  };
  return { sent, held, transport };
}

async function openPort(prefix = `sd-${randomUUID()}:`, url = server().url) {
  const store = createRedisStore(url, { keyPrefix: prefix });
  opened.push(store);
  await store.open();
  return { prefix, port: store.deliveryState!() };
}

function shared(
  port: SharedDeliveriesDeps['port'],
  transport: WebhookTransport,
  over: Partial<SharedDeliveriesDeps> = {},
) {
  const problems: string[] = [];
  const clock = createClock({ realNow: () => real });
  const webhooks = createSharedDeliveries({
    ...{ assumptions, clock, port, clients: [], webhookUrls: [URL_A], signingKey: 'test-signing-key' },
    ...{ standardWebhooksSecret: SECRET, hmacSha256Base64: nodeCrypto.hmacSha256Base64 },
    ...{ sha256Hex: nodeCrypto.sha256Hex, random: () => 0.5, transport, realNow: () => real, visibilityMs: 30_000 },
    onProblem: (line) => problems.push(line),
    ...over,
  });
  cleanups.push(async () => {
    await webhooks.close();
    clock.dispose();
  });
  return { webhooks, problems, clock };
}

const settled = (uuid: string, clientId = 'c') =>
  storedPayment(uuid, { clientId, status: 'success', settledOutcome: 'success', metadata: { order: uuid } }, T0);

/** Enqueues a settled payment's deliveries as the payment port's settle step does. */
async function settle(
  webhooks: ReturnType<typeof shared>['webhooks'],
  port: SharedDeliveriesDeps['port'],
  uuid: string,
) {
  const deliveries = webhooks.deliveriesOf(settled(uuid))!;
  for (const d of deliveries.items) await port.enqueue(d, caps);
  return deliveries;
}

/** A record with each attempt's real duration left out (the one field two runs cannot share). */
const timeless = (d: DeliveryRecord) => ({ ...d, attempts: d.attempts.map((a) => ({ ...a, ms: 0 })) });
const byId = (list: readonly DeliveryRecord[]) => [...list].sort((a, b) => a.id.localeCompare(b.id)).map(timeless);

function memoryDispatcher(clock: Clock, transport: WebhookTransport) {
  const w = assumptions.webhook;
  const dispatcher = createWebhookDispatcher({
    ...{ clock, urls: [URL_A, URL_B], signingKey: 'test-signing-key', headers: webhookHeaderNamesOf(w), retry },
    ...{ random: () => 0.5, eventType: w.eventType, history: caps, transport, wallClock: () => real },
    standardWebhooks: { secret: SECRET, hmacSha256Base64: nodeCrypto.hmacSha256Base64 },
    idFactory: storeDeliveryId(nodeCrypto.sha256Hex),
  });
  cleanups.push(async () => {
    await dispatcher.close();
    clock.dispose();
  });
  return dispatcher;
}

describe('createSharedDeliveries: what the in-process dispatcher does', () => {
  it('builds the same deliveries and, for the same answers, sends and records the same attempts', async () => {
    // A: two 503s, then a 204; B: a 500 every time, so the budget of 3 fails it.
    const answer = (url: string, n: number) => (url === URL_A ? (n < 3 ? 503 : 204) : 500);
    const mem = receiver(answer);
    const memClock = createClock({ realNow: () => real });
    const memory = memoryDispatcher(memClock, mem.transport);
    const red = receiver(answer);
    const { port } = await openPort();
    const { webhooks } = shared(port, red.transport, { webhookUrls: [URL_A, URL_B] });
    const quiet = () => memory.deliveries().every((d) => d.state !== 'sending');

    memory.enqueue(settledEvent(settled('pay-1')));
    const { items } = await settle(webhooks, port, 'pay-1');
    expect(items.map((d) => [d.id, d.body, d.url])).toEqual(memory.deliveries().map((d) => [d.id, d.body, d.url]));
    for (let round = 0; round < 5; round++) {
      await waitUntil(quiet, 'the memory attempts answered');
      await webhooks.poll();
      expect(byId(await webhooks.deliveries())).toEqual(byId(memory.deliveries()));
      const due = memory.deliveries().flatMap((d) => (d.nextAttemptAt === undefined ? [] : [d.nextAttemptAt]));
      if (due.length === 0) break;
      real = Math.min(...due);
      memClock.advance(0);
    }
    // Both URLs' attempts of one round go out together, in no set order between the URLs.
    const sorted = (sent: readonly Sent[]) => sent.map((x) => JSON.stringify(x)).sort();
    expect(sorted(red.sent)).toEqual(sorted(mem.sent));
    expect(red.sent).toHaveLength(6);
    const [a, b] = byId(await webhooks.deliveries()).sort((x, y) => x.url.localeCompare(y.url));
    expect(a).toMatchObject({ url: URL_A, state: 'delivered', deliveredAt: real });
    expect(b).toMatchObject({ url: URL_B, state: 'failed', reason: 'retries-exhausted' });
    expect(b?.attempts.map((t) => t.status)).toEqual([500, 500, 500]);
    expect(await webhooks.poll()).toEqual({ nextDueAt: undefined });
  });

  it('ends a delivery as gone on 410, telling its attempt and its end', async () => {
    const { port } = await openPort();
    const events = createEventBus();
    const told: unknown[] = [];
    events.on((e) => told.push(e));
    const reports: unknown[] = [];
    const { webhooks } = shared(port, receiver(() => 410).transport, { events, onAttempt: (r) => reports.push(r) });
    const [d] = (await settle(webhooks, port, 'pay-g')).items;
    await webhooks.poll();
    expect((await port.delivery(d!.id))?.record).toMatchObject({ state: 'gone', reason: 'receiver-gone' });
    expect(told).toMatchObject([
      { kind: 'delivery.attempted', deliveryId: d!.id, attempt: 1, status: 410, url: URL_A, at: T0 },
      { kind: 'delivery.finished', deliveryId: d!.id, state: 'gone', delivered: false, attempts: 1 },
    ]);
    expect(reports).toMatchObject([{ deliveryId: d!.id, attempt: 1, status: 410, state: 'gone' }]);
    expect(await webhooks.poll()).toEqual({ nextDueAt: undefined });
  });

  it('keeps a payload that cannot be built as failed, and hints once when no URL is set', async () => {
    const { port } = await openPort();
    const { webhooks, problems } = shared(port, receiver().transport);
    const metadata = Object.defineProperty({}, 'bad', {
      enumerable: true,
      get: () => {
        throw new Error('boom');
      },
    });
    const d = webhooks.deliveriesOf({ ...settled('pay-x'), metadata })!.items[0]!;
    expect(d.failed).toMatchObject({ reason: 'payload-error', error: expect.stringContaining('boom') });
    expect(d.body).toBe('');
    const silent = shared(port, receiver().transport, { webhookUrls: [] });
    expect(silent.webhooks.deliveriesOf(settled('p1'))).toBeUndefined();
    expect(silent.webhooks.deliveriesOf(settled('p2'))).toBeUndefined();
    expect(silent.problems).toHaveLength(1);
    expect(silent.problems[0]).toContain('no webhook URL is set');
    expect(problems[0]).toContain('webhook of payment pay-x not sent');
  });
});

describe('createSharedDeliveries: claims between replicas', () => {
  it('two replicas over one sandbox never send one attempt twice', async () => {
    const { prefix, port } = await openPort();
    const other = await openPort(prefix);
    const ra = receiver();
    const rb = receiver();
    const a = shared(port, ra.transport);
    const b = shared(other.port, rb.transport);
    for (let i = 0; i < 30; i++) await settle(a.webhooks, port, `pay-${i}`);
    await Promise.all([a.webhooks.poll(), b.webhooks.poll(), a.webhooks.poll(), b.webhooks.poll()]);
    const ids = [...ra.sent, ...rb.sent].map((s) => s.headers['webhook-id']);
    expect(new Set(ids).size).toBe(30);
    expect(ids).toHaveLength(30);
    expect((await b.webhooks.deliveryCounts()).byState.delivered).toBe(30);
  });

  it('takes over a lapsed claim, and refuses the stalled replica its late outcome', async () => {
    const { prefix, port } = await openPort();
    const other = await openPort(prefix);
    const stalled = receiver(undefined, true);
    const a = shared(port, stalled.transport);
    const b = shared(other.port, receiver().transport);
    const [d] = (await settle(a.webhooks, port, 'pay-l')).items;
    const first = a.webhooks.poll();
    await waitUntil(() => stalled.held.length === 1, 'the stalled attempt sent');
    expect(await a.webhooks.deliveryCounts()).toMatchObject({ pendingHere: 1, byState: { sending: 1 } });
    real += 29_999;
    await b.webhooks.poll();
    expect((await port.delivery(d!.id))?.record.state).toBe('sending');
    real += 1;
    await b.webhooks.poll();
    stalled.held[0]!(500);
    await first;
    const { record } = (await port.delivery(d!.id))!;
    expect(record).toMatchObject({ state: 'delivered', attempts: [{ number: 1, status: 200 }] });
    expect(a.problems.join('\n')).toContain(`webhook delivery ${d!.id}: attempt 1 ended after its claim lapsed`);
    // Counted for the health's store.fencedOut: the stalled replica's refused outcome, none of the other's.
    expect([a.webhooks.fencedOut(), b.webhooks.fencedOut()]).toEqual([1, 0]);
  });
});

describe('createSharedDeliveries: closing', () => {
  it('aborts the attempts in flight without recording them, so their claim lapses to another replica', async () => {
    const { prefix, port } = await openPort();
    const stalled = receiver(undefined, true);
    const a = shared(port, stalled.transport);
    const [d] = (await settle(a.webhooks, port, 'pay-c')).items;
    const round = a.webhooks.poll();
    await waitUntil(() => stalled.held.length === 1, 'the attempt sent');
    await a.webhooks.close();
    expect(await round).toEqual({ nextDueAt: undefined });
    expect(await a.webhooks.poll()).toEqual({ nextDueAt: undefined });
    expect(stalled.sent).toHaveLength(1);
    expect((await port.delivery(d!.id))?.record).toMatchObject({ state: 'sending', attempts: [] });
    real += 30_000;
    const b = shared((await openPort(prefix)).port, receiver().transport);
    await b.webhooks.poll();
    expect((await port.delivery(d!.id))?.record).toMatchObject({ state: 'delivered', attempts: [{ number: 1 }] });
  });

  it('lets an attempt on the wire finish when the sandbox clock moves past its time-out', async () => {
    const { port } = await openPort();
    const slow = receiver(undefined, true);
    const a = shared(port, slow.transport);
    const [d] = (await settle(a.webhooks, port, 'pay-t')).items;
    const round = a.webhooks.poll();
    await waitUntil(() => slow.held.length === 1, 'the attempt sent');
    // Another replica moved the clock: this one reads the move while its attempt is still on the wire.
    a.clock.advance(retry.attemptTimeoutMs * 2);
    slow.held[0]!(204);
    await round;
    expect(slow.sent).toHaveLength(1);
    expect((await port.delivery(d!.id))?.record).toMatchObject({ state: 'delivered', attempts: [{ status: 204 }] });
  });
});

describe('createSharedDeliveries: redelivery, waits, counts, outage', () => {
  it('redelivers a finished delivery under its id, with the dispatcher’s refusals', async () => {
    const { port } = await openPort();
    const { webhooks } = shared(port, receiver((_, n) => (n === 1 ? 410 : 200)).transport);
    const [d] = (await settle(webhooks, port, 'pay-r')).items;
    expect(await webhooks.redeliver(d!.id)).toMatchObject({ ok: false, problem: 'in-progress' });
    expect((await webhooks.redeliver(d!.id)) as { message: string }).toMatchObject({
      message: expect.stringContaining(`Webhook delivery "${d!.id}" is queued`),
    });
    await webhooks.poll();
    expect(await webhooks.redeliver('whd_none')).toMatchObject({
      ok: false,
      problem: 'unknown',
      message: expect.stringContaining('No webhook delivery with id "whd_none"'),
    });
    expect(await webhooks.redeliver(d!.id)).toEqual({ ok: true });
    await webhooks.poll();
    const { record } = (await port.delivery(d!.id))!;
    expect(record).toMatchObject({ state: 'delivered', redeliveries: 1, attempts: [{ number: 1 }, { number: 2 }] });
    await webhooks.close();
    expect(await webhooks.redeliver(d!.id)).toMatchObject({ ok: false, problem: 'closed' });
  });

  it('waits for a delivery, times out naming the deliveries, and pages and counts them', async () => {
    const { port } = await openPort();
    const { webhooks } = shared(port, receiver().transport);
    const [d] = (await settle(webhooks, port, 'pay-w')).items;
    const delivered = webhooks.waitFor((r) => r.id === d!.id && r.state === 'delivered');
    await webhooks.poll();
    expect(await delivered).toMatchObject({ id: d!.id, state: 'delivered' });
    await expect(webhooks.waitFor((r) => r.state === 'failed', { timeoutMs: 60 })).rejects.toThrow(
      `no webhook delivery matched within 60 ms. Deliveries: ${d!.id} pay-w → ${URL_A}: delivered.`,
    );
    expect(await webhooks.deliveryCounts()).toMatchObject({ kept: 1, pending: 0, caps, pendingHere: 0 });
    expect((await webhooks.deliveryPage({ limit: 5 }, { state: 'delivered' })).items).toHaveLength(1);
    await expect(webhooks.deliveryPage({ limit: 0 }, {})).rejects.toMatchObject({ status: 400 });
    const pending = webhooks.waitFor(() => false, { timeoutMs: 10_000 });
    await webhooks.close();
    await expect(pending).rejects.toThrow('The mock was closed while waiting for a webhook delivery.');
  });

  it('reports a store that is down from poll instead of throwing', async () => {
    const own = await startRedisServer();
    try {
      const { port } = await openPort(undefined, own.url);
      const { webhooks, problems } = shared(port, receiver().transport);
      await settle(webhooks, port, 'pay-d');
      await own.stop();
      expect(await webhooks.poll()).toEqual({ nextDueAt: undefined });
      expect(problems.join('\n')).toContain('webhook deliveries: the store could not be reached');
    } finally {
      await own.close();
    }
  });
});
