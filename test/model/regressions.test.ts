// Defects the model-based tests found, each as the shrunk command list replayed by hand.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildNodeMockApp } from '../../src/mock/app.ts';
import type { MockApp } from '../../src/mock/control-types.ts';
import { createMockApp } from '../../src/mock/index.ts';
import { testCardNumbers } from '../../src/test-values.ts';
import { payInput } from '../mock/helpers.ts';
import { paidUuid, sandboxClient } from '../support/sandbox-client.ts';
import { modelCommands, nextRun, type RealSide, ReferenceModel } from './commands.ts';
import { createReceiver, type Deployment } from './deployment.ts';

const credentials = { 'x-client-id': 'test-client', 'x-api-key': 'test-api-key' };
const feeList = JSON.stringify({
  query: 'query($amount: Float!){ paymentGatewayFeesCalc(amount: $amount) { fees } }',
  variables: { amount: 10 },
});

type InProcessMock = ReturnType<typeof createMockApp>;
type Send = (path: string, headers: Record<string, string>, body?: string) => Promise<Response>;

/** A POST to the in-process mock with a JSON content type, as the sequences send their requests. */
function poster(mock: InProcessMock): Send {
  return (path, headers, body) =>
    mock.fetch(
      new Request(`http://mock${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: body ?? null,
      }),
    );
}

/** The access token of a generate-token call with `headers`. */
async function generatedToken(send: Send, headers: Record<string, string> = credentials): Promise<string> {
  return (
    (await (await send('/api/v2/accounting/token/generate-token', headers)).json()) as { data: { token: string } }
  ).data.token;
}

/** The reason codes of a fee list sent with `token`: empty when it was answered. */
async function feeListRefusals(send: Send, token: string): Promise<(string | undefined)[]> {
  const answer = (await (await send('/graphql', { 'x-jwt-token': token }, feeList)).json()) as {
    errors?: { extensions?: { reason?: string } }[];
  };
  return (answer.errors ?? []).map((e) => e.extensions?.reason);
}

describe('found by the model', () => {
  let app: InProcessMock | undefined;
  afterEach(() => app?.close());

  it("reset, another client's token of the same jti revoked: this client's token still works", async () => {
    const now = Date.UTC(2026, 5, 1);
    app = createMockApp({
      log: false,
      realNow: () => now,
      clients: [
        { clientId: 'test-client', apiKey: 'test-api-key' },
        { clientId: 'second-client', apiKey: 'second-api-key' },
      ],
    });
    const send = poster(app);
    const second = { 'x-client-id': 'second-client', 'x-api-key': 'second-api-key' };
    const first = await generatedToken(send);
    await send('/__pck/reset', {});
    const other = await generatedToken(send, second); // the same jti and exp as `first`, another client
    await send('/api/v2/accounting/token/revoke-token', { ...second, 'x-jwt-token': other });
    expect(await feeListRefusals(send, first)).toEqual([]);
  });

  it.each([
    ['a frozen clock (the same token string again)', 0],
    ['a clock that moved (the same jti, a later exp)', 5_000],
  ])('reset, revoke a token issued before it, generate: the new token works, with %s', async (_name, stepMs) => {
    let now = Date.UTC(2026, 5, 1);
    app = createMockApp({ log: false, realNow: () => now });
    const send = poster(app);
    const old = await generatedToken(send);
    await send('/__pck/reset', {});
    now += stepMs;
    await send('/api/v2/accounting/token/revoke-token', { ...credentials, 'x-jwt-token': old });
    const fresh = await generatedToken(send);
    expect(await feeListRefusals(send, fresh)).toEqual([]);
    // The token revoked stays revoked when it is another token than the new one.
    if (stepMs > 0) expect(await feeListRefusals(send, old)).toEqual(['TOKEN_REVOKED']);
  });

  it('reset, revoke a token issued before it, generate, revoke the new one: the older token stays revoked', async () => {
    let now = Date.UTC(2026, 5, 1);
    app = createMockApp({ log: false, realNow: () => now });
    const send = poster(app);
    const revoke = (token: string) =>
      send('/api/v2/accounting/token/revoke-token', { ...credentials, 'x-jwt-token': token });
    const old = await generatedToken(send);
    await send('/__pck/reset', {});
    now += 5_000;
    await revoke(old);
    const fresh = await generatedToken(send); // the same jti as `old`, a later exp
    await revoke(fresh);
    expect(await feeListRefusals(send, old)).toEqual(['TOKEN_REVOKED']);
    expect(await feeListRefusals(send, fresh)).toEqual(['TOKEN_REVOKED']);
  });

  it('revoke all, generate, reset, revoke all: the token issued before the reset is revoked', async () => {
    const now = Date.UTC(2026, 5, 1);
    app = createMockApp({ log: false, realNow: () => now });
    const send = poster(app);
    const revokeAll = () => send('/api/v2/accounting/token/revoke-token', credentials);
    await send('/api/v2/accounting/token/generate-token', credentials);
    expect((await revokeAll()).status).toBe(200);
    const token = await generatedToken(send);
    await send('/__pck/reset', {});
    // A reset forgets revocations: the token works until the client revokes again.
    expect(await feeListRefusals(send, token)).toEqual([]);
    expect((await revokeAll()).status).toBe(200);
    expect((await feeListRefusals(send, token))[0]).toBe('TOKEN_REVOKED');
  });

  it('a clock moved to just short of a settlement: real time reaches it, and the payment settles then', async () => {
    let now = Date.UTC(2026, 5, 1);
    app = createMockApp({ log: false, realNow: () => now, settleDelayMs: 60_000 });
    const client = sandboxClient((r) => (app as InProcessMock).fetch(r));
    const uuid = paidUuid(await client.pay((await client.generate()).body.data.token));
    const status = async () => (await app?.control.payments())?.find((p) => p.uuid === uuid)?.status;
    // Only the mock's real timer is faked, and moved with the real time it reads.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      app.control.advanceClock(59_990);
      expect(await status()).toBe('processing');
      now += 10;
      vi.advanceTimersByTime(10);
      // Before, the timer armed at the payment for 60 s of real time stayed armed: it settled a minute late.
      expect(await status()).toBe('success');
    } finally {
      vi.useRealTimers();
    }
  });

  it("a reset inside a sequence, a webhook of its run still in flight at the sequence's end: not the next sequence's", async () => {
    const receiver = createReceiver();
    const deployment: Deployment = {
      name: 'reset only',
      send: async () => ({ status: 200, headers: {}, body: {}, text: '{}' }),
      wallNow: () => 0,
      settleDelayMs: 60_000,
      frozenClock: true,
      receiver,
      close: async () => {},
    };
    // The reset command as the sequences draw it (it shares a rare slot with two others).
    const reset = modelCommands(60_000, false)
      .flatMap((arbitrary) => fc.sample(arbitrary, { numRuns: 50, seed: 1 }))
      .find((command) => String(command) === 'reset()');
    if (!reset) throw new Error('no reset() among the commands drawn');
    const real: RealSide = { deployment, run: nextRun() };
    await reset.run(new ReferenceModel(60_000), real);
    const resetRun = real.run;
    // The next sequence: its run, then the webhook of the first payment after that reset arrives late.
    receiver.startRun(nextRun());
    const late = new Request('http://receiver/webhooks', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-delivery-id': 'whd_late' },
      body: JSON.stringify({
        uuid: 'a317126f-e4f6-4d2c-9551-66d207cd9ed0',
        status: 'success',
        metadata: { run: resetRun },
      }),
    });
    expect((await receiver.handle(late)).status).toBe(204);
    expect(receiver.delivered()).toEqual([]);
  });

  it("file store: pay, settle, SIGKILL between the webhook's end and its delivery's end record, restart: delivered", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pck-model-regression-'));
    const file = join(dir, 'sandbox.store');
    const hooks: string[] = [];
    const started: MockApp[] = [];
    const start = async () => {
      const mock = buildNodeMockApp(
        { log: false, store: `file:${file}`, settleDelayMs: 60_000 },
        {
          webhookReceivers: [
            async (request) => {
              hooks.push(((await request.json()) as { uuid: string }).uuid);
              return new Response(null, { status: 204 });
            },
          ],
        },
      );
      started.push(mock);
      await mock.ready();
      return mock;
    };
    try {
      const first = await start();
      const client = sandboxClient((r) => first.fetch(r));
      const uuid = paidUuid(await client.pay((await client.generate()).body.data.token))!;
      expect((await client.control('payments/settle', { uuid, outcome: 'success' })).status).toBe(200);
      await first.control.waitForDelivery((d) => d.paymentUuid === uuid && d.state === 'delivered');
      await first.close();
      // The process killed after the progress's `hk` reached the file and before the delivery's own end did (two
      // batches then): the log ends with the delivery `sending` and the webhook finished.
      const lines = readFileSync(file, 'utf8').split('\n');
      const end = lines.findIndex((l) => l.includes('"t":"dv"') && l.includes('"s":"delivered"'));
      expect(end).toBeGreaterThan(0);
      writeFileSync(file, lines.filter((_, i) => i !== end).join('\n'));
      const second = await start();
      const delivered = await second.control.waitForDelivery((d) => d.paymentUuid === uuid && d.state === 'delivered', {
        timeoutMs: 2_000,
      });
      expect(delivered.paymentUuid).toBe(uuid);
      // Sent once: the receiver had it before the kill.
      expect(hooks).toEqual([uuid]);
    } finally {
      for (const mock of started) await mock.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('file store: a token kept over a reset revoked, the same token issued again, restart: it still works', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pck-model-regression-'));
    const file = join(dir, 'sandbox.store');
    const started: MockApp[] = [];
    // A frozen clock: the token issued after the reset has the jti (ids start over) and the exp of the revoked one.
    const now = Date.UTC(2026, 5, 1);
    const start = async () => {
      const mock = buildNodeMockApp({ log: false, store: `file:${file}`, realNow: () => now }, {});
      started.push(mock);
      await mock.ready();
      return { mock, client: sandboxClient((r) => mock.fetch(r)) };
    };
    try {
      const first = await start();
      const kept = (await first.client.generate()).body.data.token as string;
      expect((await first.client.control('reset')).status).toBe(200);
      expect((await first.client.revoke(kept)).status).toBe(200);
      const again = (await first.client.generate()).body.data.token as string;
      expect(again).toBe(kept);
      expect(paidUuid(await first.client.pay(again))).toBeDefined();
      await first.mock.close();
      // The replay of that generate-token lifts the revocation as the live call did.
      const second = await start();
      expect(paidUuid(await second.client.pay(again))).toBeDefined();
    } finally {
      for (const mock of started) await mock.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('file store: pay, the clock past its settlement, reset, pay the card that stays processing, restart: processing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pck-model-regression-'));
    const file = join(dir, 'sandbox.store');
    const started: MockApp[] = [];
    const start = async () => {
      const mock = buildNodeMockApp({ log: false, store: `file:${file}`, settleDelayMs: 60_000 }, {});
      started.push(mock);
      await mock.ready();
      return { mock, client: sandboxClient((r) => mock.fetch(r)) };
    };
    try {
      const first = await start();
      const before = paidUuid(await first.client.pay((await first.client.generate()).body.data.token));
      expect((await first.client.control('clock/advance', { ms: 60_000 })).status).toBe(200);
      expect((await first.client.control('reset')).status).toBe(200);
      const token = (await first.client.generate()).body.data.token;
      const after = paidUuid(await first.client.pay(token, payInput(testCardNumbers.visaStaysProcessing)));
      // Payment ids are seeded: the same uuid again after the reset.
      expect(after).toBe(before);
      await first.mock.close();
      // The replay moves the clock past the first payment's settlement again, before it reaches the reset.
      const second = await start();
      // An answer with a record of its own comes after every record before it is on disk (a settlement's too).
      expect((await second.client.control('clock/advance', { ms: 0 })).status).toBe(200);
      expect((await second.mock.control.payments()).map((p) => [p.uuid, p.status])).toEqual([[after, 'processing']]);
      // Nothing settled it: the first payment's settlement went from the file with everything before the reset.
      expect(readFileSync(file, 'utf8')).not.toContain('"t":"set"');
    } finally {
      for (const mock of started) await mock.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
