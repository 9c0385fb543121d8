/**
 * The deployments without a child process (unit tier): the mock in process through `createMockApp(...).fetch`, and
 * the msw handlers under `setupServer`. Both freeze the mock's real time, so only the control API moves the clock.
 *
 * @module
 */
import { setupServer } from 'msw/node';
import { createMockApp } from '../../src/mock/index.ts';
import { createMockHandlers } from '../../src/msw/index.ts';
import {
  checkedSender,
  createReceiver,
  type Deployment,
  frozenRealTime,
  modelMockOptions,
  serveReceiver,
} from './deployment.ts';

/** The mock in process: `createMockApp(...).fetch`, its webhooks to a receiver on a free local port. */
export async function inProcessDeployment(): Promise<Deployment> {
  const receiver = createReceiver();
  const served = await serveReceiver(receiver);
  const app = createMockApp({ ...modelMockOptions, realNow: () => frozenRealTime, webhookUrls: [served.url] });
  const send = checkedSender((path, init) => app.fetch(new Request(`http://mock${path}`, init)));
  return {
    name: 'in process',
    send,
    wallNow: () => frozenRealTime,
    frozenClock: true,
    settleDelayMs: app.control.assumptions.settleDelayMs,
    receiver,
    async close() {
      await app.close();
      await served.close();
    },
  };
}

/** The msw handlers under `setupServer`, its webhooks to an in-process receiver. */
export async function mswDeployment(): Promise<Deployment> {
  const receiver = createReceiver();
  const mock = createMockHandlers({
    ...modelMockOptions,
    realNow: () => frozenRealTime,
    baseUrl: 'http://127.0.0.1:4010',
    webhookReceivers: [(request) => receiver.handle(request)],
  });
  const server = setupServer(...mock.handlers);
  server.listen({ onUnhandledRequest: 'error' });
  const send = checkedSender((path, init) => fetch(`${mock.baseUrl}${path}`, init));
  return {
    name: 'msw',
    send,
    wallNow: () => frozenRealTime,
    frozenClock: true,
    settleDelayMs: mock.control.assumptions.settleDelayMs,
    receiver,
    async close() {
      server.close();
      await mock.close();
    },
  };
}
