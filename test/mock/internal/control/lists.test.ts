// The control API's paged lists and health counters, in process: pages of 20 newest first, cursors that read back
// and forward without gaps or repeats, filters, the history counters, and every bad parameter a 400 in the 7.1
// shape. Small caps show eviction and refusal through the HTTP answers.
import { print } from 'graphql';
import { afterEach, describe, expect, it } from 'vitest';
import { ProcessPaymentRequestDocument } from '../../../../src/index.ts';
import { buildNodeMockApp } from '../../../../src/mock/app.ts';
import type { MockApp } from '../../../../src/mock/control-types.ts';
import { MockHttpError } from '../../../support/mock-internals/foundations.ts';
import { payInput } from '../../helpers.ts';

const apps: MockApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

function mock(history: Record<string, number> = {}, receiverUp = true) {
  const app = buildNodeMockApp(
    { log: false, settleDelayMs: 0, assumptions: { history } },
    {
      webhookReceivers: [() => (receiverUp ? new Response(null, { status: 204 }) : Promise.reject(new Error('down')))],
    },
  );
  apps.push(app);
  return app;
}

async function pay(app: MockApp, n: number): Promise<string[]> {
  const token = app.control.issueToken('test-client').token;
  const body = JSON.stringify({ query: print(ProcessPaymentRequestDocument), variables: { input: payInput() } });
  const uuids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await app.fetch(
      new Request('http://mock/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-jwt-token': token },
        body,
      }),
    );
    uuids.push((await res.json()).data.processPaymentRequest.uuid);
  }
  return uuids;
}

async function get(app: MockApp, path: string) {
  const res = await app.fetch(new Request(`http://mock${path}`));
  return { status: res.status, body: await res.json() };
}

/** Lets settlements (settle delay 0) and in-process webhook attempts run. */
async function settle(app: MockApp): Promise<void> {
  for (let i = 0; i < 4; i++) {
    app.control.advanceClock(10);
    await new Promise((r) => setImmediate(r));
  }
}

describe('GET /__pck/payments, /__pck/deliveries, /__pck/requests: pages', () => {
  it('answers 20 newest first by default and reads back with next until null, each entry once', async () => {
    const app = mock();
    const uuids = await pay(app, 45);
    const first = await get(app, '/__pck/payments');
    expect(first.status).toBe(200);
    expect(first.body.payments).toHaveLength(20);
    expect(first.body.order).toBe('newest-first');
    expect(first.body.counts).toMatchObject({ kept: 45, processing: 45, evicted: 0 });
    const seen: string[] = first.body.payments.map((p: { uuid: string }) => p.uuid);
    let next = first.body.next;
    while (next !== null) {
      const page = await get(app, `/__pck/payments?before=${next}`);
      seen.push(...page.body.payments.map((p: { uuid: string }) => p.uuid));
      next = page.body.next;
    }
    expect(seen).toEqual([...uuids].reverse());
    // Forward from a cursor: oldest first, no gap.
    const forward = await get(app, `/__pck/payments?after=${first.body.payments[5].seq}&limit=10`);
    expect(forward.body.order).toBe('oldest-first');
    expect(forward.body.payments.map((p: { uuid: string }) => p.uuid)).toEqual(uuids.slice(40));
  });

  it('filters deliveries by state, payment and URL, and counts them by state', async () => {
    const app = mock();
    const uuids = await pay(app, 5);
    await settle(app);
    const all = await get(app, '/__pck/deliveries?limit=100');
    expect(all.body.deliveries).toHaveLength(5);
    expect(all.body.counts).toMatchObject({ kept: 5, pending: 0, byState: { delivered: 5 } });
    const one = await get(app, `/__pck/deliveries?paymentUuid=${uuids[2]}`);
    expect(one.body.deliveries.map((d: { paymentUuid: string }) => d.paymentUuid)).toEqual([uuids[2]]);
    const url = all.body.deliveries[0].url as string;
    expect(
      (await get(app, `/__pck/deliveries?url=${encodeURIComponent(url)}&state=delivered`)).body.deliveries,
    ).toHaveLength(5);
    expect((await get(app, '/__pck/deliveries?state=pending')).body.deliveries).toEqual([]);
    expect((await get(app, '/__pck/deliveries?clientId=nobody')).body.deliveries).toEqual([]);
  });

  it('pages the journal newest first, keeps since as a forward cursor, and filters by path and status', async () => {
    const app = mock();
    await pay(app, 3);
    const page = await get(app, '/__pck/requests?limit=2');
    expect(page.body.requests.map((r: { seq: number }) => r.seq)).toEqual([3, 2]);
    expect(page.body).toMatchObject({ next: 2, cursor: 3, order: 'newest-first' });
    const since = await get(app, '/__pck/requests?since=1');
    expect(since.body.requests.map((r: { seq: number }) => r.seq)).toEqual([2, 3]);
    expect((await get(app, '/__pck/requests?path=/graphql&status=200')).body.requests).toHaveLength(3);
    expect((await get(app, '/__pck/requests?status=500')).body.requests).toEqual([]);
  });

  it.each([
    ['/__pck/payments?limit=0', /"limit" must be a whole number from 1 to 500/],
    ['/__pck/payments?colour=red', /unknown query parameter "colour"/],
    ['/__pck/payments?before=1&after=2', /not both/],
    ['/__pck/deliveries?state=lost', /"state" must be one of pending, queued, sending/],
    ['/__pck/deliveries?limit=1e3', /"limit" must be a whole number/],
    ['/__pck/requests?status=abc', /"status" must be an HTTP status/],
    ['/__pck/requests?since=1&after=2', /give one of since, after, before/],
    ['/__pck/requests?since=x', /"since" is a sequence number/],
  ])('GET %s is a 400 in the 7.1 shape', async (path, message) => {
    const app = mock();
    expect(await get(app, path)).toEqual({
      status: 400,
      body: { status: 'ERROR', message: expect.stringMatching(message) },
    });
  });
});

describe('GET /__pck/health: the caps at work', () => {
  it('counts evicted payments and deliveries, and warns while pending work is at its cap', async () => {
    const app = mock({ maxPaymentsPerClient: 5, maxPendingDeliveries: 3, maxDeliveries: 4 }, false);
    for (let i = 0; i < 8; i++) {
      await pay(app, 1);
      await settle(app);
    }
    const health = await get(app, '/__pck/health');
    expect(health.body.history.payments).toMatchObject({ kept: 5, evicted: 3, capPerClient: 5 });
    expect(health.body.history.deliveries).toMatchObject({ pending: 3, refused: 5, kept: 7, evicted: 1 });
    expect(health.body.warnings).toEqual([
      expect.stringMatching(/pending webhook deliveries are at their cap \(3\)/),
      expect.stringMatching(/5 webhook deliveries were refused at the pending cap/),
    ]);
    const refused = await get(app, '/__pck/deliveries?state=failed&limit=100');
    for (const d of refused.body.deliveries) expect(d.reason).toBe('pending-cap');
    expect((await app.control.history()).requests).toMatchObject({ capacity: 1000, kept: 8 });
    // Settled payments go first: the five kept are the newest, all settled.
    expect(health.body.history.payments.processing).toBe(0);
  });
});

describe('the control handle pages as the HTTP lists do', () => {
  it('answers deliveryPage, paymentPage and requestPage with the same cursors, and throws a 400 for a bad query', async () => {
    const app = mock({}, false);
    const uuids = await pay(app, 3);
    await settle(app);
    const pending = await app.control.deliveryPage({ state: 'pending', limit: 2 });
    expect(pending.items.map((d) => d.paymentUuid)).toEqual([uuids[2], uuids[1]]);
    expect(
      (await app.control.deliveryPage({ state: 'pending', before: pending.next! })).items.map((d) => d.paymentUuid),
    ).toEqual([uuids[0]]);
    expect((await app.control.paymentPage({ uuid: uuids[1] })).items.map((p) => p.uuid)).toEqual([uuids[1]]);
    expect((await app.control.paymentPage({ clientId: 'test-client', status: 'success' })).items).toHaveLength(3);
    expect((await app.control.requestPage({ path: '/graphql', limit: 1 })).items[0]?.seq).toBe(3);
    expect((await app.control.history()).deliveries).toMatchObject({ pending: 3, kept: 3 });
    let thrown: unknown;
    try {
      await app.control.deliveryPage({ limit: 0 });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(MockHttpError);
    expect((thrown as MockHttpError).status).toBe(400);
  });
});
