/**
 * The pipeline's steps in their order (pipeline.ts), on fakes of the parts it calls: which step answers, what the
 * store's two steps wait for, and that every answer, refusals included, is recorded once.
 */
import { describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../../../src/assumptions.ts';
import { createEventBus, type MockEvent } from '../../../support/mock-internals/domain.ts';
import { createClock, createSeededRandom } from '../../../support/mock-internals/foundations.ts';
import {
  createErrorMapper,
  createPipeline,
  createRouter,
  type MockRequest,
  type PipelineDeps,
  type PipelineSync,
  type RouteEntry,
} from '../../../support/mock-internals/http.ts';

const request = (path: string, headers: Record<string, string> = {}): MockRequest => ({
  method: 'POST',
  path,
  query: '',
  headers: { host: 'localhost', ...headers },
  body: new Uint8Array(),
  remoteAddress: '127.0.0.1',
});

/** A pipeline over one route (`/r`, its auth passing only with `x-ok`) and fakes that note what ran, in order. */
function pipelineOf(overrides: Partial<PipelineDeps> = {}) {
  const ran: string[] = [];
  // Every answered request, as the bus tells it (the journal, the log and the coverage report read it there).
  const journaled: Extract<MockEvent, { kind: 'request.answered' }>[] = [];
  const events = createEventBus();
  events.on((e) => {
    if (e.kind === 'request.answered') journaled.push(e);
  });
  const router = createRouter<RouteEntry>();
  router.add('rest', 'POST', '/r', {
    auth: (r) => {
      ran.push('auth');
      return r.headers['x-ok'] === undefined ? { status: 401, body: { status: 'ERROR' } } : 'client-1';
    },
    handle: (_r, clientId) => {
      ran.push('route');
      return { status: 200, body: { clientId } };
    },
  });
  let armed: number | undefined;
  const deps: PipelineDeps = {
    router,
    failures: {
      pending: () => armed !== undefined,
      take: () => {
        ran.push('injected failure');
        const status = armed!;
        armed = undefined;
        return { status, message: undefined };
      },
    },
    errors: createErrorMapper(defaultAssumptions, () => undefined),
    latency: undefined,
    latencyRandom: createSeededRandom('steps', (text) => text.padEnd(128, '0')),
    events,
    clock: createClock(),
    monotonicNs: () => 0n,
    guard: {
      check: (r) => {
        ran.push('host and CORS');
        return r.headers.host === 'localhost' ? undefined : { status: 403, body: { status: 'ERROR' } };
      },
      answerHeaders: () => undefined,
    },
    pages: undefined,
    ...overrides,
  };
  return { core: createPipeline(deps), ran, journaled, arm: (status: number) => (armed = status) };
}

/** A store whose catch-up and durability the test resolves by hand. */
function manualSync() {
  const calls: string[] = [];
  let release: { resolve: () => void; reject: (e: unknown) => void } | undefined;
  const pending = () =>
    new Promise<void>((resolve, reject) => {
      release = { resolve, reject };
    });
  const sync: PipelineSync = {
    before: () => {
      calls.push('before');
      return pending();
    },
    after: () => {
      calls.push('after');
      return pending();
    },
  };
  return { sync, calls, release: () => release!.resolve(), fail: (e: unknown) => release!.reject(e) };
}

describe('pipeline steps', () => {
  it('runs host and CORS, auth and the route in order, and records the answer once', async () => {
    const { core, ran, journaled } = pipelineOf();
    const reply = await core(request('/r', { 'x-ok': '1' }));
    expect(reply.status).toBe(200);
    expect(JSON.parse(String(reply.body))).toEqual({ clientId: 'client-1' });
    expect(ran).toEqual(['host and CORS', 'auth', 'route']);
    expect(journaled.map((e) => [e.path, e.status, e.clientId, e.outcome])).toEqual([['/r', 200, 'client-1', 'ok']]);
  });

  it('an injected failure answers before auth: a caller without credentials gets it', async () => {
    const { core, ran, journaled, arm } = pipelineOf();
    arm(503);
    expect((await core(request('/r'))).status).toBe(503);
    expect(ran).toEqual(['host and CORS', 'injected failure']);
    expect(journaled.map((e) => e.status)).toEqual([503]);
  });

  it('a refusal exits at its step: the route never runs', async () => {
    const { core, ran } = pipelineOf();
    expect((await core(request('/r', { host: 'evil.example' }))).status).toBe(403);
    expect((await core(request('/r'))).status).toBe(401);
    expect(ran).toEqual(['host and CORS', 'host and CORS', 'auth']);
  });

  it('with a store, a request the host check refuses never waits for the catch-up', async () => {
    const store = manualSync();
    const { core, ran } = pipelineOf({ sync: store.sync });
    const reply = core(request('/r', { host: 'evil.example' }));
    expect(store.calls).toEqual(['after']);
    store.release();
    expect((await reply).status).toBe(403);
    expect(ran).toEqual(['host and CORS']);
  });

  it('with a store, the route runs after the catch-up and its answer goes out only once its records are durable', async () => {
    const store = manualSync();
    const { core, ran, journaled } = pipelineOf({ sync: store.sync });
    let answered = false;
    const reply = Promise.resolve(core(request('/r', { 'x-ok': '1' }))).then((r) => {
      answered = true;
      return r;
    });
    await Promise.resolve();
    expect(store.calls).toEqual(['before']);
    expect(ran).toEqual(['host and CORS']);
    store.release();
    await new Promise((r) => setImmediate(r));
    expect(store.calls).toEqual(['before', 'after']);
    expect(ran).toEqual(['host and CORS', 'auth', 'route']);
    expect(answered).toBe(false);
    expect(journaled).toEqual([]);
    store.release();
    expect((await reply).status).toBe(200);
    expect(journaled.map((e) => e.status)).toEqual([200]);
  });

  it('a store that fails its catch-up answers 503 without running the route or waiting for records', async () => {
    const store = manualSync();
    const { core, ran, journaled } = pipelineOf({ sync: store.sync });
    const reply = core(request('/r', { 'x-ok': '1' }));
    store.fail(new Error('connection refused'));
    const answer = await reply;
    expect(answer.status).toBe(503);
    expect(String(answer.body)).toContain('state store is unavailable');
    expect(ran).toEqual(['host and CORS']);
    expect(store.calls).toEqual(['before']);
    expect(journaled.map((e) => e.status)).toEqual([503]);
  });

  it('a store that fails to make the records durable turns the answer into its 503', async () => {
    const store = manualSync();
    const { core, ran } = pipelineOf({ sync: store.sync });
    const reply = core(request('/r', { 'x-ok': '1' }));
    store.release();
    await new Promise((r) => setImmediate(r));
    store.fail(new Error('connection reset'));
    expect((await reply).status).toBe(503);
    expect(ran).toEqual(['host and CORS', 'auth', 'route']);
  });
});
