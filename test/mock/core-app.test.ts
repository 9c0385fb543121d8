// The composition root's event bus: each state change of a real request through the in-process app is told once,
// as its typed event, with what a reader (the coverage report, a store) needs of it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildMockApp } from '../../src/mock/core-app.ts';
import { nodePlatform } from '../../src/mock/node-platform.ts';
import { nodeStoreSeams } from '../../src/mock/node-store.ts';
import type { MockOptions } from '../../src/mock/options.ts';
import { webPlatform } from '../../src/mock/web-platform.ts';
import { testCardNumbers } from '../../src/test-values.ts';
import type { MockEvent, MockEventKind } from '../support/mock-internals/domain.ts';
import { card, contact, credentials, legacyPayInput, payInput, reference, requestsVia, tokenPaths } from './helpers.ts';

const base = 'http://mock.test';
const settleDelayMs = 1000;
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** An in-process mock (both guides) whose webhook receiver answers `answers` in turn (then 204), events collected. */
function mockWith(answers: number[] = []) {
  const receiver = () => new Response(null, { status: answers.shift() ?? 204 });
  const built = buildMockApp(
    { log: false, guide: 'both', realNow: () => Date.UTC(2026, 0, 1, 12), assumptions: { settleDelayMs } },
    { platform: nodePlatform, webhookReceivers: [receiver] },
  );
  close = () => built.app.close();
  const events: MockEvent[] = [];
  built.events.on((e) => events.push(e));
  const { post } = requestsVia(built.app.fetch);
  const of = <K extends MockEventKind>(kind: K) =>
    events.filter((e): e is Extract<MockEvent, { kind: K }> => e.kind === kind);
  return { app: built.app, events, of, post };
}

const payMutation = `mutation Pay($input: ProcessPaymentRequestInput!) {
  processPaymentRequest(input: $input) { uuid status { name } }
}`;
const legacyPayMutation = `mutation LegacyPay($input: ProcessPaymentInput!) {
  processPaymentRequest(input: $input) { uuid status { name } }
}`;
const feeQuery = `query Fee($card: CreditCardInput!, $contact: ContactInput!) {
  paymentCreditCardFeeCalc(amount: 100, credit_card: $card, contact: $contact) { fees card_account_uid }
}`;

describe('the event bus of the built app', () => {
  it('tells each token change once: issued (generate, refresh, control), refreshed, revoked one and all', async () => {
    const { app, of, post } = mockWith();
    const generated = (await post(`${base}${tokenPaths.generate}`, credentials)).body.data;
    expect(of('token.issued')).toEqual([
      { kind: 'token.issued', clientId: credentials['x-client-id'], via: 'generate', refreshNumber: 0, tokenNumber: 0 },
    ]);
    const refreshed = await post(`${base}${tokenPaths.refresh}`, credentials, {
      refresh_token: generated.refresh_token,
    });
    expect(refreshed.status).toBe(200);
    expect(of('token.refreshed')).toEqual([
      { kind: 'token.refreshed', clientId: credentials['x-client-id'], refreshNumber: 0 },
    ]);
    expect(of('token.issued').map((e) => e.via)).toEqual(['generate', 'refresh']);
    // A refresh token that is spent already changes nothing and tells nothing.
    await post(`${base}${tokenPaths.refresh}`, credentials, { refresh_token: generated.refresh_token });
    expect(of('token.refreshed')).toHaveLength(1);
    app.control.issueToken(credentials['x-client-id']);
    expect(of('token.issued').map((e) => [e.via, e.tokenNumber])).toEqual([
      ['generate', 0],
      ['refresh', 1],
      ['control', 2],
    ]);
    const token = refreshed.body.data.token as string;
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    await post(`${base}${tokenPaths.revoke}`, { ...credentials, 'x-jwt-token': token });
    await post(`${base}${tokenPaths.revoke}`, credentials);
    expect(of('token.revoked')).toEqual([
      { kind: 'token.revoked', clientId: credentials['x-client-id'], tokenId: claims.jti, expiresAt: claims.exp },
      { kind: 'token.revoked', clientId: credentials['x-client-id'], tokenId: undefined, expiresAt: undefined },
    ]);
  });

  it('tells a card account once when it is made, a payment once when accepted, with its guide and card', async () => {
    const { of, post, events } = mockWith();
    const { token } = (await post(`${base}${tokenPaths.generate}`, credentials)).body.data;
    const jwt = { 'x-jwt-token': token as string };
    const fee = await post(`${base}/graphql`, jwt, { query: feeQuery, variables: { card, contact } });
    const uid = fee.body.data.paymentCreditCardFeeCalc.card_account_uid as string;
    expect(of('card.account-created')).toEqual([
      expect.objectContaining({
        kind: 'card.account-created',
        clientId: credentials['x-client-id'],
        cardAccountUid: uid,
      }),
    ]);
    const [created] = of('card.account-created');
    expect(created!.account).toMatchObject({ card_account_uid: uid, masked_card_number: expect.stringContaining('*') });
    // The card number is never on an event.
    expect(JSON.stringify(events)).not.toContain(card.card_number);

    const byDetails = await post(`${base}/graphql`, jwt, { query: payMutation, variables: { input: payInput() } });
    const byAccount = await post(`${base}/graphql`, jwt, {
      query: payMutation,
      variables: {
        input: {
          amount: 100,
          fees: 1.8,
          credit_card: { card_account_uid: uid },
          contact,
          payment_reference: reference,
        },
      },
    });
    const legacy = await post(`${base}/graphql`, jwt, {
      query: legacyPayMutation,
      variables: { input: legacyPayInput() },
    });
    const uuids = [byDetails, byAccount, legacy].map((r) => r.body.data.processPaymentRequest.uuid as string);
    // The same card again makes no second account.
    expect(of('card.account-created')).toHaveLength(1);
    expect(of('payment.accepted').map((e) => [e.uuid, e.guide, e.byCardAccount, e.payment.uuid])).toEqual([
      [uuids[0], 'current', false, uuids[0]],
      [uuids[1], 'current', true, uuids[1]],
      [uuids[2], 'legacy', false, uuids[2]],
    ]);
    expect(of('payment.accepted')[0]!.payment).toMatchObject({
      amount: 100,
      card_account_uid: uid,
      status: 'processing',
    });
    // A refused payment is no change.
    await post(`${base}/graphql`, jwt, {
      query: payMutation,
      variables: { input: { ...payInput(), contact: undefined } },
    });
    expect(of('payment.accepted')).toHaveLength(3);
    // Each answered request is told as well, the refused one with its 7.3 paths (what the coverage report reads).
    expect(of('request.answered')).toHaveLength(6);
    expect(of('request.answered').at(-1)).toMatchObject({
      path: '/graphql',
      rootFields: ['processPaymentRequest'],
      guide: 'current',
      verdict: { validation: ['input.contact'] },
      clientId: 'test-client',
    });
  });

  it('tells a settlement once, then each delivery attempt and the delivery end, in that order', async () => {
    const { app, events, of, post } = mockWith([500]);
    const { token } = (await post(`${base}${tokenPaths.generate}`, credentials)).body.data;
    const paid = await post(
      `${base}/graphql`,
      { 'x-jwt-token': token },
      { query: payMutation, variables: { input: payInput() } },
    );
    const uuid = paid.body.data.processPaymentRequest.uuid as string;
    app.control.advanceClock(settleDelayMs);
    expect(of('payment.settled')).toEqual([
      {
        kind: 'payment.settled',
        clientId: credentials['x-client-id'],
        uuid,
        outcome: 'success',
        at: Date.UTC(2026, 0, 1, 12) + settleDelayMs,
      },
    ]);
    // The first attempt answers 500: the retry is due on the sandbox clock.
    // The attempt is told before its retry is scheduled.
    await app.control.waitForDelivery((d) => d.attempts.length === 1 && d.state === 'retry-scheduled');
    expect(of('delivery.attempted')).toHaveLength(1);
    app.control.advanceClock(60_000);
    const delivered = await app.control.waitForDelivery((d) => d.state === 'delivered');
    const spine = events.filter((e) => e.kind.startsWith('payment.') || e.kind.startsWith('delivery.'));
    expect(spine.map((e) => e.kind)).toEqual([
      'payment.accepted',
      'payment.settled',
      'delivery.attempted',
      'delivery.attempted',
      'delivery.finished',
    ]);
    expect(of('delivery.attempted').map((e) => [e.deliveryId, e.uuid, e.attempt, e.status])).toEqual([
      [delivered.id, uuid, 1, 500],
      [delivered.id, uuid, 2, 204],
    ]);
    expect(of('delivery.finished')).toEqual([
      expect.objectContaining({ deliveryId: delivered.id, uuid, delivered: true, state: 'delivered', attempts: 2 }),
    ]);
  });

  it('tells a payment settled through the control API, a failure armed, a clock move and a reset', async () => {
    const { app, of, post } = mockWith();
    const { token } = (await post(`${base}${tokenPaths.generate}`, credentials)).body.data;
    const input = payInput(testCardNumbers.visaStaysProcessing);
    const paid = await post(`${base}/graphql`, { 'x-jwt-token': token }, { query: payMutation, variables: { input } });
    const uuid = paid.body.data.processPaymentRequest.uuid as string;
    await app.control.settlePayment(uuid, 'failure');
    expect(of('payment.settled').map((e) => [e.uuid, e.outcome])).toEqual([[uuid, 'failure']]);
    app.control.failNextRequest('/graphql', 503, { times: 2 });
    expect(of('failure.armed')).toEqual([
      { kind: 'failure.armed', target: '/graphql', status: 503, message: undefined, times: 2 },
    ]);
    app.control.advanceClock(5);
    expect(of('clock.moved')).toEqual([{ kind: 'clock.moved', ms: 5 }]);
    app.control.reset();
    expect(of('sandbox.reset')).toEqual([{ kind: 'sandbox.reset' }]);
  });

  it('tells a settlement once with a file store too, where it is made under its claim', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pck-events-'));
    const built = buildMockApp(
      { log: false, store: `file:${join(dir, 'state.log')}`, assumptions: { settleDelayMs } },
      { platform: nodePlatform, ...nodeStoreSeams },
    );
    close = async () => {
      await built.app.close();
      rmSync(dir, { recursive: true, force: true });
    };
    await built.app.ready();
    const events: MockEvent[] = [];
    let told: () => void = () => {};
    const settled = new Promise<void>((resolve) => (told = resolve));
    built.events.on((e) => {
      events.push(e);
      if (e.kind === 'payment.settled') told();
    });
    const { post } = requestsVia(built.app.fetch);
    const { token } = (await post(`${base}${tokenPaths.generate}`, credentials)).body.data;
    const paid = await post(
      `${base}/graphql`,
      { 'x-jwt-token': token },
      { query: payMutation, variables: { input: payInput() } },
    );
    const uuid = paid.body.data.processPaymentRequest.uuid as string;
    built.app.control.advanceClock(settleDelayMs);
    // Under its claim the settlement commits once the store took its record: the event says when.
    await settled;
    expect((await built.app.control.payments())[0]?.settledOutcome).toBe('success');
    expect(events.filter((e) => e.kind === 'payment.settled').map((e) => 'uuid' in e && e.uuid)).toEqual([uuid]);
    expect(events.filter((e) => e.kind !== 'request.answered').map((e) => e.kind)).toEqual([
      'token.issued',
      'card.account-created',
      'payment.accepted',
      'clock.moved',
      'payment.settled',
    ]);
  });

  it('has the coverage report and the journal listening from the start to their kinds only, and a reader that leaves takes nothing with it', () => {
    const built = buildMockApp({ log: false }, { platform: nodePlatform });
    close = () => built.app.close();
    const wanted = () =>
      (['request.answered', 'payment.accepted', 'payment.settled', 'delivery.finished', 'token.issued'] as const).map(
        (kind) => built.events.wants(kind),
      );
    // Nobody reads a token's issue: generate-token builds no event for it.
    expect(wanted()).toEqual([true, true, true, true, false]);
    const off = built.events.on(() => {});
    expect(built.events.wants('token.issued')).toBe(true);
    off();
    expect(wanted()).toEqual([true, true, true, true, false]);
  });
});

describe('one answered request, read by the log, the journal and the coverage report', () => {
  it.each([
    ['memory', undefined],
    ['a file store', 'file'],
  ])(
    'with %s, each reader gets its share of the one event: the log every request, the journal and coverage theirs',
    async (_name, store) => {
      const dir = mkdtempSync(join(tmpdir(), 'pck-answered-'));
      const lines: string[] = [];
      const built = buildMockApp(
        { log: (chunk) => lines.push(chunk), ...(store ? { store: `file:${join(dir, 'state.log')}` } : {}) },
        { platform: nodePlatform, ...nodeStoreSeams },
      );
      close = async () => {
        await built.app.close();
        rmSync(dir, { recursive: true, force: true });
      };
      await built.app.ready();
      const { app } = built;
      const { post, get } = requestsVia(app.fetch);
      const counted = () => app.control.coverage().behaviours.reduce((sum, b) => sum + b.count, 0);
      const logged = () => {
        app.flushLog();
        return lines
          .join('')
          .split('\n')
          .filter((l) => /^(GET|POST|OPTIONS) /.test(l));
      };

      // A service request: a log line, a journal entry, a behaviour counted.
      expect((await post(`${base}${tokenPaths.generate}`, credentials)).status).toBe(200);
      const [line, ...more] = logged();
      expect([line?.startsWith(`POST ${tokenPaths.generate} - 200 `), line?.endsWith('ms ok'), more]).toEqual([
        true,
        true,
        [],
      ]);
      expect((await app.control.requests()).map((e) => [e.method, e.path, e.status, e.clientId, e.outcome])).toEqual([
        ['POST', tokenPaths.generate, 200, credentials['x-client-id'], 'ok'],
      ]);
      const afterService = counted();
      expect(afterService).toBeGreaterThan(0);

      // A control call and a CORS preflight answered 204: the log only.
      expect((await get(`${base}/__pck/health`)).status).toBe(200);
      const preflight = new Request(`${base}/graphql`, {
        method: 'OPTIONS',
        headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
      });
      expect((await app.fetch(preflight)).status).toBe(204);
      // An unknown path: the log and the journal, but no behaviour of the service.
      expect((await get(`${base}/nowhere`)).status).toBe(404);
      expect(logged().map((l) => l.split(' ').slice(0, 2).join(' '))).toEqual([
        `POST ${tokenPaths.generate}`,
        'GET /__pck/health',
        'OPTIONS /graphql',
        'GET /nowhere',
      ]);
      expect((await app.control.requests()).map((e) => [e.path, e.status, e.outcome])).toEqual([
        [tokenPaths.generate, 200, 'ok'],
        ['/nowhere', 404, 'HTTP 404'],
      ]);
      expect(counted()).toBe(afterService);
    },
  );
});

describe("a store's shared token state", () => {
  // A store object that holds the token state for every process, as a Redis store does; the calls never reach it.
  const sharedStore = () =>
    ({
      kind: 'redis',
      open: async () => {},
      increment: async () => 1,
      close: async () => {},
      ...Object.fromEntries(
        ['tokenState', 'clockState', 'failureState', 'paymentState', 'deliveryState', 'journalState'].map((port) => [
          port,
          () => ({}),
        ]),
      ),
    }) as unknown as MockOptions['store'];

  it('is refused without the store wiring the Node entries pass, as in a browser build', () => {
    expect(() => buildMockApp({ log: false, store: sharedStore() }, { platform: webPlatform })).toThrow(
      new TypeError(
        '[payment-contract-kit] store object needs Node (a file or a Redis connection): in a browser or worker the mock keeps its state in memory; leave the store option out.',
      ),
    );
  });

  it.each(['sharedParts', 'sharedJournal', 'sharedTokenOps'] as const)(
    'is refused without the %s the Node entries pass',
    (seam) => {
      const { [seam]: _, ...without } = nodeStoreSeams;
      expect(() => buildMockApp({ log: false, store: sharedStore() }, { platform: nodePlatform, ...without })).toThrow(
        /holds the sandbox for every process \(Redis\), which needs Node/,
      );
    },
  );

  it('gets them from the Node entry', () => {
    const built = buildMockApp({ log: false, store: sharedStore() }, { platform: nodePlatform, ...nodeStoreSeams });
    close = () => built.app.close();
    expect(built.app.control.durable).toBeTypeOf('function');
  });
});
