import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.ts';
import { createCheckQueue, type SeenExchange } from '../../src/proxy/context.ts';
import { startProxy } from '../../src/proxy/index.ts';
import { servicePaths } from '../../src/spec-names.ts';
import { rawRequest } from './support.ts';

const seen = (path: string) => ({ path }) as unknown as SeenExchange;
const fail = (error: unknown) => {
  throw error;
};

describe('createCheckQueue', () => {
  it('checks nothing while the answer is being written, then every exchange in answer order', async () => {
    const ran: string[] = [];
    const queue = createCheckQueue((seq, x) => ran.push(`${seq} ${x.path}`), fail);
    queue.push(1, seen('/a'));
    queue.push(2, seen('/b'));
    expect(ran).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toEqual(['1 /a', '2 /b']);
  });

  it('hands a failing check to onError and goes on with the rest of the batch (a throw there would end the process)', async () => {
    const ran: number[] = [];
    const failed: string[] = [];
    const queue = createCheckQueue(
      (seq) => {
        if (seq === 1) throw new Error('checker bug');
        ran.push(seq);
      },
      (error, x) => failed.push(`${x.path}: ${(error as Error).message}`),
    );
    queue.push(1, seen('/a'));
    queue.push(2, seen('/b'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(failed).toEqual(['/a: checker bug']);
    expect(ran).toEqual([2]);
  });

  it('settles at once when a reader asks, and the scheduled turn then finds nothing left', async () => {
    const ran: number[] = [];
    const queue = createCheckQueue((seq) => ran.push(seq), fail);
    queue.push(1, seen('/a'));
    queue.settle();
    expect(ran).toEqual([1]);
    queue.push(2, seen('/b'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toEqual([1, 2]);
  });

  it('never holds more than its bound: the push that reaches it checks every waiting exchange at once', async () => {
    const ran: number[] = [];
    const queue = createCheckQueue((seq) => ran.push(seq), fail, 3);
    queue.push(1, seen('/a'));
    queue.push(2, seen('/b'));
    expect(ran).toEqual([]);
    queue.push(3, seen('/c'));
    expect(ran).toEqual([1, 2, 3]);
    queue.push(4, seen('/d'));
    expect(ran).toEqual([1, 2, 3]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toEqual([1, 2, 3, 4]);
  });
});

describe('the proxy checks after answering', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0, log: false });
  });
  afterAll(async () => {
    await mock.close();
  });

  it("a report read as soon as the answer arrived already holds that exchange's drift", async () => {
    const proxy = await startProxy({ upstream: mock.url, port: 0, log: false });
    try {
      // No x-jwt-token: a consumer drift the checker finds on the request side.
      await rawRequest(proxy.url, {
        path: servicePaths.graphql,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      const report = proxy.report();
      expect(report.exchanges).toBe(1);
      expect(report.drifts.map((d) => [d.exchange.seq, d.kind, d.path])).toContainEqual([
        1,
        'consumer',
        '(header) x-jwt-token',
      ]);
      const live = (await (await fetch(`${proxy.url}/__pck/drift`)).json()) as { exchanges: number };
      expect(live.exchanges).toBe(1);
    } finally {
      await proxy.close();
    }
  });
});
