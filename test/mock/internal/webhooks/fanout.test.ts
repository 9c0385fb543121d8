// The fan-out's records for a file store: what a delivery's end leaves in the log, and how a restart reads it back.
import { afterEach, describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../../../src/assumptions.ts';
import { type Clock, createClock } from '../../../support/mock-internals/foundations.ts';
import { nodeCrypto } from '../../../support/mock-internals/platform.ts';
import {
  createInProcessTransport,
  createWebhookFanout,
  receiverUrl,
  type WebhookTransport,
} from '../../../support/mock-internals/webhooks.ts';
import { storedPayment } from '../stored-payment.ts';

const noNetwork: WebhookTransport = {
  send: () => Promise.reject(new Error('no network in this test')),
  release: () => undefined,
};

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A fan-out to in-process receivers answering `status`, recording into `records` as a file store's recorder would. */
function fanout(
  records: { t: string; [k: string]: unknown }[] | undefined,
  onFinished?: (d: { paymentUuid: string }) => void,
  urls = [receiverUrl(0)],
  status = 204,
) {
  const clock: Clock = createClock();
  const f = createWebhookFanout({
    assumptions: defaultAssumptions,
    clock,
    clients: [],
    webhookUrls: urls,
    signingKey: 'k',
    random: () => 0.5,
    createTransport: () => createInProcessTransport([() => new Response(null, { status })], noNetwork),
    hmacSha256Base64: nodeCrypto.hmacSha256Base64,
    sha256Hex: nodeCrypto.sha256Hex,
    onFinished,
    record: records === undefined ? undefined : (r) => records.push(r),
  });
  closers.push(async () => {
    await f.close();
    clock.dispose();
  });
  return f;
}

const settled = storedPayment('p-1', { status: 'success', settledOutcome: 'success' });

describe('webhook fan-out with a file store', () => {
  it("records a delivery's end in the same turn as the progress's hk, so one batch holds both", async () => {
    const records: { t: string; [k: string]: unknown }[] = [];
    let batch: { t: string }[] | undefined;
    const f = fanout(records, (d) => {
      // As the webhooks' progress does, then the store's appender: it flushes what was recorded in a microtask.
      records.push({ t: 'hk', u: d.paymentUuid });
      queueMicrotask(() => {
        batch = [...records];
      });
    });
    f.deliver(settled);
    await f.waitFor((d) => d.paymentUuid === 'p-1' && d.state === 'delivered');
    const end = records.findIndex((r) => r.t === 'dv' && (r.d as { s: string }).s === 'delivered');
    expect(end).toBeGreaterThan(records.findIndex((r) => r.t === 'hk'));
    expect(batch?.length).toBeGreaterThan(end);
  });

  it("ends a restored delivery still sending when the log's hk says its webhook finished, so it is not resumed", async () => {
    const records: { t: string; [k: string]: unknown }[] = [];
    const first = fanout(records);
    first.deliver(settled);
    await first.waitFor((d) => d.state === 'delivered');
    const sending = records.find((r) => r.t === 'dv' && (r.d as { s: string }).s === 'sending');
    expect(sending).toBeDefined();
    // What a SIGKILL between the two batches left: the delivery sending, then the progress's end of its webhook.
    const url = receiverUrl(0);
    const restarted = fanout([]);
    restarted.apply({ ...sending!, o: 'p' });
    expect(restarted.deliveries().map((d) => d.state)).toEqual(['sending']);
    restarted.apply({ t: 'hk', u: 'p-1', url: 'http://elsewhere.invalid/', s: 'delivered', o: 'p' });
    restarted.apply({ t: 'hk', u: 'p-1', url, s: 'finished', o: 'p' });
    expect(restarted.deliveries().map((d) => d.state)).toEqual(['sending']);
    restarted.apply({ t: 'hk', u: 'p-1', url, s: 'delivered', o: 'p' });
    await expect(restarted.waitFor((d) => d.state === 'delivered', { timeoutMs: 100 })).resolves.toMatchObject({
      id: (sending!.d as { id: string }).id,
    });
    // Its own end record coming after all the same (the next line of the batch) fills in the attempt.
    const end = records.find((r) => r.t === 'dv' && (r.d as { s: string }).s === 'delivered');
    restarted.apply({ ...end!, o: 'p' });
    expect(restarted.deliveries().map((d) => [d.state, d.attempts.length])).toEqual([['delivered', 1]]);
    expect(restarted.deliveryCounts().byState).toMatchObject({ sending: 0, delivered: 1 });
    restarted.replayed();
    expect(restarted.deliveries().map((d) => [d.state, d.attempts.length])).toEqual([['delivered', 1]]);
  });

  it('gives a payment the same delivery id in every process, so a takeover re-sends under the id the receiver saw', async () => {
    const idsOf = async (f: ReturnType<typeof fanout>, payment = settled) => {
      f.deliver(payment);
      await f.waitFor((d) => d.paymentUuid === payment.uuid && d.state === 'delivered');
      return f
        .deliveries()
        .filter((d) => d.paymentUuid === payment.uuid)
        .map((d) => d.id);
    };
    const urls = [receiverUrl(0), receiverUrl(1)];
    // The replica that settled first, and the one that took the payment over (or a restart of the first).
    const [first, second] = [await idsOf(fanout([], undefined, urls)), await idsOf(fanout([], undefined, urls))];
    expect(first).toHaveLength(2);
    expect(first[0]).toMatch(/^whd_[0-9a-f]{32}$/);
    expect(second).toEqual(first);
    // One id per URL; another payment, or the same uuid accepted at another time, is another delivery.
    expect(first[0]).not.toBe(first[1]);
    const other = await idsOf(fanout([], undefined, urls), storedPayment('p-2', { status: 'success' }));
    const later = await idsOf(fanout([], undefined, urls), storedPayment('p-1', { status: 'success' }, 1_000));
    expect(new Set([...first, ...other, ...later]).size).toBe(6);
  });

  it('keeps random delivery ids without a store: one process, nothing to re-send from elsewhere', async () => {
    const ids: string[] = [];
    for (const f of [fanout(undefined), fanout(undefined)]) {
      f.deliver(settled);
      ids.push((await f.waitFor((d) => d.state === 'delivered')).id);
    }
    expect(ids[0]).toMatch(/^whd_[0-9a-f]{32}$/);
    expect(ids[0]).not.toBe(ids[1]);
  });

  it('resumes an unfinished restored delivery once the log is replayed: same id, attempts numbered on, sent once', async () => {
    const records: { t: string; [k: string]: unknown }[] = [];
    const first = fanout(records, undefined, [receiverUrl(0)], 503);
    first.deliver(settled);
    const waiting = await first.waitFor((d) => d.state === 'retry-scheduled');
    await Promise.resolve();
    const restarted = fanout([]);
    for (const r of records) restarted.apply({ ...r, o: 'p' });
    // Nothing is sent while the log is read; the settled payment's takeover finds its delivery here.
    restarted.deliver(settled);
    expect(restarted.deliveries().map((d) => [d.id, d.state, d.attempts.length])).toEqual([
      [waiting.id, 'retry-scheduled', 1],
    ]);
    restarted.replayed();
    const delivered = await restarted.waitFor((d) => d.state === 'delivered', { timeoutMs: 1_000 });
    expect(delivered.id).toBe(waiting.id);
    expect(delivered.attempts.map((a) => [a.number, a.status])).toEqual([
      [1, 503],
      [2, 204],
    ]);
    expect(restarted.deliveries()).toHaveLength(1);
    // A second replay's end (a rebuild) finds nothing left to resume.
    restarted.replayed();
    expect(restarted.deliveries().map((d) => d.attempts.length)).toEqual([2]);
  });

  it('sends nothing for a payment whose delivery of that id is already here, ended before the restart', async () => {
    const records: { t: string; [k: string]: unknown }[] = [];
    const first = fanout(records);
    first.deliver(settled);
    await first.waitFor((d) => d.state === 'delivered');
    const end = records.find((r) => r.t === 'dv' && (r.d as { s: string }).s === 'delivered')!;
    const restarted = fanout([]);
    restarted.apply({ ...end, o: 'p' });
    restarted.deliver(settled);
    expect(restarted.deliveries().map((d) => [d.id, d.state])).toEqual([[(end.d as { id: string }).id, 'delivered']]);
  });
});
