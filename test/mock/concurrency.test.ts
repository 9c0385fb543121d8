// Many clients paying at once over real HTTP: 4 clients × 250 payments with 64 requests in flight, each client
// with its own webhook receiver and signing key. After settlement every payment has exactly one final webhook, at
// its own client's receiver, and the mock's state agrees with what the receivers saw.
//
// Sized for CI, a loaded 2-core machine: what the test catches (a payment or webhook crossing clients, lost or sent
// twice while 64 requests interleave, and 1,000 settlements firing in one clock step) does not grow with the count.
// At 4 × 2,000 it took 26 s on a lightly loaded host and timed out at 180 s at load 17; at 4 × 500 (7 s alone) it
// still ran 150-190 s beside six CPU hogs at load 25. Volume is the soak's and the benchmark's job.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../src/assumptions.ts';
import { type MockServer, startMockServer, testCards } from '../../src/mock/index.ts';
import { createChanges } from '../support/changes.ts';
import { startReceiver, type TestReceiver } from './internal/webhooks/receiver.ts';
import { createPayment, pool, untilDeliveries } from './payments-over-http.ts';

const CLIENTS = 4;
const PER_CLIENT = 250;
const IN_FLIGHT = 64;
const TOTAL = CLIENTS * PER_CLIENT;
const SETTLE_DELAY_MS = 3_600_000;
const { clientIdHeader, signingKeyHeader } = defaultAssumptions.webhook;

const clients = Array.from({ length: CLIENTS }, (_, i) => ({
  clientId: `client-${i}`,
  apiKey: `api-key-${i}`,
  signingKey: `signing-key-${i}`,
}));
const receivers: TestReceiver[] = [];
/** What the receivers' waits wait on: each tells of every request it takes and every answer it finishes. */
const received = createChanges();
let mock: MockServer;

beforeAll(async () => {
  for (let i = 0; i < CLIENTS; i++) receivers.push(await startReceiver(0, received.notify));
  mock = await startMockServer({
    port: 0,
    log: false,
    // Settlement waits for advanceClock, not for real time, so every payment is accepted before any settles.
    settleDelayMs: SETTLE_DELAY_MS,
    clients: clients.map((c, i) => ({ ...c, webhookUrls: [receivers[i]!.url] })),
  });
});
afterAll(async () => {
  await mock.close();
  for (const r of receivers) await r.close();
});

describe(`concurrency: ${CLIENTS} clients × ${PER_CLIENT} payments over HTTP`, () => {
  // 1,000 payments and 1,000 webhooks over real HTTP: about 3.5 s alone, so a load that slows it 40 times passes.
  it('gives every payment exactly one final webhook at its own client, none lost, state consistent', {
    timeout: 180_000,
  }, async () => {
    const started = performance.now();
    const tokens = clients.map((c) => mock.control.issueToken(c.clientId).token);
    // Interleaved clients; every third payment uses the card that settles as a failure.
    const created = await pool(TOTAL, IN_FLIGHT, async (i) => {
      const client = i % CLIENTS;
      const card = i % 3 === 0 ? testCards.visaSettlesAsFailure.number : testCards.visaSuccess.number;
      return { client, uuid: await createPayment(mock.url, tokens[client]!, { i }, card) };
    });
    const mostInFlight = pool.mostInFlight;
    const paid = performance.now();
    expect(mostInFlight).toBe(IN_FLIGHT);

    mock.control.advanceClock(SETTLE_DELAY_MS);
    const delivered = () => receivers.reduce((n, r) => n + r.acknowledged.length, 0);
    await received.until(() => delivered() >= TOTAL);
    const settledAt = performance.now();
    // Nothing more can be on its way once no delivery is queued, sending or waiting for a retry: a second POST
    // comes only from a delivery in one of those states. The receivers then hold every POST there will be.
    const unfinished = async () =>
      (await mock.control.deliveries()).filter((d) => d.state !== 'delivered' && d.state !== 'failed');
    await untilDeliveries(mock.control, async () => (await unfinished()).length === 0, 60_000);

    // State: every payment final, each client with exactly its own payments.
    const payments = await mock.control.payments();
    expect(payments).toHaveLength(TOTAL);
    expect(payments.filter((p) => p.settledOutcome === undefined)).toEqual([]);
    const owner = new Map(payments.map((p) => [p.uuid, p.clientId]));
    const outcome = new Map(payments.map((p) => [p.uuid, p.settledOutcome]));
    for (const [i, c] of clients.entries()) {
      const own = await mock.control.payments(c.clientId);
      expect(own).toHaveLength(PER_CLIENT);
      expect(new Set(own.map((p) => p.uuid))).toEqual(
        new Set(created.filter((x) => x.client === i).map((x) => x.uuid)),
      );
    }

    // Receivers: one acknowledged webhook per payment, at its own client's receiver, with that client's headers.
    let wrongClient = 0;
    let wrongStatus = 0;
    const ids = new Set<string>();
    const perPayment = new Map<string, number>();
    for (const [i, r] of receivers.entries()) {
      const c = clients[i]!;
      for (const got of r.received) {
        if (got.headers[clientIdHeader] !== c.clientId) wrongClient++;
        else if (got.headers[signingKeyHeader] !== c.signingKey) wrongClient++;
        else if (owner.get(got.json.uuid) !== c.clientId) wrongClient++;
      }
      for (const got of r.acknowledged) {
        ids.add(got.deliveryId);
        perPayment.set(got.json.uuid, (perPayment.get(got.json.uuid) ?? 0) + 1);
        // The webhook carries the final status the mock settled the payment with.
        if (outcome.get(got.json.uuid) !== got.json.status) wrongStatus++;
      }
    }
    const deliveries = await mock.control.deliveries();
    const lost = payments.filter((p) => !perPayment.has(p.uuid)).length;
    const twice = [...perPayment.values()].filter((n) => n > 1).length;
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.info(
      `[concurrency] clients=${CLIENTS} payments=${payments.length} most-in-flight=${mostInFlight} final-webhooks=${delivered()} distinct-delivery-ids=${ids.size} lost=${lost} delivered-twice=${twice} wrong-client=${wrongClient} wrong-status=${wrongStatus} seconds=${seconds} paying=${((paid - started) / 1000).toFixed(1)} delivering=${((settledAt - paid) / 1000).toFixed(1)}`,
    );
    expect(wrongClient).toBe(0);
    expect(wrongStatus).toBe(0);
    expect(delivered()).toBe(TOTAL);
    expect(ids.size).toBe(TOTAL);
    expect(lost).toBe(0);
    expect(twice).toBe(0);
    expect(deliveries).toHaveLength(TOTAL);
    expect(deliveries.filter((d) => d.state !== 'delivered')).toEqual([]);
    // Every POST a receiver got is an attempt the mock recorded, so none can have been sent that was not counted.
    const attempts = deliveries.reduce((n, d) => n + d.attempts.length, 0);
    expect(receivers.reduce((n, r) => n + r.received.length, 0)).toBe(attempts);
    expect(new Set(deliveries.map((d) => d.id))).toEqual(ids);
    for (const d of deliveries) expect(d.clientId).toBe(owner.get(d.paymentUuid));
  });
});
